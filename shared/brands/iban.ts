/**
 * IBAN (ISO 13616) and BIC (ISO 9362) checks.
 */

/**
 * IBAN length per country, for all 89 countries in the SWIFT IBAN registry.
 * Territories that use another country's IBAN format (e.g. French overseas departments use FR)
 * are not listed separately.
 */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** Registered IBAN length for a country code, or undefined when the country has no IBAN. */
export function ibanLengthOf(country: string): number | undefined {
  return Object.hasOwn(IBAN_LENGTHS, country) ? IBAN_LENGTHS[country] : undefined;
}

export type IbanFailure = 'format' | 'country' | 'length' | 'checksum';
export type IbanCheck =
  | { ok: true; country: string; normalized: string }
  | { ok: false; reason: IbanFailure };

/** Uppercase, whitespace removed. */
export function normalizeIban(iban: string): string {
  return iban.replace(/\s/g, '').toUpperCase();
}

/** Two letters, two check digits, then an alphanumeric BBAN (an IBAN is at most 34 characters). */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/;

/**
 * ISO 7064 MOD 97-10 remainder of the IBAN with its first four characters moved to the end and
 * letters replaced by 10..35. Computed digit by digit on a small running remainder, so no bigint
 * and no long intermediate strings. `iban` must already match IBAN_SHAPE.
 */
function ibanMod97(iban: string): number {
  const n = iban.length;
  let r = 0;
  for (let k = 0; k < n; k++) {
    const c = iban.charCodeAt((k + 4) % n);
    // '0'..'9' are 48..57, 'A'..'Z' are 65..90 and stand for 10..35.
    r = c <= 57 ? (r * 10 + (c - 48)) % 97 : (r * 100 + (c - 55)) % 97;
  }
  return r;
}

/**
 * Validates an IBAN: shape, known country, that country's length, and the mod-97 checksum.
 * Whitespace is ignored and letters may be lowercase; `normalized` is uppercase without spaces.
 * Check digits 00, 01 and 99 never result from ISO 13616 and are rejected as 'checksum'.
 */
export function validateIban(iban: string): IbanCheck {
  const normalized = normalizeIban(iban);
  if (!IBAN_SHAPE.test(normalized)) return { ok: false, reason: 'format' };
  const country = normalized.slice(0, 2);
  const length = ibanLengthOf(country);
  if (length === undefined) return { ok: false, reason: 'country' };
  if (normalized.length !== length) return { ok: false, reason: 'length' };
  const check = normalized.slice(2, 4);
  if (check === '00' || check === '01' || check === '99' || ibanMod97(normalized) !== 1) {
    return { ok: false, reason: 'checksum' };
  }
  return { ok: true, country, normalized };
}

/**
 * Masks an IBAN for display and logs: country code, check digits and last 4 characters visible,
 * the rest '*'. Works on the normalized form; at most the first 4 characters of very short input
 * stay visible.
 */
export function maskIban(iban: string): string {
  const s = normalizeIban(iban);
  const n = s.length;
  if (n <= 8) return s.slice(0, 4) + '*'.repeat(Math.max(0, n - 4));
  return s.slice(0, 4) + '*'.repeat(n - 8) + s.slice(-4);
}

/**
 * Where the national bank code (bank identifier) sits in the BBAN of the SEPA countries' IBANs,
 * as [offset, length] (ISO 13616 registry). The spec asks for `bankAccount.bankCode` or
 * `bankAccount.bic` with every bank account; SEPA shoppers know only their IBAN, so a payment
 * form sends the bank code read from it.
 */
const BANK_CODE: Readonly<Record<string, readonly [number, number]>> = {
  AD: [0, 4],
  AT: [0, 5],
  BE: [0, 3],
  BG: [0, 4],
  CH: [0, 5],
  CY: [0, 3],
  CZ: [0, 4],
  DE: [0, 8],
  DK: [0, 4],
  EE: [0, 2],
  ES: [0, 4],
  FI: [0, 3],
  FR: [0, 5],
  GB: [0, 4],
  GI: [0, 4],
  GR: [0, 3],
  HR: [0, 7],
  HU: [0, 3],
  IE: [0, 4],
  IS: [0, 4],
  // Italy and San Marino: a check letter (CIN), then the ABI code.
  IT: [1, 5],
  LI: [0, 5],
  LT: [0, 5],
  LU: [0, 3],
  LV: [0, 4],
  MC: [0, 5],
  MT: [0, 4],
  NL: [0, 4],
  NO: [0, 4],
  PL: [0, 8],
  PT: [0, 4],
  RO: [0, 4],
  SE: [0, 3],
  SI: [0, 5],
  SK: [0, 4],
  SM: [1, 5],
  VA: [0, 3],
};

/** The bank code inside a valid IBAN of a SEPA country (DE89370400440532013000 → 37040044). */
export function ibanBankCode(iban: string): string | undefined {
  const checked = validateIban(iban);
  if (!checked.ok || !Object.hasOwn(BANK_CODE, checked.country)) return undefined;
  const [offset, length] = BANK_CODE[checked.country]!;
  return checked.normalized.slice(4 + offset, 4 + offset + length);
}

/** 4 letters bank code, 2 letters country, 2 alphanumeric location, optional 3 alphanumeric branch. */
const BIC_SHAPE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/** True for an 8 or 11 character BIC. Case-insensitive; no whitespace allowed. */
export function validateBic(bic: string): boolean {
  return BIC_SHAPE.test(bic.toUpperCase());
}
