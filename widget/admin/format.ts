/**
 * Dates and amounts in the browser's locale (Intl). Amounts stay decimal strings: Intl formats a
 * numeric string exactly (ECMA-402's string operands), so no amount is ever a float here.
 */

// One time base for every date on screen: the gateway's (its records, and its test clock, are
// UTC instants), labelled, so that a date never reads as the browser's local time.
const dateTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'long',
  timeZone: 'UTC',
});
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** An ISO timestamp in the browser's locale, in UTC with its label; '—' for none. */
export function formatDate(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A day (`YYYY-MM-DD`, a settlement's) in the browser's locale. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dateOnly.format(date);
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** `"12.50"`, `"EUR"` → `€12.50` (or `12,50 €`…, by locale); what is not a decimal is shown as sent. */
export function formatAmount(amount: string | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  if (!DECIMAL.test(amount)) return `${amount} ${currency ?? ''}`.trim();
  try {
    const format = new Intl.NumberFormat(undefined, {
      style: currency ? 'currency' : 'decimal',
      ...(currency ? { currency } : {}),
      maximumFractionDigits: 20,
    });
    // A string operand is formatted exactly (Intl.NumberFormat v3); the type says number.
    return format.format(amount as unknown as number);
  } catch {
    return `${amount} ${currency ?? ''}`.trim();
  }
}

/** An amount as an operator may type it: digits, an optional dot and decimals. */
export const isAmount = (text: string) => /^\d{1,10}(\.\d{1,3})?$/.test(text.trim());

/** What a field of several values holds, split at spaces and commas (`VISA, MASTER` → both). */
export const listOf = (text: string): string[] => text.split(/[\s,]+/).filter((item) => item !== '');
