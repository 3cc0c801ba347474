/**
 * The spec's value formats (Notation section and the format columns of the parameter tables), one
 * row per format kind, each with values the spec accepts and values it refuses.
 */
import { describe, expect, it } from 'vitest';
import { type CronField, checkCronExpression, checkCronField } from './cron';
import { checkFormat, describeFormat, type Format } from './formats';

interface Case {
  readonly label: string;
  readonly format: Format;
  readonly ok: readonly string[];
  readonly bad: readonly string[];
}

const CASES = {
  AN: {
    label: 'AN 2-5 (any characters, length in code points)',
    format: { t: 'AN', min: 2, max: 5 },
    ok: ['ab', 'abcde', 'a b', '€€', '😀😀😀😀😀'],
    bad: ['', 'a', 'abcdef', '😀😀😀😀😀😀'],
  },
  A: {
    label: 'A 3-128 (card.holder)',
    format: { t: 'A', min: 3, max: 128 },
    ok: ['Jane Jones', "O'Brien", 'Zoë Müller-Lüdenscheidt', 'J. R. Smith', 'Jim'],
    bad: ['Jo', 'J4ne Jones', ' Jane', 'Jane!', 'Jane_Jones', 'x'.repeat(129)],
  },
  N: {
    label: 'N 3-4 (card.cvv)',
    format: { t: 'N', min: 3, max: 4 },
    ok: ['123', '0123', '9999'],
    bad: ['12', '12345', '12a', '12 3', '１２３', '-123', ''],
  },
  AMT: {
    label: 'AMT',
    format: { t: 'AMT' },
    // The spec's own examples: 100, 10, 00.01, 12.50, 92.00 valid; 12.5 and 92.0 invalid.
    ok: ['100', '10', '00.01', '12.50', '92.00', '0', '1234567890', '1234567890.99'],
    bad: ['12.5', '92.0', '12.500', '12345678901', '-1', '1,00', '.50', '12.', '', ' 12.50', '1e3'],
  },
  DEC2: {
    label: 'DEC2',
    format: { t: 'DEC2' },
    ok: ['92.00', '0.01', '00.01', '1234567890.99'],
    bad: ['92', '92.0', '92.000', '12345678901.00', '-1.00', '1,00', '.50'],
  },
  DATE: {
    label: 'DATE (yyyy-MM-dd, year beginning 19 or 20, a real date)',
    format: { t: 'DATE' },
    ok: ['2024-02-29', '2000-02-29', '1900-01-01', '2099-12-31', '2023-12-31', '2024-04-30'],
    bad: [
      '2023-02-29',
      '1900-02-29',
      '2100-02-29',
      '1899-12-31',
      '2100-01-01',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '2024-04-31',
      '2024-1-01',
      '24-01-01',
      '2024/01/01',
      '2024-01-01 00:00:00',
      '',
    ],
  },
  YMD: {
    label: 'YMD (yyyy-MM-dd, any year: sender/recipient birthDate)',
    format: { t: 'YMD' },
    ok: ['1850-06-15', '2024-02-29', '2150-01-01'],
    bad: ['2023-02-29', '850-06-15', '2024-06-31', '2024-6-1', '15.06.1850'],
  },
  TS: {
    label: 'TS (yyyy-MM-dd HH:mm:ss, 24-hour clock)',
    format: { t: 'TS' },
    ok: ['2024-01-31 00:00:00', '2024-01-31 23:59:59', '2024-02-29 12:30:45', '1999-12-31 13:00:00'],
    bad: [
      '2024-01-31 24:00:00',
      '2024-01-31 12:60:00',
      '2024-01-31 12:00:60',
      '2024-01-31T12:00:00',
      '2024-01-31 1:00:00',
      '2024-01-31 12:00',
      '2024-01-31 12:00:00 PM',
      '2024-01-31 12:00:00+0000',
      '2023-02-29 12:00:00',
      '2024-01-31',
    ],
  },
  enum: {
    label: 'enum (testMode)',
    format: { t: 'enum', values: ['EXTERNAL', 'INTERNAL'] },
    ok: ['EXTERNAL', 'INTERNAL'],
    bad: ['internal', 'LIVE', 'INTERNAL ', ''],
  },
  enumList: {
    label: 'enumList (query paymentTypes)',
    format: { t: 'enumList', values: ['DB', 'PA', 'RF'] },
    ok: ['DB', 'DB,PA', 'DB,PA,RF', 'DB, PA'],
    bad: ['XX', 'DB,XX', 'DB,,PA', 'db', ''],
  },
  bool: {
    label: 'bool (true or false)',
    format: { t: 'bool' },
    ok: ['true', 'false'],
    bad: ['1', '0', 'TRUE', 'False', 'yes', ''],
  },
  int: {
    label: 'int 1-98 (numberOfCaptures)',
    format: { t: 'int', min: 1, max: 98 },
    ok: ['1', '50', '98'],
    bad: ['0', '99', '01', '1.0', '-1', '1e1', ' 1', ''],
  },
  decimal: {
    label: 'decimal 12.3 (cart.items[n].quantity)',
    format: { t: 'decimal', int: 12, frac: 3 },
    ok: ['1', '0', '2.5', '0.125', '1.000', '123456789012.123'],
    bad: ['1234567890123', '1.2345', '-1', '1,5', '1.', '.5', '1.2.3', ''],
  },
  currency: {
    label: 'currency (ISO 4217, upper case)',
    format: { t: 'currency' },
    ok: ['EUR', 'USD', 'JPY', 'BHD'],
    bad: ['eur', 'EURO', 'EU', 'XYZ', ''],
  },
  country2: {
    label: 'country2 (ISO 3166-1 alpha-2, upper case)',
    format: { t: 'country2' },
    ok: ['DE', 'GB', 'US', 'CH'],
    bad: ['de', 'XX', 'DEU', 'D', ''],
  },
  url: {
    label: 'url 6-2048 (shopperResultUrl: absolute only)',
    format: { t: 'url', min: 6, max: 2048 },
    ok: ['https://shop.example/return?id=1', 'http://localhost:8080/x', 'HTTPS://SHOP.EXAMPLE/'],
    bad: [
      '/return',
      'shop.example/return',
      'ftp://shop.example/x',
      'javascript:alert(1)',
      'https://',
      'http:// shop.example',
      `https://shop.example/${'a'.repeat(2048)}`,
    ],
  },
  email: {
    label: 'email 6-128',
    format: { t: 'email', min: 6, max: 128 },
    ok: ['jane@example.com', 'j.doe+shop@mail.example.co.uk'],
    bad: [
      'jane@example',
      'jane.example.com',
      'a@b.c',
      'jane doe@example.com',
      'jane@@example.com',
      `${'x'.repeat(120)}@example.com`,
    ],
  },
  cron: {
    label: 'cron dayOfWeek (job.dayOfWeek)',
    format: { t: 'cron', field: 'dayOfWeek' },
    ok: ['1', '7', 'SUN-SAT', 'MON#2', '6L', '?', '1,3,5', '*/2'],
    bad: ['0', '8', 'MON#6', 'W', '*/0', ''],
  },
  cronExpression: {
    label: 'cronExpression 256 (job.expression)',
    format: { t: 'cronExpression', max: 256 },
    ok: ['0 0 12 * * ?', '0 15 10 ? * MON-FRI 2030', '0 0/5 14,18 * * ?', '0 0 12 L * ? *'],
    bad: [
      '0 0 12 * *',
      '0 0 24 * * ?',
      '0 0 12 * * ? 2024 x',
      '* * * * * * 2100',
      '',
      `${'0,'.repeat(128)}0 0 12 * * ?`,
    ],
  },
  pattern: {
    label: 'pattern (threeDSecure.eci: 01 to 08)',
    format: { t: 'pattern', re: /^0[1-8]$/, says: '2 digits, 01 to 08' },
    ok: ['01', '05', '08'],
    bad: ['00', '09', '5', '005', ''],
  },
} satisfies Record<Format['t'], Case>;

