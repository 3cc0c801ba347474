/** Amounts and rates of a settlement: checks of DEC2 amounts, ISO 4217 exponents, decimal rates. */
import { exponentOf, fromMinor, type Minor, RATE_PATTERN } from '../money';

export function fail(message: string): never {
  throw new RangeError(message);
}

export function requireExponent(currency: string): number {
  const exponent = exponentOf(currency);
  if (exponent === undefined) fail(`Unknown currency or no minor unit: ${currency}`);
  return exponent;
}

/** Minor units of one DEC2 step: 10^(exponent − 2), at least 1. */
export function dec2Quantum(currency: string): bigint {
  const exponent = requireExponent(currency);
  return exponent > 2 ? 10n ** BigInt(exponent - 2) : 1n;
}

/** Throws unless `minor` is a non-negative amount of `currency` writable as DEC2. */
export function checkDec2(minor: number, currency: string, name: string): void {
  if (!Number.isSafeInteger(minor) || minor < 0)
    fail(`${name} must be a non-negative safe integer: ${minor}`);
  try {
    fromMinor(minor as Minor, currency);
  } catch (error) {
    fail(`${name}: ${(error as Error).message}`);
  }
}

/** A decimal rate string as an exact rational `units / 10^scale`. */
export function parseRate(rate: string, currency: string): { units: bigint; scale: number } {
  if (typeof rate !== 'string' || !RATE_PATTERN.test(rate)) fail(`Invalid FX rate for ${currency}: ${rate}`);
  const dot = rate.indexOf('.');
  const units = BigInt(dot === -1 ? rate : rate.slice(0, dot) + rate.slice(dot + 1));
  if (units === 0n) fail(`FX rate for ${currency} must be positive: ${rate}`);
  return { units, scale: dot === -1 ? 0 : rate.length - dot - 1 };
}
