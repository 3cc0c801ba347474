import { describe, expect, it } from 'vitest';
import { listBrands } from '../../brands';
import { QUERY_PAYMENT_METHODS } from '../../params/catalogue/lifecycle';
import { brandsOfMethods, paymentMethodOf } from './query';

describe('payment methods of brands (the query API paymentMethods filter)', () => {
  it('maps each brand kind to the family code, prepayment to PP', () => {
    expect(
      Object.fromEntries(
        [
          'VISA',
          'MAESTRO',
          'DIRECTDEBIT_SEPA',
          'SEPA',
          'PREPAYMENT',
          'VIRTUAL_ACCOUNT',
          'GIFTCARD',
          'WALLETA',
          'PAYPAL',
          'WALLETD_CONTINUE',
        ].map((b) => [b, paymentMethodOf(b)]),
      ),
    ).toEqual({
      VISA: 'CC',
      MAESTRO: 'CC',
      DIRECTDEBIT_SEPA: 'DD',
      SEPA: 'DD',
      PREPAYMENT: 'PP',
      VIRTUAL_ACCOUNT: 'VA',
      GIFTCARD: 'VA',
      WALLETA: 'WA',
      PAYPAL: 'OT',
      WALLETD_CONTINUE: 'OT',
    });
    expect(paymentMethodOf('NO_SUCH_BRAND')).toBeUndefined();
    expect(paymentMethodOf(undefined)).toBeUndefined();
  });

  it('gives every known brand a method the spec lists', () => {
    for (const brand of listBrands()) {
      expect(QUERY_PAYMENT_METHODS as readonly string[]).toContain(paymentMethodOf(brand));
    }
  });

  it('turns methods into the brands to search for', () => {
    expect(brandsOfMethods(new Set(['DD', 'PP']))).toEqual(['DIRECTDEBIT_SEPA', 'SEPA', 'PREPAYMENT']);
    expect(brandsOfMethods(new Set(['DC']))).toEqual([]);
  });
});
