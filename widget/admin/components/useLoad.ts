/** Data a page reads from the admin API: loading, the answer or the error, and reload(). */
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: Error | undefined;
  readonly loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>, keys: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  // the caller's keys say when to load again
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) =>
        current &&
        setState({ error: error instanceof Error ? error : new Error(String(error)), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...keys, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
