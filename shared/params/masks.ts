/**
 * Which wire names carry secrets, across the whole catalogue. A request kind that does not accept
 * card data still must not echo a card number someone sent it, so masks are looked up here by
 * name, whatever the kind.
 */
import { SECTIONS } from './catalogue';
import type { Mask, Node } from './nodes';

const masks = new Map<string, Mask>();

function collect(node: Node, path: string): void {
  if (node.kind === 'leaf') {
    if (node.mask !== undefined) masks.set(path, node.mask);
  } else if (node.kind === 'group') {
    for (const [name, child] of Object.entries(node.fields))
      collect(child, path === '' ? name : `${path}.${name}`);
  } else if (node.kind === 'list') {
    collect(node.item, path);
  }
}
for (const { group } of Object.values(SECTIONS)) collect(group, '');

/**
 * The wire names whose values are account numbers (mask `account`): `bankAccount.iban`,
 * `bankAccount.number`, `sender.accountNumber`, `recipient.accountNumber`. Storage seals the
 * values under these names wherever they rest (shared/sealing/account-data.ts).
 */
export const ACCOUNT_NAMES: readonly string[] = [...masks]
  .filter(([, mask]) => mask === 'account')
  .map(([name]) => name);

/**
 * The mask of a wire name such as `card.cvv` or `cart.items[2].name`, if the catalogue gives one.
 * A bracket may also spell a field (`card[cvv]`), so both readings are tried.
 */
export function maskOf(name: string): Mask | undefined {
  // Without a bracket both readings are the name itself (every echoed and validated leaf's name).
  if (!name.includes('[')) return masks.get(name);
  return (
    masks.get(name.replace(/\[[^\]]*\]/g, '')) ??
    masks.get(name.replace(/\[(\d+)\]/g, '').replace(/\[([^\]]*)\]/g, '.$1'))
  );
}

/** The mask of a value shown back in an error: the catalogue's, else the loose reading below. */
export const errorMaskOf = (name: string): Mask | undefined => maskOf(name) ?? looseMaskOf(name);

/** Masked wire names by their last two words, lower case: `card.cvv`, `bankaccount.iban` … */
const byTail = new Map<string, Mask>();
for (const [path, mask] of masks) byTail.set(path.toLowerCase().split('.').slice(-2).join('.'), mask);

/**
 * A name that is not the catalogue's (malformed, mistyped case, stray dots or brackets:
 * `.card.cvv`, `CARD[CVV`, `card..cvv`) is still masked when its last two words are a masked
 * field's, or when its last word says it holds a secret: such a value is echoed in the error
 * that names the bad parameter, and a security code must never come back.
 */
function looseMaskOf(name: string): Mask | undefined {
  const words = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const tail = byTail.get(words.slice(-2).join('.'));
  if (tail !== undefined) return tail;
  const last = words.at(-1) ?? '';
  return /cvv|cvc|pin|password|secret|token/.test(last) ? 'secret' : undefined;
}
