/**
 * The test clock (GATEWAY_TEST_CLOCK=on): the gateway's time as a clock the operator moves
 * forward. It runs with real time plus the operator's moves (a widget flow still sees seconds
 * pass), or, `frozen`, stands still between moves (tests that must not depend on how long a step
 * takes). Every part of the gateway reads this one Clock: the engine, the workers, the envelope.
 */
import type { Clock } from '../../shared/engine/core/ports';
import { flag } from '../mode';

export interface TestClock extends Clock {
  /** Moves the clock to `at`; never backwards (the caller checks: advance.ts refuses it). */
  set(at: Date): void;
  readonly frozen: boolean;
}

export interface TestClockOptions {
  /** Stands still between moves; otherwise it runs with the base clock. */
  readonly frozen?: boolean;
  /** Where it starts; the base clock's now by default. */
  readonly start?: Date;
}

export function testClock(base: Clock, options: TestClockOptions = {}): TestClock {
  const frozen = options.frozen === true;
  // Running: base time plus an offset; frozen: the time itself.
  let offsetMs = options.start === undefined ? 0 : options.start.getTime() - base.now().getTime();
  let fixedMs = (options.start ?? base.now()).getTime();
  return {
    frozen,
    now: () => new Date(frozen ? fixedMs : base.now().getTime() + offsetMs),
    set(at) {
      if (frozen) fixedMs = at.getTime();
      else offsetMs = at.getTime() - base.now().getTime();
    },
  };
}

/**
 * GATEWAY_TEST_CLOCK: `on` (1/true/yes) a running test clock, `frozen` one that stands still
 * between moves, unset or off none; anything else is refused at start (mode.ts flag).
 */
export function testClockSetting(
  env: Readonly<Record<string, string | undefined>>,
): TestClockOptions | undefined {
  if (env.GATEWAY_TEST_CLOCK?.trim().toLowerCase() === 'frozen') return { frozen: true };
  return flag(env, 'GATEWAY_TEST_CLOCK') ? {} : undefined;
}

/** A move as the admin API takes it: a duration (`31m` or milliseconds) or a time. */
export type ClockMove = { readonly advance: string | number } | { readonly to: string };

/** A move's length: whole milliseconds, or `<n>ms|s|m|h|d` (`31m`, `2h`, `30d`). */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d{1,15})\s*(ms|s|m|h|d)?\s*$/.exec(value);
  if (m === null) return undefined;
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 'ms') as 'ms'];
  const ms = Number(m[1]) * unit;
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** An ISO 8601 time with a date, a time and a zone (Z or ±hh:mm); undefined otherwise. */
export function parseInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (m === null) return undefined;
  // a day the month has (Date would turn 02-30 into 03-02)
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
