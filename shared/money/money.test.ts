import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AMT_PATTERN,
  addMinor,
  applyRate,
  asMinor,
  CURRENCY_CODES,
  compareMinor,
  DEC2_PATTERN,
  exponentOf,
  fromMinor,
  isAmt,
  isCurrency,
  isDec2,
  isMinor,
  isToMinorError,
  type Minor,
  type RoundingMode,
  roundDiv,
  roundMinor,
  subMinor,
  type ToMinorError,
  toMinor,
} from './index';

const m = (n: number): Minor => asMinor(n);

describe('currencies', () => {
  it('holds the 179 active ISO 4217 codes, sorted, unique, upper-case', () => {
    expect(CURRENCY_CODES).toHaveLength(179);
    expect(new Set(CURRENCY_CODES).size).toBe(179);
    expect([...CURRENCY_CODES].sort()).toEqual(CURRENCY_CODES);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
  });

  it.each([
    ...['EUR', 'USD', 'GBP', 'CHF', 'PLN', 'XCD', 'XCG', 'ZWG', 'XAD', 'SLE', 'VES', 'VED'].map((c) => [
      c,
      2,
    ]),
    ...[
      'JPY',
      'KRW',
      'CLP',
      'ISK',
      'VND',
      'XAF',
      'XOF',
      'XPF',
      'UGX',
      'PYG',
      'RWF',
      'KMF',
      'GNF',
      'DJF',
      'BIF',
      'VUV',
      'UYI',
    ].map((c) => [c, 0]),
    ...['BHD', 'KWD', 'OMR', 'JOD', 'IQD', 'LYD', 'TND'].map((c) => [c, 3]),
    ['CLF', 4],
    ['UYW', 4],
  ] as [string, number][])('%s has exponent %i', (code, exponent) => {
    expect(isCurrency(code)).toBe(true);
    expect(exponentOf(code)).toBe(exponent);
  });

  it('counts exponents as in List One', () => {
    const count = (e: number | undefined) => CURRENCY_CODES.filter((c) => exponentOf(c) === e).length;
    expect([count(0), count(2), count(3), count(4), count(undefined)]).toEqual([17, 140, 7, 2, 13]);
  });

  it.each(['XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'XTS', 'XXX', 'XBA', 'XSU', 'XUA'])(
    '%s is an ISO code without minor unit',
    (code) => {
      expect(isCurrency(code)).toBe(true);
      expect(exponentOf(code)).toBeUndefined();
    },
  );

  it.each([
    'eur',
    'Eur',
    'EURO',
    'EU',
    '',
    ' EUR',
    'XYZ',
    'HRK',
    'CUC',
    'SLL',
    'ZWL',
    'ANG',
    'VEF',
    'BTC',
    '__proto__',
    'constructor',
  ])('rejects %j', (code) => {
    expect(isCurrency(code)).toBe(false);
    expect(exponentOf(code)).toBeUndefined();
  });

  it('rejects non-strings', () => {
    expect(isCurrency(978)).toBe(false);
    expect(isCurrency(null)).toBe(false);
    expect(isCurrency(undefined)).toBe(false);
  });
});

describe('AMT / DEC2 wire formats', () => {
  const validAmt = ['100', '10', '0', '00.01', '12.50', '92.00', '0.00', '9999999999', '9999999999.99'];
  const invalidAmt = [
    '12.5',
    '92.0',
    '1.234',
    '-1',
    '1e3',
    ' 1',
    '1 ',
    '12345678901',
    '12345678901.00',
    '',
    '.',
    '1.',
    '.50',
    '1,00',
    '1.00\n',
    '+1',
    '0x10',
    'NaN',
    'Infinity',
    '１',
    '1.0 0',
  ];
  const validDec2 = ['92.00', '00.01', '0.00', '12.50', '9999999999.99'];
  const invalidDec2 = [
    '100',
    '10',
    '12.5',
    '92.0',
    '1.234',
    '-1.00',
    '1e3',
    ' 1.00',
    '12345678901.00',
    '',
    '.00',
  ];

  it.each(validAmt)('AMT accepts %j', (v) => {
    expect(isAmt(v)).toBe(true);
    expect(AMT_PATTERN.test(v)).toBe(true);
  });
  it.each(invalidAmt)('AMT rejects %j', (v) => {
    expect(isAmt(v)).toBe(false);
    expect(AMT_PATTERN.test(v)).toBe(false);
  });
  it.each(validDec2)('DEC2 accepts %j', (v) => {
    expect(isDec2(v)).toBe(true);
    expect(DEC2_PATTERN.test(v)).toBe(true);
  });
  it.each(invalidDec2)('DEC2 rejects %j', (v) => {
    expect(isDec2(v)).toBe(false);
    expect(DEC2_PATTERN.test(v)).toBe(false);
  });
  it('rejects non-strings', () => {
    for (const v of [100, 12.5, null, undefined, {}, ['1.00']]) {
      expect(isAmt(v)).toBe(false);
      expect(isDec2(v)).toBe(false);
    }
  });
});

describe('toMinor', () => {
  it.each([
    ['100', 'EUR', 10000],
    ['10', 'EUR', 1000],
    ['00.01', 'EUR', 1],
    ['12.50', 'EUR', 1250],
    ['92.00', 'EUR', 9200],
    ['0', 'EUR', 0],
    ['9999999999.99', 'EUR', 999_999_999_999],
    ['100', 'JPY', 100],
    ['100.00', 'JPY', 100],
    ['0000000100', 'JPY', 100],
    ['9999999999.00', 'JPY', 9_999_999_999],
    ['12.35', 'BHD', 12350],
    ['12', 'BHD', 12000],
    ['0.01', 'KWD', 10],
    ['9999999999.99', 'BHD', 9_999_999_999_990],
    ['1.23', 'CLF', 12300],
    ['9999999999.99', 'CLF', 99_999_999_999_900],
  ] as const)('%s %s → %i', (amount, currency, expected) => {
    const result = toMinor(amount, currency);
    expect(result).toBe(expected);
    expect(isToMinorError(result)).toBe(false);
    expect(Number.isSafeInteger(result)).toBe(true);
  });

  it.each([
    ['100.50', 'JPY', 'precision'],
    ['0.01', 'JPY', 'precision'],
    ['100.10', 'KRW', 'precision'],
    ['1', 'XYZ', 'currency'],
    ['1', 'eur', 'currency'],
    ['1', '', 'currency'],
    ['1', 'XAU', 'currency'],
    ['1', 'XXX', 'currency'],
    ['1', 'HRK', 'currency'],
    ['12.5', 'EUR', 'format'],
    ['1.234', 'BHD', 'format'],
    ['-1', 'EUR', 'format'],
    ['1e3', 'EUR', 'format'],
    [' 1', 'EUR', 'format'],
    ['12345678901', 'JPY', 'format'],
    ['', 'EUR', 'format'],
    ['12.5', 'XYZ', 'format'],
  ] as const)('%j %s → %s error', (amount, currency, error) => {
    const result = toMinor(amount, currency);
    expect(result).toEqual({ error } satisfies ToMinorError);
    expect(isToMinorError(result)).toBe(true);
  });
});

describe('fromMinor', () => {
  it.each([
    [9200, 'EUR', '92.00'],
    [1, 'EUR', '0.01'],
    [10, 'EUR', '0.10'],
    [0, 'EUR', '0.00'],
    [999_999_999_999, 'EUR', '9999999999.99'],
    [100, 'JPY', '100.00'],
    [0, 'JPY', '0.00'],
    [9_999_999_999, 'JPY', '9999999999.00'],
    [12350, 'BHD', '12.35'],
    [10, 'BHD', '0.01'],
    [9_999_999_999_990, 'BHD', '9999999999.99'],
    [12_345_600, 'CLF', '1234.56'],
  ] as const)('%i %s → %s', (minor, currency, expected) => {
    const text = fromMinor(m(minor), currency);
    expect(text).toBe(expected);
    expect(isDec2(text)).toBe(true);
  });

  it.each([
    [12345, 'BHD', 'not representable with two decimals'],
    [1, 'KWD', 'not representable with two decimals'],
    [12_345_678, 'CLF', 'not representable with two decimals'],
    [-1, 'EUR', 'outside the DEC2 range'],
    [1_000_000_000_000, 'EUR', 'outside the DEC2 range'],
    [10_000_000_000, 'JPY', 'outside the DEC2 range'],
    [1, 'XYZ', 'Unknown currency'],
    [1, 'XAU', 'Unknown currency'],
  ] as const)('%i %s throws RangeError', (minor, currency, message) => {
    expect(() => fromMinor(m(minor), currency)).toThrow(RangeError);
    expect(() => fromMinor(m(minor), currency)).toThrow(message);
  });

  it('rejects values that are not safe integers even if cast to Minor', () => {
    expect(() => fromMinor(0.5 as Minor, 'EUR')).toThrow(RangeError);
    expect(() => fromMinor(Number.NaN as Minor, 'EUR')).toThrow(RangeError);
    expect(() => fromMinor((2 ** 53) as Minor, 'JPY')).toThrow(RangeError);
  });
});

describe('round trips', () => {
  const amounts = ['0', '00.01', '0.29', '1.15', '4.35', '10', '12.50', '92.00', '100', '9999999999.99'];

  it.each(['EUR', 'JPY', 'BHD'])('toMinor → fromMinor → toMinor for %s', (currency) => {
    for (const amount of amounts) {
      const minor = toMinor(amount, currency);
      if (currency === 'JPY' && /\.(?!00$)/.test(amount)) {
        expect(minor).toEqual({ error: 'precision' });
        continue;
      }
      if (isToMinorError(minor)) throw new Error(`unexpected ${minor.error} for ${amount}`);
      const text = fromMinor(minor, currency);
      expect(isDec2(text)).toBe(true);
      expect(BigInt(text.replace('.', ''))).toBe(
        BigInt(amount.replace('.', '')) * (amount.includes('.') ? 1n : 100n),
      );
      expect(toMinor(text, currency)).toBe(minor);
    }
  });

  it('largest AMT is exact in every currency with a minor unit', () => {
    for (const currency of CURRENCY_CODES) {
      const exponent = exponentOf(currency);
      if (exponent === undefined) continue;
      const minor = toMinor('9999999999.99', currency);
      if (exponent === 0) {
        expect(minor).toEqual({ error: 'precision' });
        continue;
      }
      expect(minor).toBe(Number(`999999999999${'0'.repeat(exponent - 2)}`));
      expect(fromMinor(minor as Minor, currency)).toBe('9999999999.99');
    }
  });
});

describe('no float path', () => {
  // Each of these breaks naive float arithmetic: e.g. 0.29 * 100 === 28.999999999999996.
  it.each([
    ['0.29', 29],
    ['1.15', 115],
    ['4.35', 435],
    ['8.20', 820],
    ['19.99', 1999],
    ['1.13', 113],
    ['0.57', 57],
    ['9007199254.99', 900_719_925_499],
    ['9999999999.99', 999_999_999_999],
  ] as const)('%s EUR → %i cents exactly', (amount, cents) => {
    expect(toMinor(amount, 'EUR')).toBe(cents);
    expect(fromMinor(m(cents), 'EUR')).toBe(amount);
  });

  it('the float trap is real (documents why the string path exists)', () => {
    expect(Math.trunc(0.29 * 100)).toBe(28);
    expect(Math.trunc(1.15 * 100)).toBe(114);
    expect(Math.trunc(4.35 * 100)).toBe(434);
    expect(Math.round(1.005 * 100)).toBe(100); // 100.49999999999999
  });

  it('1.005-style ties round as specified, unlike float Math.round', () => {
    // 1.00 EUR at rate 1.005 is exactly 100.5 cents.
    expect(applyRate(m(100), 'EUR', '1.005', 'EUR', 'halfUp')).toBe(101);
    expect(applyRate(m(100), 'EUR', '1.005', 'EUR', 'halfEven')).toBe(100);
    expect(applyRate(m(1000), 'EUR', '1.0005', 'USD', 'halfUp')).toBe(1001);
    expect(applyRate(m(1000), 'EUR', '1.0015', 'USD', 'halfEven')).toBe(1002);
  });

  it('every cent value 0.00 … 999.99 parses exactly', () => {
    for (let cents = 0; cents < 100_000; cents++) {
      const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      if (toMinor(amount, 'EUR') !== cents) throw new Error(`${amount} did not parse to ${cents}`);
    }
  });
});

describe('roundDiv / roundMinor', () => {
  it.each([
    [5, 2, 'halfEven', 2],
    [5, 2, 'halfUp', 3],
    [5, 2, 'floor', 2],
    [5, 2, 'ceil', 3],
    [7, 2, 'halfEven', 4],
    [7, 2, 'halfUp', 4],
    [-5, 2, 'halfEven', -2],
    [-5, 2, 'halfUp', -3],
    [-5, 2, 'floor', -3],
    [-5, 2, 'ceil', -2],
    [5, -2, 'halfUp', -3],
    [-5, -2, 'halfUp', 3],
    [1, 3, 'halfUp', 0],
    [2, 3, 'halfUp', 1],
    [2, 3, 'halfEven', 1],
    [-2, 3, 'halfEven', -1],
    [1, 3, 'ceil', 1],
    [-1, 3, 'floor', -1],
    [-1, 3, 'ceil', 0],
    [6, 3, 'halfUp', 2],
    [0, 7, 'ceil', 0],
  ] as [number, number, RoundingMode, number][])('%i / %i %s → %i', (n, d, mode, expected) => {
    expect(roundDiv(n, d, mode)).toBe(BigInt(expected));
    expect(roundDiv(BigInt(n), BigInt(d), mode)).toBe(BigInt(expected));
    expect(roundMinor(n, d, mode)).toBe(expected);
  });

  it('works beyond the safe-integer range internally', () => {
    const big = 10n ** 30n + 5n;
    expect(roundDiv(big, 10n, 'halfEven')).toBe(10n ** 29n);
    expect(roundDiv(big, 10n, 'halfUp')).toBe(10n ** 29n + 1n);
    expect(() => roundMinor(big, 10n, 'halfUp')).toThrow(RangeError);
  });

  it('rejects zero denominators, fractions and unsafe numbers', () => {
    expect(() => roundDiv(1, 0, 'halfUp')).toThrow(RangeError);
    expect(() => roundDiv(1n, 0n, 'halfUp')).toThrow(RangeError);
    expect(() => roundDiv(0.5, 1, 'halfUp')).toThrow(RangeError);
    expect(() => roundDiv(1, 1.5, 'halfUp')).toThrow(RangeError);
    expect(() => roundDiv(2 ** 53, 1, 'halfUp')).toThrow(RangeError);
    expect(() => roundDiv(1, 1, 'nearest' as RoundingMode)).toThrow(RangeError);
  });

  it('property: result is within the mode’s bound of the exact quotient', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.boolean(),
        (n, d, negateD) => {
          const den = negateD ? -d : d;
          const floor = roundDiv(n, den, 'floor');
          const ceil = roundDiv(n, den, 'ceil');
          // floor ≤ n/den ≤ ceil, with ceil - floor ∈ {0, 1}
          const num = negateD ? -n : n;
          expect(floor * d <= num && num <= ceil * d).toBe(true);
          expect(ceil - floor === 0n || ceil - floor === 1n).toBe(true);
          for (const mode of ['halfEven', 'halfUp'] as const) {
            const r = roundDiv(n, den, mode);
            const err = num - r * d;
            expect(2n * (err < 0n ? -err : err) <= d).toBe(true);
            if (mode === 'halfEven' && 2n * (err < 0n ? -err : err) === d) expect(r % 2n).toBe(0n);
          }
        },
      ),
    );
  });
});

