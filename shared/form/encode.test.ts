import { describe, expect, it } from 'vitest';
import { decodeForm } from './decode';
import { encodeForm } from './encode';

const lists = (path: string) => (path === 'cart.items' ? 1000 : undefined);

describe('encodeForm', () => {
  it('round-trips through decodeForm', () => {
    const body =
      'amount=12.50&card.holder=Jane%20Jones&cart.items[0].name=A%26B&cart.items[1].name=C&customParameters[SHOPPER_x]=1';
    const decoded = decodeForm(body, { lists });
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const encoded = encodeForm(decoded.tree, (path) => path === 'customParameters');
    expect(encoded).toBe(body);
    const again = decodeForm(encoded, { lists });
    expect(again.ok && again.tree).toEqual(decoded.tree);
  });
});
