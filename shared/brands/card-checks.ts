import { type CardBrand, type CardBrandInfo, cardBrandInfo } from './card-brands';
import { detectBrands, normalizeCardNumber } from './detect';
import { inIinRanges } from './iin';
import { luhnValid } from './luhn';

export type CardNumberFailure = 'format' | 'luhn' | 'length' | 'brand';
export type CardNumberCheck = { ok: true; brand: CardBrand } | { ok: false; reason: CardNumberFailure };

/** card.number format: N 8-32. */
const CARD_NUMBER = /^\d{8,32}$/;

function checkAgainst(digits: string, info: CardBrandInfo, anyLength: boolean): CardNumberCheck {
  if (!inIinRanges(digits, info.iin)) return { ok: false, reason: 'brand' };
  if (!anyLength && !info.lengths.includes(digits.length)) return { ok: false, reason: 'length' };
  if (info.luhn && !luhnValid(digits)) return { ok: false, reason: 'luhn' };
  return { ok: true, brand: info.brand };
}

/**
 * Validates a card number: format (digits only, 8-32; no spaces), then brand ranges, length and
 * Luhn. With `brand`, the number must fall in that brand's IIN ranges ('brand' otherwise). Without
 * it, the detected brands are tried most specific first and the first that passes wins; if none
 * passes, the failure of the most specific one is returned ('brand' when no brand matches at all).
 * `anyLength`: the brand's card lengths do not apply (a token account's number takes 12 to 19
 * digits whatever the brand, as the spec's tokenAccount.number says).
 */
export function validateCardNumber(number: string, brand?: CardBrand, anyLength = false): CardNumberCheck {
  if (!CARD_NUMBER.test(number)) return { ok: false, reason: 'format' };
  if (brand) return checkAgainst(number, cardBrandInfo(brand), anyLength);
  let first: CardNumberCheck | undefined;
  for (const candidate of detectBrands(number)) {
    const result = checkAgainst(number, cardBrandInfo(candidate), anyLength);
    if (result.ok) return result;
    first ??= result;
  }
  return first ?? { ok: false, reason: 'brand' };
}

export function cvvLengthOf(brand: CardBrand): 3 | 4 {
  return cardBrandInfo(brand).cvvLength;
}

/** True when `cvv` is exactly the brand's number of digits. */
export function validateCvv(cvv: string, brand: CardBrand): boolean {
  return cvv.length === cvvLengthOf(brand) && /^\d+$/.test(cvv);
}

export type ExpiryCheck = 'ok' | 'format' | 'expired';

/**
 * Checks card.expiryMonth (01-12) and card.expiryYear (4 digits, 19xx or 20xx). A card is valid
 * through the last day of its expiry month, compared in UTC.
 */
export function validateExpiry(month: string, year: string, now: Date): ExpiryCheck {
  if (!/^(0[1-9]|1[0-2])$/.test(month) || !/^(19|20)\d\d$/.test(year)) return 'format';
  const expiry = Number(year) * 12 + Number(month) - 1;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return expiry < current ? 'expired' : 'ok';
}

/** Shortest PAN for which the first six digits may be shown (the shortest card length, MAESTRO). */
const MIN_PAN_FOR_BIN = 12;

/**
 * Masks a card number for display and logs: first 6 and last 4 digits visible, the rest '*'.
 * Spaces and hyphens are dropped first. Numbers shorter than 12 digits keep only the last 4,
 * and numbers of 4 digits or fewer are masked entirely.
 */
export function maskPan(number: string): string {
  const digits = normalizeCardNumber(number);
  const n = digits.length;
  if (n <= 4) return '*'.repeat(n);
  if (n < MIN_PAN_FOR_BIN) return '*'.repeat(n - 4) + digits.slice(-4);
  return digits.slice(0, 6) + '*'.repeat(n - 10) + digits.slice(-4);
}

/** The leading `length` (default 6) digits of a card number, spaces and hyphens ignored. */
export function binOf(number: string, length = 6): string {
  return normalizeCardNumber(number).slice(0, length);
}

/** The last 4 digits of a card number, spaces and hyphens ignored. */
export function last4Of(number: string): string {
  return normalizeCardNumber(number).slice(-4);
}