describe('applyRate', () => {
  it.each([
    [10000, 'EUR', '1.0873', 'USD', 'halfEven', 10873],
    [1, 'EUR', '1.0873', 'USD', 'halfEven', 1],
    [1, 'EUR', '1.0873', 'USD', 'ceil', 2],
    [1, 'EUR', '1.0873', 'USD', 'floor', 1],
    [25, 'EUR', '0.5', 'USD', 'halfEven', 12],
    [25, 'EUR', '0.5', 'USD', 'halfUp', 13],
    [35, 'EUR', '0.5', 'USD', 'halfEven', 18],
    [-25, 'EUR', '0.5', 'USD', 'halfEven', -12],
    [-25, 'EUR', '0.5', 'USD', 'halfUp', -13],
    [-25, 'EUR', '0.5', 'USD', 'floor', -13],
    [-25, 'EUR', '0.5', 'USD', 'ceil', -12],
    [1250, 'EUR', '161.53', 'JPY', 'halfEven', 2019], // 2019.125 JPY
    [1250, 'EUR', '161.53', 'JPY', 'ceil', 2020],
    [10000, 'JPY', '0.0061908', 'EUR', 'halfEven', 6191], // 61.908 EUR
    [10000, 'EUR', '0.4101', 'BHD', 'halfEven', 41010], // 41.010 BHD
    [12345, 'BHD', '2.4385', 'EUR', 'halfEven', 3010], // 30.1032825 EUR
    [12345, 'BHD', '2.4385', 'EUR', 'ceil', 3011],
    [100, 'JPY', '1', 'KRW', 'halfEven', 100],
    [100, 'EUR', '1', 'JPY', 'halfEven', 1], // 1.00 EUR → 1 JPY
    [150, 'EUR', '1', 'JPY', 'halfEven', 2], // 1.50 → 2 (tie to even)
    [250, 'EUR', '1', 'JPY', 'halfEven', 2], // 2.50 → 2 (tie to even)
    [250, 'EUR', '1', 'JPY', 'halfUp', 3],
    [999_999_999_999, 'EUR', '1.123456789012345678', 'USD', 'halfEven', 1_123_456_789_011],
    [999_999_999_999, 'EUR', '1.123456789012345678', 'USD', 'ceil', 1_123_456_789_012],
    [0, 'EUR', '1.0873', 'USD', 'ceil', 0],
  ] as [number, string, string, string, RoundingMode, number][])(
    '%i %s × %s → %s (%s) = %i',
    (minor, from, rate, to, mode, expected) => {
      expect(applyRate(m(minor), from, rate, to, mode)).toBe(expected);
    },
  );

  it.each(['', '0', '0.000', '-1', '1e3', '1,08', '.5', '1.', ' 1', 'NaN', '1.0000000000000000001'])(
    'rejects rate %j',
    (rate) => {
      expect(() => applyRate(m(100), 'EUR', rate, 'USD', 'halfEven')).toThrow(RangeError);
    },
  );

  it('rejects unknown currencies and unsafe results', () => {
    expect(() => applyRate(m(100), 'XYZ', '1', 'USD', 'halfEven')).toThrow(RangeError);
    expect(() => applyRate(m(100), 'EUR', '1', 'XAU', 'halfEven')).toThrow(RangeError);
    expect(() => applyRate(m(Number.MAX_SAFE_INTEGER), 'EUR', '2', 'USD', 'halfEven')).toThrow(RangeError);
    expect(() => applyRate(m(999_999_999_999), 'EUR', '100000', 'BHD', 'halfEven')).toThrow(RangeError);
  });
});

