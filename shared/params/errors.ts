/**
 * parameterErrors, as the decisions give them: one entry per bad parameter, all reported at
 * once, `{name, value, message}`, with card numbers, security codes and tokens masked in `value`.
 */
import { luhnValid } from '../brands/luhn';
import type { Mask } from './nodes';

export interface ParameterError {
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

/** A digit run that could be a card number: 12 to 19 digits, possibly with spaces or hyphens. */
const PAN_LIKE = /(?:\d[ -]?){11,18}\d/g;

function maskDigits(digits: string): string {
  if (digits.length <= 10) return '*'.repeat(digits.length);
  return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
}

/**
 * The value as it may be shown back to the client or written to a log. Known sensitive fields
 * follow their mask; anything else still has card-number-like digit runs masked, so a PAN sent
 * under a mistyped name (`card.numbr`) is not echoed either.
 */
export function maskValue(value: string, mask?: Mask): string {
  if (mask === 'secret') return '***';
  if (mask === 'pan') {
    const digits = value.replace(/\D/g, '');
    return digits.length === value.length ? maskDigits(digits) : '***';
  }
  return value.replace(PAN_LIKE, (run) => {
    const digits = run.replace(/\D/g, '');
    return luhnValid(digits) ? maskDigits(digits) : run;
  });
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
