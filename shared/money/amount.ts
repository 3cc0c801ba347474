/**
 * Money on the wire and in memory. Browser-safe, dependency-free.
 *
 * Money is never a float: amounts are parsed from wire strings into integer minor units (`Minor`) with
 * string and integer arithmetic only, and every scaling, fee or FX computation runs on `bigint` with an
 * explicit rounding mode.
 */
import { exponentOf } from './currencies';

/** AMT: 1 to 10 integer digits, optionally a dot and exactly two decimals (`100`, `00.01`, `12.50`). */
export const AMT_PATTERN = /^[0-9]{1,10}(?:\.[0-9]{2})?$/;

/** DEC2: 1 to 10 integer digits, a dot and exactly two decimals (`92.00`). */
export const DEC2_PATTERN = /^[0-9]{1,10}\.[0-9]{2}$/;

/** Exchange rate: a positive decimal with 1 to 12 integer digits and up to 18 decimals (`1.0873`). */
export const RATE_PATTERN = /^[0-9]{1,12}(?:\.[0-9]{1,18})?$/;

/**
 * An AMT or DEC2 wire amount in hundredths, for comparing two amounts of one request whatever
 * their currency (both formats have two decimals or none); undefined when it is neither.
 */
export function wireHundredths(value: unknown): bigint | undefined {
  if (!isAmt(value) && !isDec2(value)) return undefined;
  const [whole, cents = '00'] = value.split('.');
  return BigInt(whole!) * 100n + BigInt(cents);
}

/** True if `value` is a string in AMT wire format. */
export function isAmt(value: unknown): value is string {
  return typeof value === 'string' && AMT_PATTERN.test(value);
}

/** True if `value` is a string in DEC2 wire format. */
export function isDec2(value: unknown): value is string {
  return typeof value === 'string' && DEC2_PATTERN.test(value);
}

declare const minorBrand: unique symbol;

/**
 * An amount in integer minor units of some currency (cents for EUR, yen for JPY, fils for BHD).
 * Always a safe integer; may be negative (e.g. the result of `subMinor`). The currency is not part of the
 * value: keep it next to the amount.
 */
export type Minor = number & { readonly [minorBrand]: true };

/** Why `toMinor` rejected its input. */
export type ToMinorError = {
  readonly error: 'format' | 'currency' | 'precision';
};

/** Rounding modes for integer division. `halfUp` rounds ties away from zero (commercial rounding). */
export type RoundingMode = 'halfEven' | 'halfUp' | 'floor' | 'ceil';

/** True if `value` is a safe integer, i.e. a valid `Minor`. */
export function isMinor(value: unknown): value is Minor {
  return Number.isSafeInteger(value);
}

/** Brands a safe integer as `Minor`; throws `RangeError` for fractions, NaN, infinities and unsafe integers. */
export function asMinor(value: number | bigint): Minor {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (!Number.isSafeInteger(n) || (typeof value === 'bigint' && BigInt(n) !== value)) {
    throw new RangeError(`Not a safe integer minor amount: ${String(value)}`);
  }
  return n as Minor;
}

/** True if `toMinor` returned an error rather than an amount. */
export function isToMinorError(result: Minor | ToMinorError): result is ToMinorError {
  return typeof result !== 'number';
}

const FORMAT_ERROR: ToMinorError = Object.freeze({ error: 'format' });
const CURRENCY_ERROR: ToMinorError = Object.freeze({ error: 'currency' });
const PRECISION_ERROR: ToMinorError = Object.freeze({ error: 'precision' });

/**
 * Parses an AMT string into integer minor units of `currency`, using string arithmetic only.
 *
 * Decimals beyond the currency's exponent must be zeros (`JPY 100.00` → 100, `JPY 100.50` → precision error);
 * missing decimals are padded (`BHD 12.35` → 12350). Unknown currencies and currencies without a minor unit
 * (ISO "N.A.", e.g. XAU) give a `currency` error.
 */
export function toMinor(amount: string, currency: string): Minor | ToMinorError {
  if (!isAmt(amount)) return FORMAT_ERROR;
  const exponent = exponentOf(currency);
  if (exponent === undefined) return CURRENCY_ERROR;

  const dot = amount.indexOf('.');
  const integer = dot === -1 ? amount : amount.slice(0, dot);
  let fraction = dot === -1 ? '' : amount.slice(dot + 1);
  if (fraction.length > exponent) {
    if (/[^0]/.test(fraction.slice(exponent))) return PRECISION_ERROR;
    fraction = fraction.slice(0, exponent);
  }
  // At most 10 + 4 digits: always a safe integer, and Number() of a digit string is exact.
  return Number(integer + fraction.padEnd(exponent, '0')) as Minor;
}

const POW10: readonly bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

function requireExponent(currency: string): number {
  const exponent = exponentOf(currency);
  if (exponent === undefined) throw new RangeError(`Unknown currency or no minor unit: ${currency}`);
  return exponent;
}

const MAX_DEC2_CENTS = 999_999_999_999n; // 9999999999.99

