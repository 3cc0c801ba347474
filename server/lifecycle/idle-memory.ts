/**
 * Memory given back once a burst of load is over.
 *
 * Under load V8 lets the old generation grow well past what is live (at 50 connections it reaches
 * 100 MB or more between full collections while about 30 MB survive one), and it collects it only
 * when allocation brings it to its limit again. An idle gateway allocates next to nothing, so
 * without help the heap keeps its peak size for as long as it stays idle (V8's own memory reducer
 * does not run in Node 20 here). So: when the event loop, after being busy, has stayed idle for
 * a few seconds, one full collection, which compacts the old generation and frees its empty pages.
 * It costs a few tens of milliseconds once per lull, at a moment with nothing to answer. Why a lull
 * of seconds and not the first idle second: the compacted heap's limits are small again, so the
 * next burst pays for growing it (more full collections); between bursts a second apart that cost
 * (measured: 150 → 210 µs of CPU per payment) would buy nothing.
 *
 * The collection is V8's `gc` function, there only with `--expose-gc` (the start flags of
 * `npm start`, package.json); without it (tests, `tsx server/main.ts`) nothing is done.
 */
import { performance } from 'node:perf_hooks';

/** Event-loop utilization (0–1) over one check, above which the process counts as busy. */
export const BUSY = 0.2;
/** And below which, after being busy, as idle. */
export const IDLE = 0.05;
/** Idle checks in a row (seconds) before the collection. */
export const IDLE_CHECKS = 5;
/** How often the event loop's utilization is read. */
const CHECK_MS = 1_000;

/**
 * The decision, fed one utilization per check: true when a full collection is due now (the
 * IDLE_CHECKS-th idle check in a row after a busy one; then not again until the loop has been
 * busy again). A check neither busy nor idle starts the count of idle ones over.
 */
export function idleCollector(): (utilization: number) => boolean {
  let busy = false;
  let idle = 0;
  return (utilization) => {
    if (utilization >= BUSY) busy = true;
    idle = busy && utilization < IDLE ? idle + 1 : 0;
    if (idle < IDLE_CHECKS) return false;
    busy = false;
    idle = 0;
    return true;
  };
}

/** Starts the checks when `gc` is exposed; returns a stop function (also for the no-op case). */
export function reduceMemoryWhenIdle(gc = (globalThis as { gc?: () => void }).gc): () => void {
  if (typeof gc !== 'function') return () => {};
  const due = idleCollector();
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    if (due(performance.eventLoopUtilization(now, last).utilization)) gc();
    last = now;
  }, CHECK_MS);
  // Never what keeps the process alive (a shutdown waits for nothing here).
  timer.unref();
  return () => clearInterval(timer);
}
