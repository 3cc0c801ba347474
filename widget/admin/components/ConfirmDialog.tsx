/**
 * The confirmation of a money or credential action: a modal `<dialog>` (showModal: the page
 * behind is inert, so focus stays inside; Escape cancels), titled by what it does, showing the
 * facts (the amount, what remains), optionally an amount field prefilled with the remainder, and
 * the action's refusal in words inside it. Opened by its trigger button; focus returns there.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ActionMessages } from './ActionMessages';
import { Field } from './Field';
import type { Action } from './useAction';

export interface AmountInput {
  readonly label: string;
  /** The prefilled value: what remains. */
  readonly initial: string;
  readonly hint?: string;
  /** A message when the typed amount is not acceptable, undefined when it is. */
  readonly check: (typed: string) => string | undefined;
}

interface Props {
  /** The trigger's text, and the dialog's title. */
  readonly label: string;
  /** The trigger's accessible name where the text alone would not say what it acts on. */
  readonly triggerLabel?: string;
  readonly danger?: boolean;
  readonly action: Action;
  /** What will happen, in words: the amount, what remains. */
  readonly children: ComponentChildren;
  readonly amount?: AmountInput;
  /** The request (with the amount typed, when there is a field); its message on success. */
  readonly work: (amount: string | undefined) => Promise<string | undefined>;
  /** The confirming button's text. */
  readonly confirm: string;
}

export function ConfirmDialog(props: Props) {
  const { label, action, amount } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState(amount?.initial ?? '');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  const show = () => {
    action.reset();
    setTyped(amount?.initial ?? '');
    setFieldError(undefined);
    setOpen(true);
  };
  const closed = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const problem = amount?.check(typed.trim());
    setFieldError(problem);
    if (problem !== undefined) return;
    const done = await action.run(() => props.work(amount === undefined ? undefined : typed.trim()));
    if (done) closed();
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        class={props.danger ? 'danger' : undefined}
        aria-label={props.triggerLabel}
        aria-haspopup="dialog"
        onClick={show}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} onClose={() => open && closed()} class="confirm">
        {open && (
          <form method="dialog" onSubmit={submit} noValidate>
            <h2 id={titleId} class="confirm-title">
              {label}?
            </h2>
            <div class="confirm-facts">{props.children}</div>
            {amount !== undefined && (
              <Field
                label={amount.label}
                value={typed}
                onValue={setTyped}
                inputMode="decimal"
                {...(amount.hint === undefined ? {} : { hint: amount.hint })}
                error={fieldError ?? action.field('amount')}
              />
            )}
            {action.error !== undefined && <ActionMessages action={action} />}
            <div class="confirm-buttons">
              <button type="submit" class={props.danger ? 'danger' : undefined} disabled={action.busy}>
                {props.confirm}
              </button>
              <button type="button" class="secondary" onClick={closed}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </dialog>
    </>
  );
}
