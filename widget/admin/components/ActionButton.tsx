/**
 * A button that runs an action (useAction) when pressed: disabled while that action is busy, so
 * a second press cannot send the request again; its outcome shows where the action's
 * ActionMessages stand. With `confirm` (what the action will do, in words), it asks first in a
 * ConfirmDialog: every credential or money action does.
 */
import type { ComponentChildren } from 'preact';
import { ConfirmDialog } from './ConfirmDialog';
import type { Action } from './useAction';

export function ActionButton({
  action,
  work,
  class: className,
  label,
  confirm,
  children,
}: {
  action: Action;
  /** The request; its message on success, or undefined for none. */
  work: () => Promise<string | undefined>;
  /** `danger` for what cannot be undone, `secondary` for the rest of a row's actions. */
  class?: 'danger' | 'secondary';
  /** The accessible name, where the text alone would not say which record it acts on. */
  label?: string;
  /** Asks first, saying this: what the action changes and whether it can be undone. */
  confirm?: ComponentChildren;
  children: string;
}) {
  if (confirm !== undefined)
    return (
      <ConfirmDialog
        label={children}
        {...(label === undefined ? {} : { triggerLabel: label })}
        danger={className === 'danger'}
        action={action}
        confirm={children}
        work={() => work()}
      >
        <p>{confirm}</p>
      </ConfirmDialog>
    );
  return (
    <button
      type="button"
      class={className}
      aria-label={label}
      disabled={action.busy}
      onClick={() => void action.run(work)}
    >
      {children}
    </button>
  );
}

/** A form's submit button: disabled while the form's action is busy, like ActionButton. */
export function SubmitButton({ action, children }: { action: Action; children: ComponentChildren }) {
  return (
    <button type="submit" disabled={action.busy}>
      {children}
    </button>
  );
}
