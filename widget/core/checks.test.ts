import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billing } from '../../shared/params/catalogue/customer';
import { bankAccount, card, giftCard, virtualAccount } from '../../shared/params/catalogue/instruments';
import { checkFormat } from '../../shared/params/formats';
import type { Group, Leaf } from '../../shared/params/nodes';
import { checkText, FORMATS } from './checks';

const leaf = (root: Group, path: string): Leaf => {
  let node: Group | Leaf = root;
  for (const part of path.split('.')) node = (node as Group).fields[part] as Group | Leaf;
  return node as Leaf;
};

describe('widget field checks', () => {
  it('use the formats of the parameter catalogue', () => {
    const groups: Record<string, Group> = {
      card,
      bankAccount,
      virtualAccount,
      giftCard,
      billing,
    } as unknown as Record<string, Group>;
    for (const [parameter, format] of Object.entries(FORMATS)) {
      const root = groups[parameter.split('.')[0]!]!;
      expect(leaf(root, parameter).format, parameter).toEqual(format);
    }
  });

  it('give the same verdict as the gateway’s checkFormat', () => {
    const samples = fc.oneof(
      fc.string({ maxLength: 140 }),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom(
        'Jane Jones',
        "O'Brien-Smith",
        'Zoë Ångström',
        'J. R.',
        'Jo',
        '800.100.151',
        'a\u0301b',
      ),
    );
    fc.assert(
      fc.property(samples, (value) => {
        for (const format of Object.values(FORMATS)) {
          expect(checkText(format, value)).toBe(checkFormat(format, value) === undefined);
        }
      }),
      { numRuns: 500 },
    );
  });
});
