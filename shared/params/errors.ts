/**
 * parameterErrors, as the decisions give them: one entry per bad parameter, all reported at
 * once, `{name, value, message}`, with card numbers, security codes, tokens, IBANs and bank
 * account numbers masked in `value`.
 */
import { maskIban, validateIban } from '../brands/iban';
import type { Mask } from './nodes';

export interface ParameterError {
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

/** A digit run that could hold a card number: 12 or more digits, possibly with spaces or hyphens. */
const LONG_DIGITS = /\d(?:[ -]?\d){11,}/g;

function maskDigits(digits: string): string {
  if (digits.length <= 10) return '*'.repeat(digits.length);
  return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
}

/**
 * An IBAN-shaped word: two letters, two digits, 11 to 30 letters or digits, written compact or
 * in groups of four. Masked only when it is a valid IBAN (country, length, checksum), so that
 * ordinary words and ids are left alone.
 */
export const IBAN_WORD =
  /\b[A-Za-z]{2}\d{2}(?:[A-Za-z0-9]{11,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,4})?)\b/g;

/** Every valid IBAN in a text, masked: country, check digits and the last four stay. */
export function maskIbans(text: string): string {
  if (!/\d/.test(text)) return text;
  return text.replace(IBAN_WORD, (word) => (validateIban(word).ok ? maskIban(word) : word));
}

/**
 * An account number or IBAN as it may be shown: an IBAN-shaped value keeps its country and
 * check digits and its last four characters; another account number only its last four, and
 * only when it has at least eight; anything that does not look like one is hidden whole.
 */
export function maskAccount(value: string): string {
  const compact = value.replace(/\s/g, '');
  if (!/^[A-Za-z0-9]+$/.test(compact)) return '***';
  if (/^[A-Za-z]{2}\d{2}[A-Za-z0-9]{11,30}$/.test(compact)) return maskIban(compact);
  return compact.length < 8 ? '*'.repeat(compact.length) : '*'.repeat(compact.length - 4) + compact.slice(-4);
}

/**
 * The value as it may be shown back to the client or written to a log. Known sensitive fields
 * follow their mask. Anything else still has long digit runs masked, whether or not they pass
 * Luhn, since a card number may sit next to other digits or under a mistyped name (`card.numbr`):
 * an error message loses little by it, and a leaked PAN cannot be taken back. Valid IBANs are
 * masked wherever they are, for the same reason (`bankAccount.ibn`, free text).
 */
export function maskValue(value: string, mask?: Mask): string {
  if (mask === 'secret') return '***';
  if (mask === 'pan') {
    const digits = value.replace(/\D/g, '');
    return digits.length === value.length ? maskDigits(digits) : '***';
  }
  if (mask === 'account') return maskAccount(value);
  return maskIbans(value).replace(LONG_DIGITS, (run) => maskDigits(run.replace(/\D/g, '')));
}

/** Keeps the first error per parameter name, in the order found. */
export function dedupe(errors: readonly ParameterError[]): ParameterError[] {
  const seen = new Set<string>();
  const out: ParameterError[] = [];
  for (const e of errors) {
    if (seen.has(e.name)) continue;
    seen.add(e.name);
    out.push(e);
  }
  return out;
}
