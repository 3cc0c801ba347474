/**
 * A button that runs an action (useAction) when pressed: disabled while that action is busy, so
 * a second press cannot send the request again; its outcome shows where the action's
 * ActionMessages stand.
 */
import type { ComponentChildren } from 'preact';
import type { Action } from './useAction';

export function ActionButton({
  action,
  work,
  class: className,
  label,
  children,
}: {
  action: Action;
  /** The request; its message on success, or undefined for none. */
  work: () => Promise<string | undefined>;
  /** `danger` for what cannot be undone, `secondary` for the rest of a row's actions. */
  class?: 'danger' | 'secondary';
  /** The accessible name, where the text alone would not say which record it acts on. */
  label?: string;
  children: ComponentChildren;
}) {
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