/**
 * Formats minor units of `currency` as DEC2 (always exactly two decimals: JPY 100 → `"100.00"`,
 * EUR 9200 → `"92.00"`, BHD 12350 → `"12.35"`).
 *
 * Throws `RangeError` rather than rounding when the value is not representable as DEC2: a 3/4-exponent
 * amount with non-zero digits beyond the second decimal (BHD 12345), a negative amount, more than 10 integer
 * digits, an unsafe integer, or an unknown currency.
 */
export function fromMinor(minor: Minor, currency: string): string {
  const exponent = requireExponent(currency);
  let cents = BigInt(asMinor(minor));
  if (exponent <= 2) {
    cents *= pow10(2 - exponent);
  } else {
    const divisor = pow10(exponent - 2);
    if (cents % divisor !== 0n) {
      throw new RangeError(`${minor} ${currency} minor units are not representable with two decimals`);
    }
    cents /= divisor;
  }
  if (cents < 0n || cents > MAX_DEC2_CENTS) {
    throw new RangeError(`${minor} ${currency} minor units are outside the DEC2 range`);
  }
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function toBigInt(value: bigint | number, name: string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value))
    throw new RangeError(`${name} must be a safe integer or bigint: ${value}`);
  return BigInt(value);
}

const ROUNDING_MODES: ReadonlySet<string> = new Set<RoundingMode>(['halfEven', 'halfUp', 'floor', 'ceil']);

/**
 * Exact rational rounding: `numerator / denominator` rounded to an integer with `mode`.
 * `halfEven` rounds ties to the even neighbour, `halfUp` rounds ties away from zero, `floor`/`ceil` round
 * towards negative/positive infinity. Throws `RangeError` for a zero denominator or non-integer numbers.
 */
export function roundDiv(
  numerator: bigint | number,
  denominator: bigint | number,
  mode: RoundingMode,
): bigint {
  let n = toBigInt(numerator, 'numerator');
  let d = toBigInt(denominator, 'denominator');
  if (!ROUNDING_MODES.has(mode)) throw new RangeError(`Unknown rounding mode: ${String(mode)}`);
  if (d === 0n) throw new RangeError('Division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncated towards zero
  const r = n % d; // same sign as n
  if (r === 0n) return q;
  const away = n < 0n ? q - 1n : q + 1n;
  switch (mode) {
    case 'floor':
      return n < 0n ? away : q;
    case 'ceil':
      return n > 0n ? away : q;
    default: {
      // halfUp / halfEven
      const twice = 2n * (r < 0n ? -r : r);
      if (twice > d) return away;
      if (twice < d) return q;
      if (mode === 'halfUp') return away;
      return q % 2n === 0n ? q : away;
    }
  }
}

/** `roundDiv` returning a `Minor`; throws `RangeError` if the result is not a safe integer. */
export function roundMinor(
  numerator: bigint | number,
  denominator: bigint | number,
  mode: RoundingMode,
): Minor {
  return asMinor(roundDiv(numerator, denominator, mode));
}

/**
 * Converts `minor` units of `currencyFrom` into minor units of `currencyTo` at `rate` (units of
 * `currencyTo` per one unit of `currencyFrom`, as a decimal string such as `"1.0873"`), exactly with bigint
 * arithmetic and a single explicit rounding step. Throws `RangeError` for an invalid or zero rate, an
 * unknown currency, or a result that is not a safe integer.
 */
export function applyRate(
  minor: Minor,
  currencyFrom: string,
  rate: string,
  currencyTo: string,
  mode: RoundingMode,
): Minor {
  const fromExponent = requireExponent(currencyFrom);
  const toExponent = requireExponent(currencyTo);
  if (typeof rate !== 'string' || !RATE_PATTERN.test(rate)) throw new RangeError(`Invalid rate: ${rate}`);
  const dot = rate.indexOf('.');
  const rateDigits = dot === -1 ? rate : rate.slice(0, dot) + rate.slice(dot + 1);
  const rateScale = dot === -1 ? 0 : rate.length - dot - 1;
  const rateUnits = BigInt(rateDigits);
  if (rateUnits === 0n) throw new RangeError(`Rate must be positive: ${rate}`);
  // minor / 10^fromExp major units * rateUnits / 10^rateScale * 10^toExp target minor units.
  const numerator = BigInt(asMinor(minor)) * rateUnits * pow10(toExponent);
  const denominator = pow10(rateScale + fromExponent);
  return roundMinor(numerator, denominator, mode);
}

/** `a + b`; throws `RangeError` if an operand or the result is not a safe integer. */
export function addMinor(a: Minor, b: Minor): Minor {
  return asMinor(asMinor(a) + asMinor(b));
}

/** `a - b`; throws `RangeError` if an operand or the result is not a safe integer. */
export function subMinor(a: Minor, b: Minor): Minor {
  return asMinor(asMinor(a) - asMinor(b));
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. Throws `RangeError` for unsafe operands. */
export function compareMinor(a: Minor, b: Minor): -1 | 0 | 1 {
  const x = asMinor(a);
  const y = asMinor(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
