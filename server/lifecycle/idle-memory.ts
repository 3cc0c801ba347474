/**
 * Memory given back once a burst of load is over.
 *
 * Under load V8 lets the old generation grow well past what is live (at 50 connections it reaches
 * 100 MB or more between full collections while about 30 MB survive one), and it collects it only
 * when allocation brings it to its limit again. An idle gateway allocates next to nothing, so
 * without help the heap keeps its peak size for as long as it stays idle (V8's own memory reducer
 * does not run in Node 20 here). So: when the event loop, after being busy, has stayed idle for
 * a few seconds, the caches give back what a quiet gateway does not need (each its own rule:
 * IdleReleases), then full collections compact the old generation and free its empty pages.
 * It costs a few tens of milliseconds once per lull, at a moment with nothing to answer. Why a lull
 * of seconds and not the first idle second: the compacted heap's limits are small again, so the
 * next burst pays for growing it (more full collections); between bursts a second apart that cost
 * (measured: 150 → 210 µs of CPU per payment) would buy nothing.
 *
 * What an idle gateway keeps after a bench load, measured (bench/README.md, "Memory after the
 * load"): V8's heap back to about its start (the young generation shrinks by more than the old
 * one grew: optimised code, the caches' small rest), and glibc's main arena about 8 MB larger.
 * That is SQLite's page cache: `PRAGMA shrink_memory` frees it into glibc's free lists (malloc_stats:
 * 8 MB less in use), but the arena is fragmented by small live blocks allocated meanwhile (HTTP
 * parsers, prepared statements), so only `malloc_trim`, which Node does not call, could return it.
 *
 * The collection is V8's `gc` function, there only with `--expose-gc` (the start flags of
 * `npm start`, package.json); without it (tests, `tsx server/main.ts`) the caches are still
 * released and V8's next collection frees what they held.
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

/**
 * What the gateway's caches give back once it has gone quiet: each bounded cache that holds more
 * than an idle gateway needs adds its own `release` (its rule is in its module), and the idle
 * step below runs them all just before the collections free what they held.
 */
export interface IdleReleases {
  /** Adds a cache's release; it must leave the cache working (emptied or trimmed, never closed). */
  add(release: () => void): void;
  /** Runs every release added, in order; one that throws is reported and does not stop the others. */
  release(onError?: (error: unknown) => void): void;
}

export function idleReleases(): IdleReleases {
  const releases: (() => void)[] = [];
  return {
    add: (release) => void releases.push(release),
    release(onError) {
      for (const release of releases) {
        try {
          release();
        } catch (error) {
          onError?.(error);
        }
      }
    },
  };
}

export interface ReduceMemoryOptions {
  /** The caches' releases, run first (the gateway's IdleReleases). */
  readonly release?: () => void;
  /** V8's `gc` (--expose-gc); by default the global one when exposed. */
  readonly gc?: (() => void) | undefined;
}

/**
 * Starts the checks; returns a stop function. When idle: the caches released, then the full
 * collections (when `gc` is exposed; without it the next collection V8 makes frees what they held).
 */
export function reduceMemoryWhenIdle(options: ReduceMemoryOptions = {}): () => void {
  const gc = 'gc' in options ? options.gc : (globalThis as { gc?: () => void }).gc;
  const { release } = options;
  if (typeof gc !== 'function' && release === undefined) return () => {};
  const due = idleCollector();
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    if (due(performance.eventLoopUtilization(now, last).utilization)) reduceMemory(release, gc);
    last = now;
  }, CHECK_MS);
  // Never what keeps the process alive (a shutdown waits for nothing here).
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The idle step itself: the caches' releases, then two full collections. Why two: the first finds
 * what the releases let go of dead and sweeps it, which leaves its pages partly empty; V8 picks the
 * pages it compacts when a collection starts, from the free space it knew of then, so only a second
 * one moves the survivors off those pages and gives them back (measured after a bench load: old
 * generation 32.7 MB for 20.5 MB live with one, 23.0 for 20.3 with two). Each takes about 16 ms
 * (up to 0.1–0.2 s when the cores are busy with other work); the second runs on the event loop's
 * next turn (`next`), so a request that came in during the first is read and answered in between.
 */
export function reduceMemory(
  release: (() => void) | undefined,
  gc: (() => void) | undefined,
  next: (task: () => void) => unknown = setImmediate,
): void {
  release?.();
  if (gc === undefined) return;
  gc();
  next(gc);
}
