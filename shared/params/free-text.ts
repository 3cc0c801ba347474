/**
 * A card number a merchant (or a shop page) writes into free text (`descriptor`, `merchantMemo`,
 * `customParameters[…]`, a cart item's name or description …) is masked as soon as the request is
 * validated (shared/params/requests/parse.ts `validateRequest` calls `maskFreeText`), so that it
 * is never stored, answered, notified or logged in clear: PCI DSS v4 3.4.1 allows a PAN to be shown
 * only masked, and the gateway cannot tell the merchant's test note from a real card.
 *
 * Free text is every catalogue leaf of format AN without a mask of its own (card numbers, codes and
 * account numbers have theirs) whose name does not say it is an identifier or a number of its own
 * (`…Id`, `…Number`, `…Code`, `…Phone`, `sku` …: a merchant's numeric order id must pass unchanged), and every
 * value of a map of AN values (customParameters, risk.parameters). In it, a run of 13 to 19 digits,
 * written together or in groups separated by single spaces or hyphens, that passes Luhn keeps its
 * first six and last four digits: `order 4200000000000000` → `order 420000******0000`.
 */
import { luhnValid } from '../brands/luhn';
import { SECTIONS } from './catalogue';
import type { Node } from './nodes';

/**
 * The last word of a name that holds an identifier or a number of its own, not prose (a phone
 * number, a SKU or a booking reference may well be 13 digits that pass Luhn).
 */
const IDENTIFIER = /(?:id\d*|ids|num|number|reference|code|token|digit|phone|mobile|sku)$/i;
/** AN leaves that hold a value of their own, whatever their name. */
const NOT_TEXT = new Set(['customer.browserFingerprint.value']);

/** A digit run that may be a card number: 13 to 19 digits, single spaces or hyphens between groups. */
const CARD_RUN = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;

/** Dotted paths (list items without their index) of free-text leaves; maps as `path.*`. */
const FREE_TEXT = new Set<string>();
/** Every prefix of a free-text path: where the walk has anything to look for. */
const PREFIXES = new Set<string>();

function collect(node: Node, path: string): void {
  const last = path.slice(path.lastIndexOf('.') + 1);
  if (node.kind === 'leaf') {
    if (node.format.t === 'AN' && node.mask === undefined && !IDENTIFIER.test(last) && !NOT_TEXT.has(path))
      FREE_TEXT.add(path);
  } else if (node.kind === 'group') {
    for (const [name, child] of Object.entries(node.fields))
      collect(child, path === '' ? name : `${path}.${name}`);
  } else if (node.kind === 'list') {
    collect(node.item, path);
  } else if (typeof node.value !== 'function' && node.value.t === 'AN') {
    FREE_TEXT.add(`${path}.*`);
  }
}
for (const { group } of Object.values(SECTIONS)) collect(group, '');
for (const path of FREE_TEXT) {
  const words = path.split('.');
  for (let i = 1; i < words.length; i++) PREFIXES.add(words.slice(0, i).join('.'));
}

/** The text with each Luhn-valid card-number run masked (first six, last four); the same string when none. */
export function maskCardNumbers(text: string): string {
  if (text.length < 13) return text;
  return text.replace(CARD_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    if (!luhnValid(digits)) return run;
    return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
  });
}

type Tree = { readonly [key: string]: unknown };

function walk(value: unknown, path: string, inMap: boolean): unknown {
  if (typeof value === 'string') return inMap || FREE_TEXT.has(path) ? maskCardNumbers(value) : value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = walk(value[i], path, inMap);
      if (next === value[i]) continue;
      out ??= [...value];
      out[i] = next;
    }
    return out ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  const map = inMap || FREE_TEXT.has(`${path}.*`);
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const child = path === '' ? key : `${path}.${key}`;
    // only where a free-text leaf can be: most of a request is skipped at its top level
    if (!map && !FREE_TEXT.has(child) && !PREFIXES.has(child)) continue;
    const before = (value as Tree)[key];
    const next = walk(before, child, map);
    if (next === before) continue;
    out ??= { ...(value as Tree) };
    out[key] = next;
  }
  return out ?? value;
}

/**
 * The validated request with card numbers masked in its free text; the very same object when
 * there was none (nearly every request), copied only along the changed path otherwise.
 */
export function maskFreeText<T>(request: T): T {
  return walk(request, '', false) as T;
}

/** The free-text names (for the docs and tests): dotted, list items without index, maps as `.*`. */
export const freeTextNames = (): readonly string[] => [...FREE_TEXT].sort();
