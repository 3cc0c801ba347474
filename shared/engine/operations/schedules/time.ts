/**
 * A job's notice and duration: start + n units, by the calendar for months and years.
 */
import { parseTs } from '../../../params/formats';

const UNIT_MS: Readonly<Record<string, number>> = {
  WEEK: 7 * 86_400_000,
  DAY: 86_400_000,
  HOUR: 3_600_000,
  MINUTE: 60_000,
  SECOND: 1_000,
};

/** start + n units; months and years by the calendar (the 31st + 1 month is the last day of the next month). */
export function addDuration(start: Date, unit: string, n: number): Date {
  if (unit === 'YEAR' || unit === 'MONTH') {
    const months = unit === 'YEAR' ? n * 12 : n;
    const y = start.getUTCFullYear();
    const m = start.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    return new Date(
      Date.UTC(
        y,
        m,
        Math.min(start.getUTCDate(), lastDay),
        start.getUTCHours(),
        start.getUTCMinutes(),
        start.getUTCSeconds(),
        start.getUTCMilliseconds(),
      ),
    );
  }
  return new Date(start.getTime() + n * (UNIT_MS[unit] ?? 0));
}

/** Past the last instant a cron expression can name: a bound this far out is no bound. */
export const NO_BOUND = Date.UTC(2100, 0, 1);

/** The end of a job: past job.endDate's second, or start + duration, whichever comes first; null without either. */
export function endOf(job: Readonly<Record<string, string>>, startsAt: Date): Date | null {
  const bounds: number[] = [];
  if (job.endDate !== undefined) bounds.push(parseTs(job.endDate).getTime() + 1_000);
  if (job.durationUnit !== undefined && job.durationNumber !== undefined) {
    const end = addDuration(startsAt, job.durationUnit, Number(job.durationNumber)).getTime();
    if (Number.isFinite(end) && end < NO_BOUND) bounds.push(end);
  }
  return bounds.length === 0 ? null : new Date(Math.min(...bounds));
}
