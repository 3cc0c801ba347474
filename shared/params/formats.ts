/**
 * The spec's value formats as data. Each format can be checked (`checkFormat`) and described
 * (`describeFormat`); the zod schemas, the parameter docs and the widget's client-side checks all
 * come from these two functions, so a format is written down once.
 *
 * Framework-free and browser-safe.
 */
import { isCountry2 } from '../geo';
import { isAmt, isCurrency, isDec2 } from '../money';
import { type CronField, checkCronExpression, checkCronField } from './cron';

export type Format =
  /** AN: any characters, length in code points. */
  | { readonly t: 'AN'; readonly min: number; readonly max: number }
  /** A: letters. Names carry spaces and punctuation, so those are letters' company here. */
  | { readonly t: 'A'; readonly min: number; readonly max: number }
  /** N: digits. */
  | { readonly t: 'N'; readonly min: number; readonly max: number }
  | { readonly t: 'AMT' }
  | { readonly t: 'DEC2' }
  /** yyyy-MM-dd, a real calendar date, year beginning 19 or 20. */
  | { readonly t: 'DATE' }
  /** yyyy-MM-dd with any four-digit year (birth dates of senders and recipients). */
  | { readonly t: 'YMD' }
  /** yyyy-MM-dd HH:mm:ss, 24-hour clock. */
  | { readonly t: 'TS' }
  | { readonly t: 'enum'; readonly values: readonly string[] }
  /** A comma-separated list of enum values. */
  | { readonly t: 'enumList'; readonly values: readonly string[] }
  | { readonly t: 'bool'; readonly legacy01?: boolean }
  | { readonly t: 'int'; readonly min: number; readonly max: number }
  | {
      readonly t: 'decimal';
      readonly int: number;
      readonly frac: number;
      readonly exact?: boolean;
      readonly max?: number;
    }
  | { readonly t: 'currency' }
  | { readonly t: 'country2' }
  | { readonly t: 'url'; readonly min: number; readonly max: number }
  | { readonly t: 'email'; readonly min: number; readonly max: number }
  | { readonly t: 'cron'; readonly field: CronField }
  | { readonly t: 'cronExpression'; readonly max: number }
  | { readonly t: 'pattern'; readonly re: RegExp; readonly says: string };

const LETTERS = /^[\p{L}\p{M}][\p{L}\p{M} '.,-]*$/u;
const DIGITS = /^[0-9]+$/;
const DATE_RE = /^((?:19|20)[0-9]{2})-([0-9]{2})-([0-9]{2})$/;
const YMD_RE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TS_RE = /^((?:19|20)[0-9]{2})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})$/;
// Deliberately simple: one @, no spaces, a dot in the domain. Full RFC 5322 accepts much a mailbox never does.
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Length in code points, so an emoji counts once, as a shopper would count it. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      n--;
      i++;
    }
  }
  return n;
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return d <= days[m - 1]!;
}

