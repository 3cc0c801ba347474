import { describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER_MS, nextAttemptAt } from './schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = new Date('2026-11-21T12:00:00.000Z');

/** Every attempt time of an event that never gets through, first attempt at creation. */
function allAttempts(): Date[] {
  const attempts = [T0];
  for (let failed = 1; ; failed++) {
    const next = nextAttemptAt(T0, attempts[attempts.length - 1]!, failed);
    if (next === undefined) return attempts;
    attempts.push(next);
  }
}

describe('webhook retry schedule', () => {
  it('waits 1, 2, 4, 8, 15, 30 min, 1, 2, 4, 8 h, then 12 h', () => {
    const gaps = allAttempts()
      .slice(1)
      .map((at, i, list) => at.getTime() - (i === 0 ? T0.getTime() : list[i - 1]!.getTime()));
    expect(gaps.slice(0, 11)).toEqual([
      1 * MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      15 * MINUTE,
      30 * MINUTE,
      1 * HOUR,
      2 * HOUR,
      4 * HOUR,
      8 * HOUR,
      12 * HOUR,
    ]);
    expect(new Set(gaps.slice(10))).toEqual(new Set([12 * HOUR]));
  });

  it('stops after 30 days: the last attempt is within them, the next would not be', () => {
    const attempts = allAttempts();
    const last = attempts[attempts.length - 1]!;
    expect(last.getTime() - T0.getTime()).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
    expect(last.getTime() + 12 * HOUR - T0.getTime()).toBeGreaterThan(GIVE_UP_AFTER_MS);
    // 11 attempts in the first 15 h 38 min, then one every 12 h until day 30.
    const firstPhase = (1 + 2 + 4 + 8 + 15 + 30) * MINUTE + (1 + 2 + 4 + 8) * HOUR;
    expect(attempts).toHaveLength(11 + Math.floor((GIVE_UP_AFTER_MS - firstPhase) / (12 * HOUR)));
  });

  it('counts from the last attempt, so a late (slow) attempt pushes the next one', () => {
    const late = new Date(T0.getTime() + 5 * MINUTE);
    expect(nextAttemptAt(T0, late, 1)).toEqual(new Date(late.getTime() + MINUTE));
  });

  it('refuses a count below 1', () => {
    expect(() => nextAttemptAt(T0, T0, 0)).toThrow(RangeError);
  });
});
