/**
 * The catch-up rule: which of a due schedule's fire times run, which are skipped, and when the
 * next run is.
 */

import { type CronSchedule, fireTimesBetween, nextFireTime, parseCron } from '../../../scheduling/cron';
import type { RunPlan, Schedule } from '../../core/schedule';

export const DEFAULT_GRACE_MS = 24 * 3_600_000;
/** How long a claimed run is its claimer's before another poll may complete it. */
export const DEFAULT_RUN_LEASE_MS = 5 * 60_000;
/** Fire times one claim records at most; a longer missed stretch is worked off in several claims. */
const MAX_FIRE_TIMES_PER_CLAIM = 1_000;

const parsedCron = new Map<string, CronSchedule>();
function cronOfExpression(expression: string): CronSchedule {
  let cron = parsedCron.get(expression);
  if (cron === undefined) {
    const parsed = parseCron(expression);
    if ('error' in parsed) throw new Error(`stored schedule expression "${expression}": ${parsed.error}`);
    cron = parsed;
    if (parsedCron.size >= 1_000) parsedCron.clear();
    parsedCron.set(expression, cron);
  }
  return cron;
}

/**
 * The catch-up rule, for a schedule due at `now` (nextRunAt ≤ now): the fire times from
 * nextRunAt up to now (and before the end); the latest of them runs when it is at most
 * `graceMs` old, every other one is skipped; the next run is the first fire time after now.
 * At most `max` fire times per plan: a longer stretch ends the plan early (all skipped, the next
 * run is the following fire time, still due), and the next plan goes on from there.
 */
export function planRuns(
  schedule: Pick<Schedule, 'expression' | 'nextRunAt' | 'endsAt'>,
  now: Date,
  graceMs: number,
  max = MAX_FIRE_TIMES_PER_CLAIM,
): RunPlan {
  const first = schedule.nextRunAt;
  if (first === null || first.getTime() > now.getTime()) return { skipped: [], nextRunAt: first };
  const cron = cronOfExpression(schedule.expression);
  const end = schedule.endsAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const within = (t: Date | undefined): t is Date => t !== undefined && t.getTime() < end;
  const until = new Date(Math.min(now.getTime(), end - 1));
  const due = [first, ...fireTimesBetween(cron, first, until, Math.max(0, max - 1))];
  const last = due[due.length - 1] ?? first;
  if (due.length >= max) {
    const following = nextFireTime(cron, last);
    if (within(following) && following.getTime() <= now.getTime())
      return { skipped: due, nextRunAt: following };
  }
  const after = nextFireTime(cron, now);
  const nextRunAt = within(after) ? after : null;
  if (now.getTime() - last.getTime() <= graceMs) return { skipped: due.slice(0, -1), run: last, nextRunAt };
  return { skipped: due, nextRunAt };
}
