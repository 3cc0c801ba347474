/**
 * The time engine of scheduled payments (`job.*`, spec "Scheduling (subscription jobs)"): Quartz cron
 * expressions parsed into a schedule, and the instants at which that schedule fires.
 *
 * Expressions have 6 or 7 space-separated fields, `second minute hour dayOfMonth month dayOfWeek [year]`.
 * The field rules (ranges, which field takes `?`, `L`, `W`, `#`) are those of the parameter validator in
 * `shared/params/cron.ts`, with two differences: month names JAN-DEC are accepted here, and
 * dayOfMonth and dayOfWeek may not both be restricted (see parseCron).
 *
 * Time is UTC with second precision: no time zones, no daylight saving. Nothing fires after
 * 2099-12-31T23:59:59Z, the last instant of the last year a cron expression can name.
 */
import {
  CRON_FIELD_RULES,
  type CronField,
  type CronFieldRule,
  cronFieldNumber,
  EXPRESSION_FIELDS,
} from '../params/cron';

/** Which days of a month fire. Day-of-week numbers are Quartz's: 1 = Sunday … 7 = Saturday. */
export type CronDays =
  /** dayOfMonth and dayOfWeek both `*` or `?`: every day. */
  | { readonly kind: 'every' }
  | {
      readonly kind: 'dayOfMonth';
      /** Plain days 1-31 (a day past the end of a month does not fire in that month). */
      readonly days: readonly number[];
      /** `L`: the last day of the month. */
      readonly last: boolean;
      /** `L-n`: n days before the last day (does not fire in a month shorter than n + 1 days). */
      readonly beforeLast: readonly number[];
      /** `nW`: the weekday (Monday-Friday) of the month nearest to day n. */
      readonly nearestWeekday: readonly number[];
      /** `LW`: the last weekday of the month. */
      readonly lastWeekday: boolean;
    }
  | {
      readonly kind: 'dayOfWeek';
      /** Plain weekdays 1-7. */
      readonly days: readonly number[];
      /** `nL`: the last weekday n of the month. */
      readonly last: readonly number[];
      /** `n#k`: the k-th weekday n of the month (does not fire in a month without one). */
      readonly nth: readonly { readonly day: number; readonly k: number }[];
    };

/** A parsed cron expression; every list is sorted ascending and has no duplicates. */
export interface CronSchedule {
  /** The expression, trimmed, its fields separated by single spaces. */
  readonly expression: string;
  readonly seconds: readonly number[];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly days: CronDays;
  /** 1 = January … 12 = December. */
  readonly months: readonly number[];
  /** 1970-2099; every year when the year field is missing. */
  readonly years: readonly number[];
}

export const FIRST_YEAR = 1970;
export const LAST_YEAR = 2099;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

/** The validator's rules, plus month names. */
const RULES: Record<CronField, CronFieldRule> = {
  ...CRON_FIELD_RULES,
  month: { ...CRON_FIELD_RULES.month, names: MONTHS },
};

class CronError extends Error {}

function fail(field: CronField, value: string, reason: string): never {
  throw new CronError(`${field} "${value}": ${reason}`);
}

/** One value (number or name) of a field, or a clear error. */
function fieldValue(field: CronField, token: string, whole: string): number {
  const rule = RULES[field];
  const n = cronFieldNumber(rule, token);
  if (n !== undefined) return n;
  if (/^[0-9]+$/.test(token)) {
    if (token.length <= 4) fail(field, whole, `${token} is out of range ${rule.min}-${rule.max}`);
    fail(field, whole, `${token} has too many digits`);
  }
  const names = rule.names ? ` or one of ${rule.names.join(', ')}` : '';
  if (token === '') fail(field, whole, `a value is missing`);
  fail(field, whole, `"${token}" is not a number ${rule.min}-${rule.max}${names}`);
}

/** `a` or `a-b` as [from, to]. */
function rangeOf(field: CronField, token: string, whole: string): [number, number] {
  const dash = token.indexOf('-');
  if (dash === -1) {
    const n = fieldValue(field, token, whole);
    return [n, n];
  }
  const from = fieldValue(field, token.slice(0, dash), whole);
  const to = fieldValue(field, token.slice(dash + 1), whole);
  if (from > to) fail(field, whole, `range ${token} runs backwards (${from} > ${to})`);
  return [from, to];
}

