/**
 * Runs tasks with the same key one after another, within this process. Two captures of one PA,
 * or two retries with one Idempotency-Key, must not read the same state and both act on it.
 * (Several gateway processes on one PostgreSQL need the database to serialise them as well.)
 */
export function keyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
