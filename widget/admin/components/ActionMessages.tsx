/** What an action ended with: its refusal (with the fields the API named) or its success. */
import { ApiError } from '../api';
import { ErrorMessage, Status } from './Alert';
import type { Action } from './useAction';

export function ActionMessages({ action }: { action: Action }) {
  const { error, done } = action;
  if (error !== undefined) {
    const fields = error instanceof ApiError ? error.parameterErrors : [];
    return (
      <div role="alert" class="message message-error">
        <p>{error.message}</p>
        {fields.length > 0 && (
          <ul>
            {fields.map((f) => (
              <li key={f.name}>
                <code>{f.name}</code>: {f.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  return done === undefined ? null : <Status>{done}</Status>;
}

export { ErrorMessage };
