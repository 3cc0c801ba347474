/**
 * Cron fields of the scheduling parameters (`job.*`) and of `job.expression`, in the Quartz dialect
 * the spec describes: seven fields, the year optional, with `L`, `W`, `#` and `?` where allowed.
 */

export type CronField = 'second' | 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek' | 'year';

interface FieldRule {
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  readonly question?: boolean;
  readonly last?: boolean;
  readonly weekday?: boolean;
  readonly nth?: boolean;
}

const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

const FIELDS: Record<CronField, FieldRule> = {
  second: { min: 0, max: 59 },
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  dayOfMonth: { min: 1, max: 31, question: true, last: true, weekday: true },
  month: { min: 1, max: 12 },
  dayOfWeek: { min: 1, max: 7, names: DAYS, question: true, last: true, nth: true },
  year: { min: 1970, max: 2099 },
};

/** Field order of a cron expression; the year is optional. */
export const EXPRESSION_FIELDS: readonly CronField[] = [
  'second',
  'minute',
  'hour',
  'dayOfMonth',
  'month',
  'dayOfWeek',
  'year',
];

function numberOf(rule: FieldRule, token: string): number | undefined {
  if (/^[0-9]{1,4}$/.test(token)) {
    const n = Number(token);
    return n >= rule.min && n <= rule.max ? n : undefined;
  }
  const i = rule.names?.indexOf(token.toUpperCase()) ?? -1;
  return i >= 0 ? rule.min + i : undefined;
}

function checkItem(rule: FieldRule, item: string): boolean {
  if (item === '*') return true;
  const slash = item.indexOf('/');
  if (slash !== -1) {
    const base = item.slice(0, slash);
    const step = item.slice(slash + 1);
    if (!/^[1-9][0-9]{0,3}$/.test(step) || Number(step) > rule.max - rule.min + 1) return false;
    return base === '*' || checkRangeOrValue(rule, base);
  }
  if (rule.last) {
    if (item === 'L') return true;
    if (rule.weekday && (item === 'LW' || /^L-([0-9]{1,2})$/.test(item))) {
      return item === 'LW' || Number(item.slice(2)) <= 30;
    }
    if (rule.nth && item.endsWith('L')) return numberOf(rule, item.slice(0, -1)) !== undefined;
  }
  if (rule.weekday && item.endsWith('W')) return numberOf(rule, item.slice(0, -1)) !== undefined;
  if (rule.nth && item.includes('#')) {
    const [day, nth] = item.split('#');
    return day !== undefined && numberOf(rule, day) !== undefined && /^[1-5]$/.test(nth ?? '');
  }
  return checkRangeOrValue(rule, item);
}

function checkRangeOrValue(rule: FieldRule, token: string): boolean {
  const dash = token.indexOf('-');
  if (dash === -1) return numberOf(rule, token) !== undefined;
  const from = numberOf(rule, token.slice(0, dash));
  const to = numberOf(rule, token.slice(dash + 1));
  return from !== undefined && to !== undefined && from <= to;
}

export function checkCronField(field: CronField, value: string): boolean {
  const rule = FIELDS[field];
  const v = value.trim();
  if (v === '') return field === 'year';
  if (v === '?') return rule.question === true;
  return v.split(',').every((item) => item !== '' && checkItem(rule, item));
}

export function checkCronExpression(expression: string): boolean {
  const parts = expression.trim().split(/\s+/);
  if (parts.length < 6 || parts.length > 7) return false;
  return parts.every((part, i) => checkCronField(EXPRESSION_FIELDS[i]!, part));
}

/** The field rules and the value parser, for the scheduler that computes fire times (shared/scheduling). */
export type { FieldRule as CronFieldRule };
export { FIELDS as CRON_FIELD_RULES, numberOf as cronFieldNumber };
