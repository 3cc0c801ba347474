import type { IinRange } from './card-brands';

/** How a (possibly partial) card number relates to a set of IIN ranges. */
export interface IinMatch {
  /** Number of leading digits that matched: the range's prefix length, or fewer while typing. */
  readonly matched: number;
  /** True when all of the range's prefix digits are present and inside the range. */
  readonly complete: boolean;
}

/** Compares the first `n` characters of two strings; both must be at least `n` long. */
function comparePrefix(a: string, b: string, n: number): number {
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Best match of `digits` against `ranges`. A range of prefix length L matches when the first
 * min(L, digits.length) digits lie between the same-length prefixes of its bounds, i.e. when
 * the digits are inside the range or could still lead into it. The most specific match wins
 * (most digits matched, then complete over still-possible). Undefined when no range fits or
 * `digits` is empty. `digits` must contain only digits.
 */
export function matchIin(digits: string, ranges: readonly IinRange[]): IinMatch | undefined {
  let best: IinMatch | undefined;
  for (const [low, high] of ranges) {
    const len = low.length;
    const n = Math.min(digits.length, len);
    if (n === 0) continue;
    if (comparePrefix(digits, low, n) < 0 || comparePrefix(digits, high, n) > 0) continue;
    const complete = n === len;
    if (!best || n > best.matched || (n === best.matched && complete && !best.complete)) {
      best = { matched: n, complete };
    }
  }
  return best;
}

/** True when the full number `digits` falls inside one of `ranges`. */
export function inIinRanges(digits: string, ranges: readonly IinRange[]): boolean {
  return matchIin(digits, ranges)?.complete === true;
}
