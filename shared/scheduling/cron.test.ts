import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCronExpression } from '../params/cron';
import {
  type CronDays,
  type CronSchedule,
  expressionOfJob,
  fireTimesBetween,
  nextFireTime,
  parseCron,
} from './cron';

/** Far above a calendar search (milliseconds), far below a second-by-second one (hours). */
const SEARCH_BOUND_MS = 10_000;

function schedule(expression: string): CronSchedule {
  const s = parseCron(expression);
  if ('error' in s) throw new Error(`${expression}: ${s.error}`);
  return s;
}

const next = (expression: string, after: string): string | undefined =>
  nextFireTime(schedule(expression), new Date(after))?.toISOString();

// Calendar used below (checked by hand against the 1st of each month):
// 2026: Jan 1 Thu, Feb 1 Sun, Mar 1 Sun, Apr 1 Wed, May 1 Fri, Jun 1 Mon, Jul 1 Wed, Aug 1 Sat,
//       Sep 1 Tue, Oct 1 Thu, Nov 1 Sun (Nov 21 Sat), Dec 1 Tue.
// 2027: Jan 1 Fri (Jan 31 Sun), May 1 Sat.  2028: Feb 29 Tue, Apr 1 Sat (Apr 30 Sun).
// Leap years whose Feb 1 is a Thursday (five Thursdays in February): 2024, then 2052.

