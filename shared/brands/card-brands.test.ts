import { describe, expect, it } from 'vitest';
import { CARD_BRANDS, cardBrandInfo, isCardBrand } from './card-brands';

describe('card brand table', () => {
  it('lists the supported brands in default detection order', () => {
    expect(CARD_BRANDS.map((b) => b.brand)).toEqual([
      'VISA',
      'MASTER',
      'AMEX',
      'DINERS',
      'DISCOVER',
      'JCB',
      'MAESTRO',
      'UNIONPAY',
      'MADA',
      'VISAELECTRON',
      'DANKORT',
      'CARTEBANCAIRE',
      'BCMC',
      'ELO',
      'HIPERCARD',
      'MIR',
      'RUPAY',
      'TROY',
    ]);
  });

  it.each(CARD_BRANDS.map((b) => [b.brand, b] as const))(
    '%s has well-formed IIN ranges and lengths',
    (_, b) => {
      expect(b.iin.length).toBeGreaterThan(0);
      for (const [low, high] of b.iin) {
        expect(low).toMatch(/^\d+$/);
        expect(high).toMatch(/^\d+$/);
        expect(low.length).toBe(high.length);
        expect(low <= high).toBe(true);
      }
      expect([...b.lengths].sort((x, y) => x - y)).toEqual(b.lengths);
      for (const n of b.lengths) {
        expect(n).toBeGreaterThanOrEqual(12);
        expect(n).toBeLessThanOrEqual(19);
      }
    },
  );

  it.each([
    ['VISA', [13, 16, 19], 3, true],
    ['MASTER', [16], 3, true],
    ['AMEX', [15], 4, true],
    ['DINERS', [14, 15, 16, 17, 18, 19], 3, true],
    ['DISCOVER', [16, 17, 18, 19], 3, true],
    ['JCB', [16, 17, 18, 19], 3, true],
    ['MAESTRO', [12, 13, 14, 15, 16, 17, 18, 19], 3, true],
    ['UNIONPAY', [16, 17, 18, 19], 3, false],
    ['MADA', [16], 3, true],
  ] as const)('%s: lengths %j, CVV %i, Luhn %s', (brand, lengths, cvv, luhn) => {
    const info = cardBrandInfo(brand);
    expect(info.lengths).toEqual(lengths);
    expect(info.cvvLength).toBe(cvv);
    expect(info.luhn).toBe(luhn);
    expect(info.cvvLabel).not.toBe('');
  });

  it('isCardBrand', () => {
    expect(isCardBrand('VISA')).toBe(true);
    expect(isCardBrand('visa')).toBe(false);
    expect(isCardBrand('DIRECTDEBIT_SEPA')).toBe(false);
    expect(isCardBrand('toString')).toBe(false);
  });
});
