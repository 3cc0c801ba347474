/**
 * A form's submission: busy while it runs (the button is disabled), then the API's refusal (its
 * description, and per field the parameterErrors) or the success message.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api';

export interface Action {
  readonly busy: boolean;
  readonly error: ApiError | Error | undefined;
  readonly done: string | undefined;
  /** The API's message for one field, if it named it. */
  field(name: string): string | undefined;
  run(work: () => Promise<string | undefined>): Promise<boolean>;
  reset(): void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | Error | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  return {
    busy,
    error,
    done,
    field: (name) => (error instanceof ApiError ? error.field(name) : undefined),
    async run(work) {
      setBusy(true);
      setError(undefined);
      setDone(undefined);
      try {
        setDone(await work());
        return true;
      } catch (caught) {
        setError(caught instanceof Error ? caught : new Error(String(caught)));
        return false;
      } finally {
        setBusy(false);
      }
    },
    reset() {
      setError(undefined);
      setDone(undefined);
    },
  };
}

/** The form's submit handler: no page load, then the work. */
export const onSubmit = (work: () => unknown) => (event: Event) => {
  event.preventDefault();
  void work();
};
