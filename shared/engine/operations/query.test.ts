import { describe, expect, it } from 'vitest';
import { listBrands, METHOD_CODES } from '../../brands';
import { QUERY_PAYMENT_METHODS } from '../../params/catalogue/lifecycle';
import { brandsOfMethods, paymentMethodOf } from './query';

describe('payment methods of brands (the query API paymentMethods filter)', () => {
  it("takes each brand's method from the payment-method catalogue", () => {
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
      MAESTRO: 'DC',
      DIRECTDEBIT_SEPA: 'DD',
      SEPA: 'CT',
      PREPAYMENT: 'PP',
      VIRTUAL_ACCOUNT: 'VA',
      GIFTCARD: 'VA',
      WALLETA: 'WA',
      PAYPAL: 'WA',
      WALLETD_CONTINUE: 'WA',
    });
    expect(paymentMethodOf('NO_SUCH_BRAND')).toBeUndefined();
    expect(paymentMethodOf(undefined)).toBeUndefined();
  });

  it("knows the spec's method codes, in its order", () => {
    // the spec's list of paymentMethods values, as it prints them
    const spec = ['DD', 'CT', 'CC', 'WA', 'VA', 'UA', 'OT', 'DC', 'ET', 'NT', 'IV', 'PP', 'OD', 'RM'];
    expect(METHOD_CODES).toEqual(spec);
    expect([...QUERY_PAYMENT_METHODS]).toEqual(spec);
  });

  it('gives every known brand a method the spec lists', () => {
    for (const brand of listBrands()) {
      expect(QUERY_PAYMENT_METHODS as readonly string[]).toContain(paymentMethodOf(brand));
    }
  });

  it('turns methods into the brands to search for', () => {
    expect(brandsOfMethods(new Set(['DD', 'PP']))).toEqual(['DIRECTDEBIT_SEPA', 'PREPAYMENT']);
    expect(brandsOfMethods(new Set(['CT', 'IV']))).toEqual(['SEPA', 'KLARNA_PAYMENTS_PAYLATER']);
    expect(brandsOfMethods(new Set(['DC']))).toEqual(['MAESTRO', 'MADA', 'VISAELECTRON', 'DANKORT', 'BCMC']);
    expect(brandsOfMethods(new Set(['UA', 'ET', 'NT', 'OD', 'RM']))).toEqual([]);
  });
});
