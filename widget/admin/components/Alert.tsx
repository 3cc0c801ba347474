/** A message for the page's last action: errors are alerts (read out at once), successes a status. */
import type { ComponentChildren } from 'preact';

export function ErrorMessage({ error }: { error: Error | string | undefined }) {
  if (error === undefined) return null;
  return (
    <p class="message message-error" role="alert">
      {typeof error === 'string' ? error : error.message}
    </p>
  );
}

export function Status({ children }: { children: ComponentChildren }) {
  return (
    <p class="message message-success" role="status">
      {children}
    </p>
  );
}

/** While data loads, or when it could not be read. */
export function Loading<T>({ data, error }: { data: T | undefined; error: Error | undefined }) {
  if (error !== undefined) return <ErrorMessage error={error} />;
  if (data === undefined)
    return (
      <p class="muted" aria-live="polite">
        Loading…
      </p>
    );
  return null;
}