describe('Minor arithmetic', () => {
  it('adds, subtracts and compares', () => {
    expect(addMinor(m(1), m(2))).toBe(3);
    expect(subMinor(m(5), m(7))).toBe(-2);
    expect(addMinor(m(Number.MAX_SAFE_INTEGER - 1), m(1))).toBe(Number.MAX_SAFE_INTEGER);
    expect(compareMinor(m(1), m(2))).toBe(-1);
    expect(compareMinor(m(2), m(2))).toBe(0);
    expect(compareMinor(m(3), m(2))).toBe(1);
    expect(compareMinor(m(-3), m(2))).toBe(-1);
  });

  it('guards against unsafe integers', () => {
    expect(() => addMinor(m(Number.MAX_SAFE_INTEGER), m(1))).toThrow(RangeError);
    expect(() => subMinor(m(Number.MIN_SAFE_INTEGER), m(1))).toThrow(RangeError);
    expect(() => addMinor(0.5 as Minor, m(1))).toThrow(RangeError);
    expect(() => compareMinor(Number.NaN as Minor, m(1))).toThrow(RangeError);
    expect(() => asMinor(1.5)).toThrow(RangeError);
    expect(() => asMinor(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => asMinor(2n ** 53n)).toThrow(RangeError);
    expect(asMinor(-42n)).toBe(-42);
    expect(isMinor(42)).toBe(true);
    expect(isMinor(4.2)).toBe(false);
    expect(isMinor('42')).toBe(false);
  });
});

describe('properties', () => {
  const upToTwo = CURRENCY_CODES.filter((c) => (exponentOf(c) ?? 99) <= 2);

  it('fromMinor → toMinor round-trips exactly for currencies with exponent ≤ 2', () => {
    const arb = fc.constantFrom(...upToTwo).chain((currency) => {
      const exponent = exponentOf(currency) ?? 0;
      // DEC2 allows 10 integer digits: the largest minor value is 10^(10 + exponent) - 1.
      const max = 10 ** (10 + exponent) - 1;
      return fc.tuple(fc.constant(currency), fc.integer({ min: 0, max }));
    });
    fc.assert(
      fc.property(arb, ([currency, value]) => {
        const minor = m(value);
        const text = fromMinor(minor, currency);
        expect(isDec2(text)).toBe(true);
        expect(toMinor(text, currency)).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('fromMinor → toMinor round-trips for 3/4-exponent currencies whenever representable', () => {
    const arb = fc
      .constantFrom('BHD', 'KWD', 'OMR', 'JOD', 'IQD', 'LYD', 'TND', 'CLF', 'UYW')
      .chain((currency) => {
        const step = 10 ** ((exponentOf(currency) ?? 2) - 2);
        return fc.tuple(
          fc.constant(currency),
          fc.integer({ min: 0, max: 999_999_999_999 }).map((c) => c * step),
        );
      });
    fc.assert(
      fc.property(arb, ([currency, value]) => {
        expect(toMinor(fromMinor(m(value), currency), currency)).toBe(value);
      }),
    );
  });

  it('toMinor agrees with a bigint reference on random AMT strings', () => {
    const amt = fc
      .tuple(
        fc.stringMatching(/^[0-9]{1,10}$/),
        fc.option(fc.stringMatching(/^[0-9]{2}$/), { nil: undefined }),
      )
      .map(([i, f]) => (f === undefined ? i : `${i}.${f}`));
    fc.assert(
      fc.property(amt, fc.constantFrom('EUR', 'JPY', 'BHD', 'CLF'), (amount, currency) => {
        const exponent = BigInt(exponentOf(currency) ?? 0);
        const [i = '0', f = ''] = amount.split('.');
        const cents = BigInt(i) * 100n + BigInt(f.padEnd(2, '0'));
        // exact value in minor units is cents * 10^exponent / 100
        const scaled = cents * 10n ** exponent;
        const expected: Minor | ToMinorError =
          scaled % 100n === 0n ? m(Number(scaled / 100n)) : { error: 'precision' };
        expect(toMinor(amount, currency)).toEqual(expected);
      }),
    );
  });
});
