/**
 * One payment form's state: field errors, the form-level message and whether it is submitting.
 * Components read these signals in small leaf components, so the form's own element tree renders
 * once and merchant code that moves or adds elements (onReady) is not undone by a re-render.
 */
import { type Signal, signal } from '@preact/signals';

export type FieldErrors = Readonly<Record<string, string>>;

export interface FormModel {
  readonly submitting: Signal<boolean>;
  /** The form-level message (a decline, a technical error); '' when none. */
  readonly message: Signal<string>;
  readonly errors: Signal<FieldErrors>;
  /** Fields the shopper left once (their errors show from then on). */
  readonly touched: Set<string>;
}

export function formModel(): FormModel {
  return { submitting: signal(false), message: signal(''), errors: signal({}), touched: new Set() };
}

export function setError(model: FormModel, field: string, message: string | undefined): void {
  const current = model.errors.peek();
  if ((current[field] ?? undefined) === message) return;
  const next: Record<string, string> = { ...current };
  if (message === undefined) delete next[field];
  else next[field] = message;
  model.errors.value = next;
}

/**
 * The page's own inputs inside a widget form (a createRegistration checkbox, customParameters[…]
 * fields injected before the pay button), as FormData sees them, without the names the widget sets.
 */
export function merchantFields(form: HTMLFormElement, own: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && name !== '' && !own.has(name)) out.push([name, value]);
  }
  return out;
}

/** `disableSubmitOnEnter`: Enter in a field of the form does not submit it. */
export function enterGuard(disabled: boolean) {
  return disabled
    ? (event: KeyboardEvent) => {
        if (event.key === 'Enter' && (event.target as Element | null)?.tagName === 'INPUT')
          event.preventDefault();
      }
    : undefined;
}

/** Submits a form as the shopper would (its submit listeners run); Enter in a card frame. */
export function requestSubmit(form: HTMLFormElement | null): void {
  if (form === null) return;
  if (typeof form.requestSubmit === 'function') form.requestSubmit();
  else form.dispatchEvent(new Event('submit', { cancelable: true, bubbles: true }));
}
