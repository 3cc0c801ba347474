/**
 * A background poll: `run` every `intervalMs` until stopped, a run never overlapping the one
 * before. The workers' state lives in the database (claims with compare-and-set), so a poll may
 * stop at any time, and several processes may poll the same database.
 */
export interface Poller {
  /** One run now. Resolves with what the run reports (how many items it handled). */
  runOnce(): Promise<number>;
  /** Runs every intervalMs until stop(). */
  start(): void;
  /** Stops polling and waits for a run in progress. */
  stop(): Promise<void>;
  /** Whether it polls, and when (epoch ms) it started and last finished a run: readyz, the workers' lag. */
  state(): PollerState;
}

export interface PollerState {
  readonly running: boolean;
  readonly startedAt: number | undefined;
  readonly lastRunAt: number | undefined;
}

export function poller(
  run: () => Promise<number>,
  intervalMs: number,
  onError: (error: unknown) => void,
): Poller {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const running = new Set<Promise<number>>();
  let stopped = true;
  let startedAt: number | undefined;
  let lastRunAt: number | undefined;

  function runOnce(): Promise<number> {
    const current = run().finally(() => {
      running.delete(current);
      lastRunAt = Date.now();
    });
    running.add(current);
    return current;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      runOnce().catch(onError).finally(schedule);
    }, intervalMs);
    // The gateway's server keeps the process alive; a pending poll alone must not.
    timer.unref?.();
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      startedAt = Date.now();
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await Promise.allSettled([...running]);
    },
    state: () => ({ running: !stopped, startedAt, lastRunAt }),
  };
}
