/**
 * When a webhook delivery is tried again (decisions, Webhooks): after a failed attempt, 1, 2, 4,
 * 8, 15 and 30 minutes, then 1, 2, 4 and 8 hours, then every 12 hours, until 30 days after the
 * event; then the event is dead-lettered (and can be redelivered by hand).
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The waits after the 1st, 2nd, … failed attempt; every later one waits EVERY_AFTER. */
export const RETRY_DELAYS_MS: readonly number[] = [
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
];
export const EVERY_AFTER_MS = 12 * HOUR;
/** No attempt is made later than this after the event was created. */
export const GIVE_UP_AFTER_MS = 30 * 24 * HOUR;

/**
 * The time of the next attempt after `failedAttempts` failed ones (the last at `lastAttemptAt`),
 * or undefined when it would fall after the 30 days: the event is then dead-lettered.
 */
export function nextAttemptAt(
  createdAt: Date,
  lastAttemptAt: Date,
  failedAttempts: number,
): Date | undefined {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) throw new RangeError('failedAttempts ≥ 1');
  const wait = RETRY_DELAYS_MS[failedAttempts - 1] ?? EVERY_AFTER_MS;
  const next = lastAttemptAt.getTime() + wait;
  return next > createdAt.getTime() + GIVE_UP_AFTER_MS ? undefined : new Date(next);
}
