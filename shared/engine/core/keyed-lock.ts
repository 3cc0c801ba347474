import type { HistoryKey } from '../../risk';

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

/**
 * The lock names of a channel's velocity keys, without repeats and sorted: every holder of several
 * takes them in the same order, so two never wait for each other.
 */
export function riskKeyNames(channelId: string, keys: readonly HistoryKey[]): string[] {
  return [...new Set(keys.map((k) => `risk:${channelId}|${k.kind}|${k.value}`))].sort();
}

/** Runs `task` holding every one of `names` of the lock, taken in the order given. */
export function underKeys<T>(
  lock: <R>(key: string, task: () => Promise<R>) => Promise<R>,
  names: readonly string[],
  task: () => Promise<T>,
): Promise<T> {
  return names.reduceRight<() => Promise<T>>((inner, name) => () => lock(name, inner), task)();
}
