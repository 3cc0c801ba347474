/**
 * parameterErrors, as the decisions give them: one entry per bad parameter, all reported at
 * once, `{name, value, message}`, with card numbers, security codes and tokens masked in `value`.
 */
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
 * The value as it may be shown back to the client or written to a log. Known sensitive fields
 * follow their mask. Anything else still has long digit runs masked, whether or not they pass
 * Luhn, since a card number may sit next to other digits or under a mistyped name (`card.numbr`):
 * an error message loses little by it, and a leaked PAN cannot be taken back.
 */
export function maskValue(value: string, mask?: Mask): string {
  if (mask === 'secret') return '***';
  if (mask === 'pan') {
    const digits = value.replace(/\D/g, '');
    return digits.length === value.length ? maskDigits(digits) : '***';
  }
  return value.replace(LONG_DIGITS, (run) => maskDigits(run.replace(/\D/g, '')));
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
