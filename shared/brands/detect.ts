import { CARD_BRANDS, type CardBrand } from './card-brands';
import { type IinMatch, matchIin } from './iin';

/** Strips the spaces and hyphens people type between digit groups. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

const DIGITS = /^\d+$/;

interface Candidate {
  readonly brand: CardBrand;
  readonly match: IinMatch;
  readonly rank: number;
  readonly order: number;
}

/**
 * Card brands whose IIN ranges are compatible with a (possibly partial) card number.
 *
 * Spaces and hyphens are ignored; anything else that is not a digit, or no digits at all, gives [].
 * A range is compatible when the typed digits fall inside it or could still lead into it ('2' could
 * become MASTER 2221-2720). Order: most specific first (longest matched prefix), then the order of
 * `priority` (brands missing from it come after those listed), then complete matches before
 * still-possible ones, then the table order of CARD_BRANDS. `among`, when given, restricts the
 * result to those brands. Detection looks at the IIN only; lengths are checked by validateCardNumber.
 */
export function detectBrands(
  partialNumber: string,
  among?: readonly CardBrand[],
  priority?: readonly CardBrand[],
): CardBrand[] {
  const digits = normalizeCardNumber(partialNumber);
  if (!DIGITS.test(digits)) return [];
  const candidates: Candidate[] = [];
  for (let order = 0; order < CARD_BRANDS.length; order++) {
    const info = CARD_BRANDS[order]!;
    if (among && !among.includes(info.brand)) continue;
    const match = matchIin(digits, info.iin);
    if (!match) continue;
    const p = priority ? priority.indexOf(info.brand) : -1;
    candidates.push({ brand: info.brand, match, rank: p < 0 ? Number.MAX_SAFE_INTEGER : p, order });
  }
  candidates.sort(
    (a, b) =>
      b.match.matched - a.match.matched ||
      a.rank - b.rank ||
      Number(b.match.complete) - Number(a.match.complete) ||
      a.order - b.order,
  );
  return candidates.map((c) => c.brand);
}

/** The best brand for a (possibly partial) card number, per {@link detectBrands}. */
export function detectBrand(
  number: string,
  among?: readonly CardBrand[],
  priority?: readonly CardBrand[],
): CardBrand | undefined {
  return detectBrands(number, among, priority)[0];
}
