/**
 * The expiry field: one input `MM / YY` (autocomplete cc-exp), sent as card.expiryMonth and a
 * four-digit card.expiryYear.
 */
import { validateExpiry } from '../../../shared/brands';

/** As the shopper types: digits only, `MM / YY`; a leading 2-9 becomes `0d`; autofilled `MM/YYYY` shortens. */
export function formatExpiry(raw: string): string {
  let d = raw.replace(/\D/g, '');
  if (d.length === 6 && /^(19|20)$/.test(d.slice(2, 4))) d = d.slice(0, 2) + d.slice(4);
  d = d.slice(0, 4);
  if (d.length === 1 && d > '1') d = `0${d}`;
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

export function parseExpiry(value: string): { month: string; year: string } | undefined {
  const d = value.replace(/\D/g, '');
  if (d.length !== 4) return undefined;
  return { month: d.slice(0, 2), year: `20${d.slice(2)}` };
}

export type ExpiryProblem = 'format' | 'expired' | undefined;

export function checkExpiry(value: string, now: Date, rejectExpired: boolean): ExpiryProblem {
  const parsed = parseExpiry(value);
  if (parsed === undefined) return 'format';
  const verdict = validateExpiry(parsed.month, parsed.year, now);
  if (verdict === 'format') return 'format';
  return verdict === 'expired' && rejectExpired ? 'expired' : undefined;
}