/** Adds a plain item (`*`, `a` or `a-b`, each with an optional step `/n`) to `into`, or fails. */
function addPlainItem(field: CronField, item: string, whole: string, into: Set<number>): void {
  const rule = RULES[field];
  const slash = item.indexOf('/');
  const base = slash === -1 ? item : item.slice(0, slash);
  let step = 1;
  if (slash !== -1) {
    const s = item.slice(slash + 1);
    const size = rule.max - rule.min + 1;
    if (!/^[1-9][0-9]{0,3}$/.test(s) || Number(s) > size) {
      fail(field, whole, `step "${s}" must be a number 1-${size}`);
    }
    step = Number(s);
  }
  const [from, end] = base === '*' ? [rule.min, rule.max] : rangeOf(field, base, whole);
  // `a/n` runs from a to the end of the field.
  const to = slash !== -1 && base !== '*' && !base.includes('-') ? rule.max : end;
  for (let v = from; v <= to; v += step) into.add(v);
}

function sorted(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

function itemsOf(field: CronField, value: string): string[] {
  if (value === '?') {
    if (!RULES[field].question) fail(field, value, `"?" is only allowed in dayOfMonth or dayOfWeek`);
    return [];
  }
  const items = value.split(',');
  if (items.some((i) => i === '')) fail(field, value, 'empty item in list');
  return items;
}

/** second, minute, hour, month, year: plain items only. */
function plainField(field: CronField, value: string): number[] {
  const into = new Set<number>();
  for (const item of itemsOf(field, value)) addPlainItem(field, item, value, into);
  return sorted(into);
}

function dayOfMonthField(value: string): CronDays {
  const days = new Set<number>();
  const beforeLast = new Set<number>();
  const nearestWeekday = new Set<number>();
  let last = false;
  let lastWeekday = false;
  for (const item of itemsOf('dayOfMonth', value)) {
    if (item === 'L') last = true;
    else if (item === 'LW') lastWeekday = true;
    else if (item.startsWith('L-')) {
      if (!/^L-[0-9]{1,2}$/.test(item) || Number(item.slice(2)) > 30) {
        fail('dayOfMonth', value, `"${item}" must be L-n with n 0-30 days before the last day`);
      }
      beforeLast.add(Number(item.slice(2)));
    } else if (/^[^/]+W$/.test(item)) nearestWeekday.add(fieldValue('dayOfMonth', item.slice(0, -1), value));
    else addPlainItem('dayOfMonth', item, value, days);
  }
  return {
    kind: 'dayOfMonth',
    days: sorted(days),
    last,
    beforeLast: sorted(beforeLast),
    nearestWeekday: sorted(nearestWeekday),
    lastWeekday,
  };
}

function dayOfWeekField(value: string): CronDays {
  const days = new Set<number>();
  const last = new Set<number>();
  const nth = new Map<string, { day: number; k: number }>();
  for (const item of itemsOf('dayOfWeek', value)) {
    if (item === 'L') {
      // Quartz: `L` alone in dayOfWeek is 7, Saturday.
      days.add(7);
    } else if (item.includes('#')) {
      const m = /^([^#]+)#([^#]*)$/.exec(item);
      if (!m) fail('dayOfWeek', value, `"${item}" must be day#k`);
      const day = fieldValue('dayOfWeek', m[1]!, value);
      if (!/^[1-5]$/.test(m[2]!)) fail('dayOfWeek', value, `"${item}": k must be 1-5`);
      const k = Number(m[2]);
      nth.set(`${day}#${k}`, { day, k });
    } else if (/^[^/-]+L$/.test(item)) last.add(fieldValue('dayOfWeek', item.slice(0, -1), value));
    else addPlainItem('dayOfWeek', item, value, days);
  }
  return {
    kind: 'dayOfWeek',
    days: sorted(days),
    last: sorted(last),
    nth: [...nth.values()].sort((a, b) => a.day - b.day || a.k - b.k),
  };
}

/** `*` and `?` leave the days unrestricted; anything else restricts them. */
const unrestricted = (value: string): boolean => value === '*' || value === '?';

/**
 * Parses a Quartz cron expression.
 *
 * Quartz wants exactly one of dayOfMonth and dayOfWeek to be `?`. Here `*` and `?` both mean
 * "no restriction", so `* *`, `* ?`, `? *` and `? ?` all fire every day, and the one restricted field
 * decides when the other is `*` or `?`. Both restricted (e.g. `15 … MON`) is refused as Quartz does,
 * since "the 15th or a Monday" and "the 15th and a Monday" are both plausible readings.
 *
 * Ranges must run forwards (`FRI-MON` is refused), steps are 1 up to the size of the field,
 * `a/n` runs from a to the end of the field, names (SUN-SAT, JAN-DEC) are case-insensitive
 * while `L`, `W` and `#` are upper case.
 */
export function parseCron(expression: string): CronSchedule | { error: string } {
  const parts = expression
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '');
  if (parts.length === 0) return { error: 'the cron expression is empty' };
  if (parts.length < 6 || parts.length > 7) {
    return {
      error: `a cron expression has 6 or 7 fields (second minute hour dayOfMonth month dayOfWeek [year]), got ${parts.length}`,
    };
  }
  const [second, minute, hour, dayOfMonth, month, dayOfWeek, year = '*'] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  try {
    const schedule: CronSchedule = {
      expression: parts.join(' '),
      seconds: plainField('second', second),
      minutes: plainField('minute', minute),
      hours: plainField('hour', hour),
      days: { kind: 'every' },
      months: plainField('month', month),
      years: plainField('year', year),
    };
    const domDays = dayOfMonthField(dayOfMonth);
    const dowDays = dayOfWeekField(dayOfWeek);
    if (!unrestricted(dayOfMonth) && !unrestricted(dayOfWeek)) {
      return {
        error: `dayOfMonth "${dayOfMonth}" and dayOfWeek "${dayOfWeek}" are both restricted: one of them must be "?"`,
      };
    }
    if (!unrestricted(dayOfMonth)) return { ...schedule, days: domDays };
    if (!unrestricted(dayOfWeek)) return { ...schedule, days: dowDays };
    return schedule;
  } catch (e) {
    if (e instanceof CronError) return { error: e.message };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------
// Calendar (UTC, proleptic Gregorian as Date has it)

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeap(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** 1 = Sunday … 7 = Saturday. */
function weekdayOf(y: number, m: number, d: number): number {
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 1;
}

/**
 * `nW`: the weekday of the month nearest to day n, never crossing into another month. A Saturday
 * moves to the Friday before, or to Monday the 3rd when it is the 1st; a Sunday moves to the Monday
 * after, or to the Friday before when it is the last day. A day past the end of the month (31W in
 * April) is nearest to the month's last weekday, as if n were the last day.
 */
function nearestWeekday(y: number, m: number, n: number): number {
  const last = daysInMonth(y, m);
  const d = Math.min(n, last);
  const w = weekdayOf(y, m, d);
  if (w === 7) return d === 1 ? 3 : d - 1;
  if (w === 1) return d === last ? d - 2 : d + 1;
  return d;
}

/** The days of month m of year y that fire, ascending. */
function daysOf(days: CronDays, y: number, m: number): number[] {
  const last = daysInMonth(y, m);
  const hit = new Array<boolean>(last + 1).fill(days.kind === 'every');
  if (days.kind === 'dayOfMonth') {
    for (const d of days.days) if (d <= last) hit[d] = true;
    if (days.last) hit[last] = true;
    for (const n of days.beforeLast) if (last - n >= 1) hit[last - n] = true;
    for (const n of days.nearestWeekday) hit[nearestWeekday(y, m, n)] = true;
    if (days.lastWeekday) hit[nearestWeekday(y, m, last)] = true;
  } else if (days.kind === 'dayOfWeek') {
    const first = weekdayOf(y, m, 1);
    const lastWeekday = weekdayOf(y, m, last);
    for (let d = 1; d <= last; d++) {
      if (days.days.includes(((first - 1 + d - 1) % 7) + 1)) hit[d] = true;
    }
    for (const w of days.last) hit[last - ((lastWeekday - w + 7) % 7)] = true;
    for (const { day, k } of days.nth) {
      const d = 1 + ((day - first + 7) % 7) + 7 * (k - 1);
      if (d <= last) hit[d] = true;
    }
  }
  const out: number[] = [];
  for (let d = 1; d <= last; d++) if (hit[d]) out.push(d);
  return out;
}

/**
 * The first instant strictly after `after` at which the schedule fires (whole seconds, UTC), or
 * undefined when it does not fire again up to 2099-12-31T23:59:59Z. The search walks year → month →
 * day → hour → minute → second, each over the values its field allows, so a schedule that never fires
 * costs at most one pass over the allowed months of the allowed years.
 */
export function nextFireTime(schedule: CronSchedule, after: Date): Date | undefined {
  const ms = after.getTime();
  if (Number.isNaN(ms)) throw new RangeError('nextFireTime: invalid date');
  // The next whole second strictly after `after`.
  const start = new Date((Math.floor(ms / 1000) + 1) * 1000);
  const [y0, mo0, d0, h0, mi0, s0] = [
    start.getUTCFullYear(),
    start.getUTCMonth() + 1,
    start.getUTCDate(),
    start.getUTCHours(),
    start.getUTCMinutes(),
    start.getUTCSeconds(),
  ];
  if (y0 > LAST_YEAR) return undefined;

  // At each level, `on*` says the search is still on the start's own year / month / day …; only then
  // do values below the start's need skipping. Once a level moves past the start, every level
  // below takes its first allowed value (so a start before 1970 begins at the first allowed year).
  for (const y of schedule.years) {
    if (y < y0) continue;
    const onYear = y === y0;
    for (const mo of schedule.months) {
      if (onYear && mo < mo0) continue;
      const onMonth = onYear && mo === mo0;
      for (const d of daysOf(schedule.days, y, mo)) {
        if (onMonth && d < d0) continue;
        const onDay = onMonth && d === d0;
        for (const h of schedule.hours) {
          if (onDay && h < h0) continue;
          const onHour = onDay && h === h0;
          for (const mi of schedule.minutes) {
            if (onHour && mi < mi0) continue;
            const onMinute = onHour && mi === mi0;
            for (const s of schedule.seconds) {
              if (onMinute && s < s0) continue;
              return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
            }
          }
        }
      }
    }
  }
  return undefined;
}

/**
 * The fire times t with after < t <= until, ascending, at most `max` of them (none when max < 1).
 */
export function fireTimesBetween(schedule: CronSchedule, after: Date, until: Date, max: number): Date[] {
  const out: Date[] = [];
  let t: Date | undefined = after;
  while (out.length < max) {
    t = nextFireTime(schedule, t);
    if (t === undefined || t.getTime() > until.getTime()) break;
    out.push(t);
  }
  return out;
}

/** The scheduling parameters of a job, as the request carries them (`job.second` …). */
export interface JobTiming {
  readonly second?: string | number;
  readonly minute?: string | number;
  readonly hour?: string | number;
  readonly dayOfMonth?: string | number;
  readonly month?: string | number;
  readonly dayOfWeek?: string | number;
  readonly year?: string | number;
  readonly expression?: string;
}

/**
 * The 7-field cron expression of a job.
 *
 * `job.expression`, when not blank, overrides every field: it is returned trimmed and single-spaced,
 * with `*` as its year when it has only 6 fields (an expression of any other length is returned as is,
 * for parseCron to refuse).
 *
 * Otherwise the fields take the spec's defaults when missing or blank: second 0, minute 0, hour 0,
 * month 1, year `*` (every year). The spec also defaults dayOfMonth and dayOfWeek to 1, but both
 * restricted at once is refused (see parseCron), and "the 1st and/or a Sunday" is not what a job that
 * names neither meant. So:
 * - only dayOfMonth given: dayOfWeek becomes `?` (the month days decide);
 * - only dayOfWeek given: dayOfMonth becomes `?` (the weekdays decide);
 * - neither given: dayOfMonth takes its default 1 and dayOfWeek becomes `?` (the 1st of the month);
 * - both given: both are kept, and parseCron refuses them unless one is `*` or `?`.
 */
export function expressionOfJob(job: JobTiming): string {
  const expression = job.expression?.trim() ?? '';
  if (expression !== '') {
    const parts = expression.split(/\s+/);
    return parts.length === 6 ? [...parts, '*'].join(' ') : parts.join(' ');
  }
  const given = (v: string | number | undefined): string | undefined => {
    const s = v === undefined ? '' : String(v).trim();
    return s === '' ? undefined : s;
  };
  const dom = given(job.dayOfMonth);
  const dow = given(job.dayOfWeek);
  const fields: Record<CronField, string> = {
    second: given(job.second) ?? '0',
    minute: given(job.minute) ?? '0',
    hour: given(job.hour) ?? '0',
    dayOfMonth: dom ?? (dow === undefined ? '1' : '?'),
    month: given(job.month) ?? '1',
    dayOfWeek: dow ?? '?',
    year: given(job.year) ?? '*',
  };
  return EXPRESSION_FIELDS.map((f) => fields[f]).join(' ');
}