describe('nextFireTime', () => {
  it.each<[string, string, string, string | undefined]>([
    // L, L-n
    ['L: last day of January', '0 0 0 L * ?', '2026-01-15T00:00:00Z', '2026-01-31T00:00:00.000Z'],
    ['L: strictly after, then Feb 28', '0 0 0 L * ?', '2026-01-31T00:00:00Z', '2026-02-28T00:00:00.000Z'],
    ['L with a time of day', '0 30 9 L * ?', '2026-04-30T09:30:00Z', '2026-05-31T09:30:00.000Z'],
    ['L in February of a leap year', '0 0 0 L 2 ?', '2027-03-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['L-3 in February (28 - 3)', '0 0 0 L-3 * ?', '2026-02-01T00:00:00Z', '2026-02-25T00:00:00.000Z'],
    ['L-3 then March (31 - 3)', '0 0 0 L-3 * ?', '2026-02-25T00:00:00Z', '2026-03-28T00:00:00.000Z'],
    ['L-0 is L', '0 0 0 L-0 * ?', '2026-02-01T00:00:00Z', '2026-02-28T00:00:00.000Z'],
    [
      'L-30 skips February (no day 28 - 30)',
      '0 0 0 L-30 * ?',
      '2026-01-01T00:00:00Z',
      '2026-03-01T00:00:00.000Z',
    ],
    // nW
    ['15W on a Thursday', '0 0 0 15W * ?', '2026-01-01T00:00:00Z', '2026-01-15T00:00:00.000Z'],
    ['15W on a Sunday → Monday 16th', '0 0 0 15W * ?', '2026-02-01T00:00:00Z', '2026-02-16T00:00:00.000Z'],
    ['15W on a Saturday → Friday 14th', '0 0 0 15W * ?', '2026-08-01T00:00:00Z', '2026-08-14T00:00:00.000Z'],
    ['15W after the moved day', '0 0 0 15W * ?', '2026-08-14T00:00:00Z', '2026-09-15T00:00:00.000Z'],
    [
      '1W on Saturday Aug 1 → Monday 3rd, not July 31',
      '0 0 0 1W * ?',
      '2026-07-31T00:00:00Z',
      '2026-08-03T00:00:00.000Z',
    ],
    [
      '1W on Saturday May 1 2027 → Monday 3rd',
      '0 0 0 1W 5 ?',
      '2026-06-01T00:00:00Z',
      '2027-05-03T00:00:00.000Z',
    ],
    ['1W on Sunday Feb 1 → Monday 2nd', '0 0 0 1W * ?', '2026-01-01T00:00:00Z', '2026-02-02T00:00:00.000Z'],
    [
      '31W on Sunday Jan 31 → Friday 29th, not Feb 1',
      '0 0 0 31W * ?',
      '2027-01-01T00:00:00Z',
      '2027-01-29T00:00:00.000Z',
    ],
    ['31W in April (30th a Thursday)', '0 0 0 31W * ?', '2026-04-01T00:00:00Z', '2026-04-30T00:00:00.000Z'],
    [
      '31W in April 2028 (30th a Sunday) → 28th',
      '0 0 0 31W 4 ?',
      '2027-05-01T00:00:00Z',
      '2028-04-28T00:00:00.000Z',
    ],
    [
      '31W in February (28th a Saturday) → 27th',
      '0 0 0 31W 2 ?',
      '2026-01-01T00:00:00Z',
      '2026-02-27T00:00:00.000Z',
    ],
    // LW
    ['LW: Jan 31 is a Saturday → 30th', '0 0 0 LW * ?', '2026-01-01T00:00:00Z', '2026-01-30T00:00:00.000Z'],
    ['LW: May 31 is a Sunday → 29th', '0 0 0 LW * ?', '2026-05-01T00:00:00Z', '2026-05-29T00:00:00.000Z'],
    ['LW: Mar 31 is a Tuesday', '0 0 0 LW * ?', '2026-03-01T00:00:00Z', '2026-03-31T00:00:00.000Z'],
    // nL, n#k, L in dayOfWeek
    ['6L: last Friday of January', '0 0 0 ? * 6L', '2026-01-01T00:00:00Z', '2026-01-30T00:00:00.000Z'],
    ['6L: then February', '0 0 0 ? * 6L', '2026-01-30T00:00:00Z', '2026-02-27T00:00:00.000Z'],
    ['FRIL (names, any case)', '0 0 0 ? * friL', '2026-03-01T00:00:00Z', '2026-03-27T00:00:00.000Z'],
    ['1L: last Sunday of March', '0 0 0 ? * 1L', '2026-03-01T00:00:00Z', '2026-03-29T00:00:00.000Z'],
    ['2#1: first Monday', '0 0 0 ? * 2#1', '2026-01-01T00:00:00Z', '2026-01-05T00:00:00.000Z'],
    ['2#1: then February 2nd', '0 0 0 ? * 2#1', '2026-01-05T00:00:00Z', '2026-02-02T00:00:00.000Z'],
    ['MON#1 on the 1st', '0 0 0 ? * MON#1', '2026-05-05T00:00:00Z', '2026-06-01T00:00:00.000Z'],
    ['7#5: fifth Saturday is Jan 31', '0 0 0 ? * 7#5', '2026-01-01T00:00:00Z', '2026-01-31T00:00:00.000Z'],
    [
      '7#5: none in Feb-Apr, then May 30',
      '0 0 0 ? * 7#5',
      '2026-01-31T00:00:00Z',
      '2026-05-30T00:00:00.000Z',
    ],
    ['5#5 in February: first in 2052', '0 0 0 ? 2 5#5 *', '2026-01-01T00:00:00Z', '2052-02-29T00:00:00.000Z'],
    [
      '7#5 in February: Feb 29 2048 (Feb 1 a Saturday)',
      '0 0 0 ? 2 7#5',
      '2026-01-01T00:00:00Z',
      '2048-02-29T00:00:00.000Z',
    ],
    ['L alone in dayOfWeek is Saturday', '0 0 0 ? * L', '2026-11-21T00:00:00Z', '2026-11-28T00:00:00.000Z'],
    // ranges, lists, steps
    ['MON-FRI from a Saturday', '0 0 9-17 ? * MON-FRI', '2026-11-21T10:00:00Z', '2026-11-23T09:00:00.000Z'],
    [
      'MON-FRI after the last hour of Friday',
      '0 0 9-17 ? * MON-FRI',
      '2026-11-20T17:00:00Z',
      '2026-11-23T09:00:00.000Z',
    ],
    [
      'MON-FRI, one second before 17:00',
      '0 0 9-17 ? * MON-FRI',
      '2026-11-20T16:59:59Z',
      '2026-11-20T17:00:00.000Z',
    ],
    ['dayOfWeek list', '0 0 0 ? * SUN,WED', '2026-11-22T00:00:00Z', '2026-11-25T00:00:00.000Z'],
    [
      'dayOfWeek step 1/2 (SUN, TUE, THU, SAT)',
      '0 0 0 ? * 1/2',
      '2026-11-21T00:00:00Z',
      '2026-11-22T00:00:00.000Z',
    ],
    ['minute step', '0 */15 * * * ?', '2026-03-10T10:07:30Z', '2026-03-10T10:15:00.000Z'],
    ['minute step over midnight', '0 */15 * * * ?', '2026-03-10T23:45:00Z', '2026-03-11T00:00:00.000Z'],
    [
      'a/n runs to the end of the field',
      '0 5/20 * * * ?',
      '2026-03-10T10:45:00Z',
      '2026-03-10T11:05:00.000Z',
    ],
    ['hour range with step', '0 0 0-6/3 * * ?', '2026-03-10T06:00:00Z', '2026-03-11T00:00:00.000Z'],
    ['hour list', '0 0 8,12,18 * * ?', '2026-03-10T12:00:00Z', '2026-03-10T18:00:00.000Z'],
    ['dayOfMonth list', '0 0 0 1,15 * ?', '2026-01-15T00:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['dayOfMonth step 1, 11, 21, 31', '0 0 0 */10 * ?', '2026-01-21T00:00:00Z', '2026-01-31T00:00:00.000Z'],
    ['dayOfMonth step into February', '0 0 0 */10 * ?', '2026-01-31T00:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['month step 1, 5, 9', '0 0 0 1 */4 ?', '2026-01-01T00:00:00Z', '2026-05-01T00:00:00.000Z'],
    ['month names', '0 0 0 1 JAN,jul ?', '2026-01-01T00:00:00Z', '2026-07-01T00:00:00.000Z'],
    ['month name range', '0 0 0 1 oct-DEC ?', '2026-01-01T00:00:00Z', '2026-10-01T00:00:00.000Z'],
    ['* in both day fields: every day', '0 0 0 * * *', '2026-02-28T00:00:00Z', '2026-03-01T00:00:00.000Z'],
    ['? in both day fields: every day', '0 0 0 ? * ?', '2026-02-28T00:00:00Z', '2026-03-01T00:00:00.000Z'],
    // month ends
    ['31st skips February', '0 0 0 31 * ?', '2026-01-31T00:00:00Z', '2026-03-31T00:00:00.000Z'],
    ['30th skips February', '0 0 0 30 * ?', '2026-01-30T00:00:00Z', '2026-03-30T00:00:00.000Z'],
    ['daily: Jan 31 → Feb 1', '0 0 0 * * ?', '2026-01-31T00:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['23:59:59 daily over a month end', '59 59 23 * * ?', '2026-01-31T23:59:59Z', '2026-02-01T23:59:59.000Z'],
    ['every second over a year end', '* * * * * ?', '2026-12-31T23:59:59Z', '2027-01-01T00:00:00.000Z'],
    [
      'every second from a fraction of one',
      '* * * * * ?',
      '2026-03-10T10:00:00.500Z',
      '2026-03-10T10:00:01.000Z',
    ],
    // leap years
    ['Feb 29 from 2026', '0 0 0 29 2 ? *', '2026-01-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['Feb 29 after Feb 29 2028', '0 0 0 29 2 ? *', '2028-02-29T00:00:00Z', '2032-02-29T00:00:00.000Z'],
    ['Feb 29 from 2096', '0 0 0 29 2 ? *', '2096-01-01T00:00:00Z', '2096-02-29T00:00:00.000Z'],
    ['Feb 29 after 2096: 2100 is past 2099', '0 0 0 29 2 ? *', '2096-02-29T00:00:00Z', undefined],
    ['Feb 29 in a 6-field expression', '0 0 0 29 2 ?', '2026-01-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    // years
    ['a single year', '0 0 12 1 1 ? 2030', '2026-01-01T00:00:00Z', '2030-01-01T12:00:00.000Z'],
    ['a single year, afterwards', '0 0 12 1 1 ? 2030', '2030-01-01T12:00:00Z', undefined],
    ['year a/n', '0 0 0 1 1 ? 2028/4', '2028-01-01T00:00:00Z', '2032-01-01T00:00:00.000Z'],
    ['year list and range', '0 0 0 1 1 ? 2027,2035-2036', '2027-01-01T00:00:00Z', '2035-01-01T00:00:00.000Z'],
    ['year */50: 1970, 2020, 2070', '0 0 0 1 1 ? */50', '2026-01-01T00:00:00Z', '2070-01-01T00:00:00.000Z'],
    ['before 1970 starts at 1970', '0 0 0 1 1 ? *', '1960-06-01T00:00:00Z', '1970-01-01T00:00:00.000Z'],
    ['the last instant', '59 59 23 31 12 ? 2099', '2099-12-31T23:59:58Z', '2099-12-31T23:59:59.000Z'],
    ['nothing after the last instant', '* * * * * ?', '2099-12-31T23:59:59Z', undefined],
    // second steps rolling over
    ['*/20 at 23:59:40 → next day', '*/20 * * * * ?', '2026-03-10T23:59:40Z', '2026-03-11T00:00:00.000Z'],
    ['*/7 (last 56) → next year', '*/7 * * * * ?', '2026-12-31T23:59:56Z', '2027-01-01T00:00:00.000Z'],
    ['10/25 (10, 35) from 23:59:59', '10/25 * * * * ?', '2026-11-21T23:59:59Z', '2026-11-22T00:00:10.000Z'],
    [
      '0/30 at 23:59 only, Feb 28 → Mar 1',
      '0/30 59 23 * * ?',
      '2026-02-28T23:59:30Z',
      '2026-03-01T23:59:00.000Z',
    ],
    ['*/20 at the last minute of 2099', '*/20 * * * * ?', '2099-12-31T23:59:40Z', undefined],
  ])('%s: %s after %s → %s', (_, expression, after, expected) => {
    expect(next(expression, after)).toBe(expected);
  });

  it.each([
    ['Feb 30', '0 0 0 30 2 ?'],
    ['every second of Feb 31', '* * * 31 2 ? *'],
    ['the 31st of 30-day months', '0 0 0 31 4,6,9,11 ?'],
    ['L-29 in February', '0 0 0 L-29 2 ?'],
    ['5#5 in February, 2026-2051', '0 0 0 ? 2 5#5 2026-2051'],
    ['every second of a 7#5 in February, 2026-2047', '* * * ? 2 7#5 2026-2047'],
  ])(
    'never fires: %s (%s), answered without searching second by second',
    (_, expression) => {
      const s = schedule(expression);
      expect(nextFireTime(s, new Date('1970-01-01T00:00:00Z'))).toBeUndefined();
    },
    // Not a timing target (bench/ has those): a second-by-second search over the years to 2099
    // takes hours, so it cannot finish within a timeout this generous even on a loaded machine.
    SEARCH_BOUND_MS,
  );

  it(
    'is not a second-by-second search: a year-2099 fire from 1970 is found',
    () => {
      const s = schedule('59 59 23 L 12 ? 2099');
      expect(nextFireTime(s, new Date('1970-01-01T00:00:00Z'))?.toISOString()).toBe(
        '2099-12-31T23:59:59.000Z',
      );
    },
    SEARCH_BOUND_MS,
  );

  it('refuses an invalid date', () => {
    expect(() => nextFireTime(schedule('* * * * * ?'), new Date('nope'))).toThrow(RangeError);
  });
});

describe('parseCron', () => {
  it.each<[string, RegExp]>([
    ['', /empty/],
    ['   ', /empty/],
    ['0 0 12 * *', /6 or 7 fields.*got 5/],
    ['0 0 12 * * ? 2030 x', /6 or 7 fields.*got 8/],
    ['60 0 12 * * ?', /^second "60": 60 is out of range 0-59$/],
    ['0 60 12 * * ?', /^minute "60": 60 is out of range 0-59$/],
    ['0 0 24 * * ?', /^hour "24": 24 is out of range 0-23$/],
    ['0 0 12 32 * ?', /^dayOfMonth "32": 32 is out of range 1-31$/],
    ['0 0 12 0 * ?', /^dayOfMonth "0": 0 is out of range 1-31$/],
    ['0 0 12 * 13 ?', /^month "13": 13 is out of range 1-12$/],
    ['0 0 12 * JANUARY ?', /^month "JANUARY": "JANUARY" is not a number 1-12 or one of JAN, /],
    ['0 0 12 ? * 8', /^dayOfWeek "8": 8 is out of range 1-7$/],
    ['0 0 12 ? * 0', /^dayOfWeek "0": 0 is out of range 1-7$/],
    ['0 0 12 * * SUNDAY', /^dayOfWeek "SUNDAY": "SUNDAY" is not a number 1-7 or one of SUN, /],
    ['0 0 12 1 1 ? 1969', /^year "1969": 1969 is out of range 1970-2099$/],
    ['0 0 12 1 1 ? 2100', /^year "2100": 2100 is out of range 1970-2099$/],
    ['0 0 12 1 1 ? 24', /^year "24": 24 is out of range 1970-2099$/],
    ['0 0 12 1 1 ? 02030', /^year "02030": 02030 has too many digits$/],
    ['? 0 12 * * ?', /^second "\?": "\?" is only allowed in dayOfMonth or dayOfWeek$/],
    ['0 0 12 * ? ?', /^month "\?": "\?" is only allowed/],
    [
      '0 0 12 15 * MON',
      /^dayOfMonth "15" and dayOfWeek "MON" are both restricted: one of them must be "\?"$/,
    ],
    ['0 0 12 1-5 * 2#1', /both restricted/],
    ['0 0 12 L * L', /both restricted/],
    ['0 0 12 */2 * 1-7', /both restricted/],
    ['0 0 12 ? * MON#6', /^dayOfWeek "MON#6": "MON#6": k must be 1-5$/],
    ['0 0 12 ? * 2#0', /k must be 1-5/],
    ['0 0 12 ? * 2#', /k must be 1-5/],
    ['0 0 12 ? * 1#2#3', /must be day#k/],
    ['0 0 12 L-31 * ?', /^dayOfMonth "L-31": "L-31" must be L-n with n 0-30/],
    ['0 0 12 L-x * ?', /must be L-n/],
    ['0 0 12 32W * ?', /^dayOfMonth "32W": 32 is out of range 1-31$/],
    ['0 0 12 W * ?', /^dayOfMonth "W": "W" is not a number 1-31$/],
    ['0 0 12 2L * ?', /^dayOfMonth "2L": "2L" is not a number 1-31$/],
    ['0 0 12 1#2 * ?', /^dayOfMonth "1#2"/],
    ['0 0 12 ? * LW', /^dayOfWeek "LW": "LW" is not a number 1-7/],
    ['0 0 12 ? * 15W', /^dayOfWeek "15W"/],
    ['0 0 L * * ?', /^hour "L": "L" is not a number 0-23$/],
    ['0 0 12 * 6W ?', /^month "6W"/],
    ['0 0 12 ? * FRI-MON', /^dayOfWeek "FRI-MON": range FRI-MON runs backwards \(6 > 2\)$/],
    ['0 0 17-9 * * ?', /^hour "17-9": range 17-9 runs backwards/],
    ['0 0 12 1 1 ? 2030-2024', /^year "2030-2024": range 2030-2024 runs backwards/],
    ['*/0 * * * * ?', /^second "\*\/0": step "0" must be a number 1-60$/],
    ['*/61 * * * * ?', /^second "\*\/61": step "61" must be a number 1-60$/],
    ['0 0 */x * * ?', /^hour "\*\/x": step "x" must be a number 1-24$/],
    ['0 0 12 1,,2 * ?', /^dayOfMonth "1,,2": empty item in list$/],
    ['0 0 9- * * ?', /^hour "9-": a value is missing$/],
    ['-1 0 0 * * ?', /^second "-1": a value is missing$/],
    ['a 0 0 * * ?', /^second "a": "a" is not a number 0-59$/],
  ])('refuses %j: %s', (expression, error) => {
    const parsed = parseCron(expression);
    expect(parsed).toEqual({ error: expect.stringMatching(error) });
  });

  it('parses every field into sorted values', () => {
    expect(parseCron('  */20  5,1 9-17/4 ? jan,DEC/6 MON-FRI,SUN,2#3,6L 2026-2030/2 ')).toEqual({
      expression: '*/20 5,1 9-17/4 ? jan,DEC/6 MON-FRI,SUN,2#3,6L 2026-2030/2',
      seconds: [0, 20, 40],
      minutes: [1, 5],
      hours: [9, 13, 17],
      days: { kind: 'dayOfWeek', days: [1, 2, 3, 4, 5, 6], last: [6], nth: [{ day: 2, k: 3 }] },
      months: [1, 12],
      years: [2026, 2028, 2030],
    });
  });

  it.each<[string, CronDays]>([
    ['* *', { kind: 'every' }],
    ['? *', { kind: 'every' }],
    ['* ?', { kind: 'every' }],
    ['? ?', { kind: 'every' }],
    [
      'L,L-3,15W,LW,1-3 ?',
      {
        kind: 'dayOfMonth',
        days: [1, 2, 3],
        last: true,
        beforeLast: [3],
        nearestWeekday: [15],
        lastWeekday: true,
      },
    ],
    ['* L', { kind: 'dayOfWeek', days: [7], last: [], nth: [] }],
    ['? SUN-sat/3', { kind: 'dayOfWeek', days: [1, 4, 7], last: [], nth: [] }],
    ['? 2#1,2#1,MON#1', { kind: 'dayOfWeek', days: [], last: [], nth: [{ day: 2, k: 1 }] }],
  ])('days of %j', (days, expected) => {
    expect(parseCron(`0 0 0 ${days.replace(' ', ' * ')}`)).toMatchObject({ days: expected });
  });

  it('a missing year is every year 1970-2099', () => {
    const s = schedule('0 0 0 * * ?');
    expect(s.years).toHaveLength(130);
    expect([s.years[0], s.years.at(-1)]).toEqual([1970, 2099]);
  });

  // The scheduler accepts what the parameter validator accepts, apart from what it refuses on purpose.
  it.each([
    '0 0 12 * * ?',
    '0 0 12 * * ? 2030',
    '0 15 10 ? * MON-FRI',
    '0 15 10 ? * 6L 2024-2030',
    '0 0 12 1/5 * ?',
    '0 0 0 L-3 * ?',
    '0 0 0 15W * ?',
    '0 0 0 LW * ?',
    '0 0 0 ? * 7#5',
    '*/7 * * * * ?',
    '0 0 0 1 1 ? */50',
  ])('agrees with the validator on %j', (expression) => {
    expect(checkCronExpression(expression)).toBe(true);
    expect(parseCron(expression)).not.toHaveProperty('error');
  });

  it.each([
    '60 0 12 * * ?',
    '0 0 12 ? * MON#6',
    '0 0 12 L-31 * ?',
    '0 0 12 2L * ?',
    '0 0 12 ? * FRI-MON',
    '*/61 * * * * ?',
  ])('refuses like the validator %j', (expression) => {
    expect(checkCronExpression(expression)).toBe(false);
    expect(parseCron(expression)).toHaveProperty('error');
  });
});

describe('fireTimesBetween', () => {
  const iso = (dates: Date[]) => dates.map((d) => d.toISOString().slice(0, 19));

  it.each<[string, string, string, string, number, string[]]>([
    [
      'last Fridays of a half year',
      '0 0 0 ? * 6L',
      '2026-01-01T00:00:00Z',
      '2026-06-30T00:00:00Z',
      10,
      ['2026-01-30', '2026-02-27', '2026-03-27', '2026-04-24', '2026-05-29', '2026-06-26'].map(
        (d) => `${d}T00:00:00`,
      ),
    ],
    [
      'stops at max',
      '0 0 * * * ?',
      '2026-01-01T00:00:00Z',
      '2026-01-02T00:00:00Z',
      3,
      ['2026-01-01T01:00:00', '2026-01-01T02:00:00', '2026-01-01T03:00:00'],
    ],
    [
      'after is exclusive, until inclusive',
      '0 0 0 * * ?',
      '2026-01-01T00:00:00Z',
      '2026-01-03T00:00:00Z',
      10,
      ['2026-01-02T00:00:00', '2026-01-03T00:00:00'],
    ],
    ['max 0', '0 0 0 * * ?', '2026-01-01T00:00:00Z', '2026-01-03T00:00:00Z', 0, []],
    ['never fires', '0 0 0 30 2 ?', '2026-01-01T00:00:00Z', '2099-12-31T23:59:59Z', 5, []],
    [
      'runs out at the last year',
      '0 0 0 1 1 ? 2098-2099',
      '2026-01-01T00:00:00Z',
      '2099-12-31T23:59:59Z',
      5,
      ['2098-01-01T00:00:00', '2099-01-01T00:00:00'],
    ],
  ])('%s', (_, expression, after, until, max, expected) => {
    expect(iso(fireTimesBetween(schedule(expression), new Date(after), new Date(until), max))).toEqual(
      expected,
    );
  });
});

describe('expressionOfJob', () => {
  it.each<[string, Parameters<typeof expressionOfJob>[0], string]>([
    ['all defaults: the 1st of January', {}, '0 0 0 1 1 ? *'],
    ['only dayOfMonth: dayOfWeek becomes ?', { dayOfMonth: 'L' }, '0 0 0 L 1 ? *'],
    ['only dayOfWeek: dayOfMonth becomes ?', { dayOfWeek: 'MON' }, '0 0 0 ? 1 MON *'],
    ['both given: kept', { dayOfMonth: '15', dayOfWeek: '?' }, '0 0 0 15 1 ? *'],
    ['both restricted: kept (parseCron refuses)', { dayOfMonth: '15', dayOfWeek: '2' }, '0 0 0 15 1 2 *'],
    [
      'every field, numbers too',
      { second: 30, minute: '15', hour: '9', dayOfMonth: '1', month: '*', year: '2026-2030' },
      '30 15 9 1 * ? 2026-2030',
    ],
    ['blank fields take the defaults', { second: '', hour: ' ', dayOfWeek: '', year: '' }, '0 0 0 1 1 ? *'],
    ['expression overrides the fields', { expression: '0 0 12 * * ? 2030', hour: '5' }, '0 0 12 * * ? 2030'],
    ['a 6-field expression gets year *', { expression: '  0 0 12  * * ? ', year: '2030' }, '0 0 12 * * ? *'],
    ['a blank expression is ignored', { expression: '  ', hour: '5' }, '0 0 5 1 1 ? *'],
    ['a malformed expression is kept as is', { expression: '0 0 12 * *' }, '0 0 12 * *'],
  ])('%s', (_, job, expected) => {
    expect(expressionOfJob(job)).toBe(expected);
  });

  it.each<[Parameters<typeof expressionOfJob>[0], string, string | undefined]>([
    [{}, '2026-03-01T00:00:00Z', '2027-01-01T00:00:00.000Z'],
    [{ dayOfMonth: '*', month: '*', hour: '3' }, '2026-03-01T03:00:00Z', '2026-03-02T03:00:00.000Z'],
    [{ dayOfWeek: '6L', month: '*', minute: '30' }, '2026-01-01T00:00:00Z', '2026-01-30T00:30:00.000Z'],
    [{ expression: '0 0 12 1 1 ? 2030' }, '2030-01-01T12:00:00Z', undefined],
  ])('job %j after %s fires at %s', (job, after, expected) => {
    expect(next(expressionOfJob(job), after)).toBe(expected);
  });

  it('a job restricting both days is refused by parseCron', () => {
    expect(parseCron(expressionOfJob({ dayOfMonth: '15', dayOfWeek: 'MON' }))).toHaveProperty('error');
  });
});

// ---------------------------------------------------------------------------------------------------
// The search against a naive oracle: days tested one by one with definitions of L, W and # written
// differently from the engine's, then every second of a matching day.

function oracleDay(days: CronDays, y: number, m: number, d: number): boolean {
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const weekday = (day: number) => new Date(Date.UTC(y, m - 1, day)).getUTCDay() + 1;
  const isWorkday = (day: number) => weekday(day) >= 2 && weekday(day) <= 6;
  const dow = weekday(d);
  switch (days.kind) {
    case 'every':
      return true;
    case 'dayOfMonth': {
      const workdays = Array.from({ length: last }, (_, i) => i + 1).filter(isWorkday);
      const nearest = (n: number) =>
        workdays.reduce((best, w) => (Math.abs(w - n) < Math.abs(best - n) ? w : best));
      return (
        days.days.includes(d) ||
        (days.last && d === last) ||
        days.beforeLast.some((n) => d === last - n) ||
        days.nearestWeekday.some((n) => nearest(n) === d) ||
        (days.lastWeekday && d === workdays.at(-1))
      );
    }
    case 'dayOfWeek':
      return (
        days.days.includes(dow) ||
        (days.last.includes(dow) && d + 7 > last) ||
        days.nth.some((x) => x.day === dow && Math.ceil(d / 7) === x.k)
      );
  }
}

function oracleNext(s: CronSchedule, after: Date): string | undefined {
  const dayMs = 86_400_000;
  for (let day = Math.floor(after.getTime() / dayMs) * dayMs; day < Date.UTC(2100, 0, 1); day += dayMs) {
    const date = new Date(day);
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    if (!s.years.includes(y) || !s.months.includes(m) || !oracleDay(s.days, y, m, d)) continue;
    for (const h of s.hours) {
      for (const mi of s.minutes) {
        for (const sec of s.seconds) {
          const t = day + ((h * 60 + mi) * 60 + sec) * 1000;
          if (t > after.getTime()) return new Date(t).toISOString();
        }
      }
    }
  }
  return undefined;
}

describe('nextFireTime against a naive oracle', () => {
  const days = fc.oneof(
    fc
      .constantFrom('L', 'L-3', 'L-30', '15W', '1W', '31W', 'LW', '1,15', '*/10', '29', '31', '30W,L-1')
      .map((dom) => `${dom} * ?`),
    fc
      .constantFrom('6L', '2#1', '7#5', '5#5', 'MON-FRI', '1', 'L', 'SUN,WED', '1/3', '1L,3#2')
      .map((dow) => `? * ${dow}`),
    fc.constant('* * *'),
  );
  const expression = fc
    .record({
      second: fc.constantFrom('*', '0', '*/15', '10-20', '0,30', '59'),
      minute: fc.constantFrom('*', '0', '*/20', '59', '5,35'),
      hour: fc.constantFrom('*', '0', '23', '9-17/4', '0,12'),
      days,
      month: fc.constantFrom('*', '2', '1,7', '*/4', '4-6', '12'),
      year: fc.constantFrom('', ' *', ' 2026-2030', ' 2028/4', ' 2027,2099'),
    })
    .map(({ second, minute, hour, days, month, year }) => {
      const [dom, , dow] = days.split(' ');
      return `${second} ${minute} ${hour} ${dom} ${month} ${dow}${year}`;
    });
  const after = fc
    .date({
      min: new Date('2025-06-01T00:00:00Z'),
      max: new Date('2031-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));

  it('finds the same instant', () => {
    fc.assert(
      fc.property(expression, after, (e, a) => {
        const s = schedule(e);
        expect(nextFireTime(s, a)?.toISOString()).toBe(oracleNext(s, a));
      }),
      { numRuns: 300, seed: 20260101 },
    );
  });
});