function checkDate(re: RegExp, value: string): boolean {
  const m = re.exec(value);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function lengthIn(len: number, min: number, max: number): boolean {
  return len >= min && len <= max;
}

/** Returns undefined when the value fits, else the reason in words ("must be …"). */
export function checkFormat(format: Format, value: string): string | undefined {
  return fits(format, value) ? undefined : `must be ${describeFormat(format)}`;
}

function fits(f: Format, v: string): boolean {
  switch (f.t) {
    case 'AN':
      return lengthIn(codePoints(v), f.min, f.max);
    case 'A':
      return lengthIn(codePoints(v), f.min, f.max) && LETTERS.test(v);
    case 'N':
      return lengthIn(v.length, f.min, f.max) && DIGITS.test(v);
    case 'AMT':
      return isAmt(v);
    case 'DEC2':
      return isDec2(v);
    case 'DATE':
      return checkDate(DATE_RE, v);
    case 'YMD':
      return checkDate(YMD_RE, v);
    case 'TS': {
      const m = TS_RE.exec(v);
      return (
        m !== null &&
        validDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
        Number(m[4]) < 24 &&
        Number(m[5]) < 60 &&
        Number(m[6]) < 60
      );
    }
    case 'enum':
      return f.values.includes(v);
    case 'enumList': {
      const items = v.split(',');
      return items.every((item) => f.values.includes(item.trim()));
    }
    case 'bool':
      return v === 'true' || v === 'false' || (f.legacy01 === true && (v === '1' || v === '0'));
    case 'int':
      return /^(0|[1-9][0-9]{0,14})$/.test(v) && Number(v) >= f.min && Number(v) <= f.max;
    case 'decimal': {
      const [int, frac, extra] = v.split('.');
      if (extra !== undefined || int === undefined || !DIGITS.test(int) || int.length > f.int) return false;
      if (frac === undefined) {
        if (f.exact && f.frac > 0) return false;
      } else if (!DIGITS.test(frac) || frac.length > f.frac || (f.exact && frac.length !== f.frac))
        return false;
      return f.max === undefined || Number(int) < f.max || (Number(int) === f.max && /^0*$/.test(frac ?? ''));
    }
    case 'currency':
      return isCurrency(v);
    case 'country2':
      return isCountry2(v);
    case 'url':
      return lengthIn(v.length, f.min, f.max) && isAbsoluteHttpUrl(v);
    case 'email':
      return lengthIn(codePoints(v), f.min, f.max) && EMAIL_RE.test(v);
    case 'cron':
      return checkCronField(f.field, v);
    case 'cronExpression':
      return v.length <= f.max && checkCronExpression(v);
    case 'pattern':
      return f.re.test(v);
  }
}

function isAbsoluteHttpUrl(v: string): boolean {
  if (!/^https?:\/\/[^\s/]/i.test(v)) return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const range = (min: number, max: number, unit: string): string =>
  min === max ? `exactly ${max} ${unit}` : min <= 1 ? `up to ${max} ${unit}` : `${min} to ${max} ${unit}`;

/** The format in words, as it appears in error messages and the parameter docs. */
export function describeFormat(f: Format): string {
  switch (f.t) {
    case 'AN':
      return range(f.min, f.max, 'characters');
    case 'A':
      return `${range(f.min, f.max, 'letters')} (spaces, apostrophes, dots, commas and hyphens allowed)`;
    case 'N':
      return range(f.min, f.max, 'digits');
    case 'AMT':
      return 'an amount with 1 to 10 integer digits and optionally a dot and exactly two decimals, e.g. 12.50';
    case 'DEC2':
      return 'an amount with 1 to 10 integer digits, a dot and exactly two decimals, e.g. 12.50';
    case 'DATE':
      return 'a date yyyy-MM-dd with a year beginning 19 or 20';
    case 'YMD':
      return 'a date yyyy-MM-dd';
    case 'TS':
      return 'a timestamp yyyy-MM-dd HH:mm:ss';
    case 'enum':
      return `one of [${f.values.join(', ')}]`;
    case 'enumList':
      return `a comma-separated list of [${f.values.join(', ')}]`;
    case 'bool':
      return f.legacy01 ? 'true or false (1 or 0 also accepted)' : 'true or false';
    case 'int':
      return `a whole number from ${f.min} to ${f.max}`;
    case 'decimal':
      return `a number with up to ${f.int} integer digits and ${f.exact ? 'exactly' : 'up to'} ${f.frac} decimals${
        f.max === undefined ? '' : `, at most ${f.max}`
      }`;
    case 'currency':
      return 'an ISO 4217 currency code in upper case, e.g. EUR';
    case 'country2':
      return 'an ISO 3166-1 alpha-2 country code in upper case, e.g. DE';
    case 'url':
      return `an absolute http or https URL of ${range(f.min, f.max, 'characters')}`;
    case 'email':
      return `an e-mail address of ${range(f.min, f.max, 'characters')}`;
    case 'cron':
      return `a cron ${f.field} field`;
    case 'cronExpression':
      return 'a cron expression of 6 or 7 fields: second minute hour dayOfMonth month dayOfWeek [year]';
    case 'pattern':
      return f.says;
  }
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * A date as the TS format writes it: `yyyy-MM-dd HH:mm:ss` in UTC (job dates, query time frames,
 * reconciliation request times, the responses' timestamps).
 */
export function formatTs(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/** A TS value (checked by checkFormat) → its instant, read as UTC. */
export function parseTs(ts: string): Date {
  const [date, time] = ts.split(' ') as [string, string];
  return new Date(`${date}T${time}.000Z`);
}