describe('checkFormat: every format kind', () => {
  describe.each(Object.values(CASES) as Case[])('$label', ({ format, ok, bad }) => {
    it.each(ok)('accepts %j', (value) => {
      expect(checkFormat(format, value)).toBeUndefined();
    });

    it.each(bad)('rejects %j', (value) => {
      const problem = checkFormat(format, value);
      expect(problem).toBe(`must be ${describeFormat(format)}`);
    });

    it('describes itself in a non-empty sentence', () => {
      const text = describeFormat(format);
      expect(text.trim().length).toBeGreaterThan(3);
      expect(text).not.toMatch(/undefined|NaN|\[object/);
    });
  });

  it('has a row for each format kind', () => {
    expect(Object.keys(CASES).sort()).toEqual(
      [
        'AN',
        'A',
        'N',
        'AMT',
        'DEC2',
        'DATE',
        'YMD',
        'TS',
        'enum',
        'enumList',
        'bool',
        'int',
        'decimal',
        'currency',
        'country2',
        'url',
        'email',
        'cron',
        'cronExpression',
        'pattern',
      ].sort(),
    );
  });
});

describe('format variants', () => {
  it.each([
    ['true', true],
    ['false', true],
    ['1', true],
    ['0', true],
    ['2', false],
    ['01', false],
    ['yes', false],
    ['TRUE', false],
  ] as const)('bool with legacy 1/0 (createRegistration): %j → %s', (value, fits) => {
    expect(checkFormat({ t: 'bool', legacy01: true }, value) === undefined).toBe(fits);
  });

  it.each([
    ['0', true],
    ['19', true],
    ['19.5', true],
    ['7.25', true],
    ['100', true],
    ['100.00', true],
    ['100.01', false],
    ['101', false],
    ['19.123', false],
    ['-1', false],
    ['1000', false],
  ] as const)('decimal with a maximum (cart.items[n].tax 0 to 100): %j → %s', (value, fits) => {
    expect(checkFormat({ t: 'decimal', int: 3, frac: 2, max: 100 }, value) === undefined).toBe(fits);
  });

  it.each([
    ['1.00', true],
    ['123456789.99', true],
    ['1', false],
    ['1.0', false],
    ['1234567890.00', false],
  ] as const)('decimal with exact decimals (threeDSecure.amount): %j → %s', (value, fits) => {
    expect(checkFormat({ t: 'decimal', int: 9, frac: 2, exact: true }, value) === undefined).toBe(fits);
  });

  it.each([
    ['😀', true],
    ['😀😀', false],
  ] as const)('AN counts code points, not UTF-16 units: %j → %s', (value, fits) => {
    expect(checkFormat({ t: 'AN', min: 1, max: 1 }, value) === undefined).toBe(fits);
  });

  it.each<Format>([
    { t: 'AN', min: 1, max: 1 },
    { t: 'AN', min: 8, max: 8 },
    { t: 'N', min: 3, max: 4 },
    { t: 'bool', legacy01: true },
    { t: 'decimal', int: 3, frac: 2, max: 100 },
    { t: 'decimal', int: 9, frac: 2, exact: true },
    ...(['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'] as const).map(
      (field): Format => ({ t: 'cron', field }),
    ),
  ])('describeFormat(%j) is a sentence', (format) => {
    expect(describeFormat(format)).toMatch(/^\S.*\S$/);
  });

  it('AMT description says decimals are optional but exactly two when present', () => {
    expect(describeFormat({ t: 'AMT' })).toMatch(/optional/i);
    expect(describeFormat({ t: 'AMT' })).toMatch(/two decimals/);
  });
});

describe('checkCronField (job.* fields)', () => {
  const FIELDS: Record<CronField, { ok: string[]; bad: string[] }> = {
    second: {
      ok: ['0', '59', '*', '*/15', '0-30', '0,15,30,45', '10-20/5'],
      bad: ['60', '-1', '?', 'L', '', 'a', '*/0', '*/61', '1,,2'],
    },
    minute: { ok: ['0', '59', '*/5', '0-30'], bad: ['60', '?', 'L'] },
    hour: { ok: ['0', '23', '9-17', '*/2', '0,12'], bad: ['24', '?', '9-', 'L', 'W'] },
    dayOfMonth: {
      ok: ['1', '31', 'L', 'LW', 'L-3', '15W', '?', '1,15', '1-15', '*/2', '*'],
      bad: ['0', '32', 'W', '32W', 'L-31', '1#2', 'MON', '2L'],
    },
    month: { ok: ['1', '12', '1-6', '*/3', '1,6,12', '*'], bad: ['0', '13', '?', 'L', '6W'] },
    dayOfWeek: {
      ok: ['1', '7', 'SUN', 'sat', 'MON-FRI', 'SUN-SAT', 'MON#2', '2#5', '6L', 'L', '?', '2,4,6', '*'],
      bad: ['0', '8', 'MON#6', 'MON#0', '15W', 'LW', 'SUNDAY'],
    },
    year: {
      ok: ['2024', '1970', '2099', '2024-2030', '2024,2026', '*', '*/2', ''],
      bad: ['1969', '2100', '24', '?', 'L', '2030-2024'],
    },
  };

  describe.each(Object.entries(FIELDS))('%s', (field, { ok, bad }) => {
    it.each(ok)('accepts %j', (value) => {
      expect(checkCronField(field as CronField, value)).toBe(true);
    });
    it.each(bad)('rejects %j', (value) => {
      expect(checkCronField(field as CronField, value)).toBe(false);
    });
  });
});

describe('checkCronExpression (job.expression: 7 fields, year optional)', () => {
  it.each([
    '0 0 12 * * ?',
    '0 0 12 * * ? 2030',
    '0 15 10 ? * MON-FRI',
    '0 15 10 ? * 6L 2024-2030',
    '0 0 12 1/5 * ?',
    '0 11 11 11 11 ?',
    '  0 0 12 * * ?  ',
  ])('accepts %j', (expression) => {
    expect(checkCronExpression(expression)).toBe(true);
  });

  it.each([
    '',
    '0 0 12 * *',
    '0 0 12 * * ? 2030 x',
    '60 0 12 * * ?',
    '0 60 12 * * ?',
    '0 0 24 * * ?',
    '0 0 12 32 * ?',
    '0 0 12 * 13 ?',
    '0 0 12 * * 8',
    '0 0 12 * * ? 1969',
    '? 0 12 * * ?',
  ])('rejects %j', (expression) => {
    expect(checkCronExpression(expression)).toBe(false);
  });
});
