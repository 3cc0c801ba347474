import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../server/test-kit/engine/memory-store';
import { listBrands, METHOD_CODES } from '../../brands';
import { asMinor } from '../../money';
import { QUERY_PAYMENT_METHODS } from '../../params/catalogue/lifecycle';
import type { Payment } from '../core/model';
import type { Store } from '../core/ports';
import { brandsOfMethods, paymentMethodOf, SEARCH_SCAN_LIMIT, searchPayments } from './query';

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
    expect(brandsOfMethods(new Set(['DD', 'PP']))).toEqual([
      'DIRECTDEBIT_SEPA',
      'PREPAYMENT',
      'PAYOLUTION_ELV',
      'BOLETO',
      'BRADESCO',
    ]);
    expect(brandsOfMethods(new Set(['CT', 'IV']))).toEqual([
      'SEPA',
      'KLARNA_PAYMENTS_PAYLATER',
      'KLARNA_INVOICE',
      'KLARNA_INSTALLMENTS',
      'PAYOLUTION_INVOICE',
      'PAYOLUTION_INS',
    ]);
    expect(brandsOfMethods(new Set(['DC']))).toEqual(['MAESTRO', 'MADA', 'VISAELECTRON', 'DANKORT', 'BCMC']);
    expect(brandsOfMethods(new Set(['UA', 'ET', 'NT', 'OD', 'RM']))).toEqual([]);
  });
});

describe('a search with linked transactions over many payments matching nothing', () => {
  it('reads at most SEARCH_SCAN_LIMIT + 1 of the searched payments, then refuses as too broad', async () => {
    const store = memoryStore();
    const start = Date.parse('2026-11-21T00:00:00.000Z');
    for (let i = 0; i < 3 * SEARCH_SCAN_LIMIT; i++) {
      const payment: Payment = {
        id: i.toString(16).padStart(32, '0'),
        merchantId: 'm',
        channelId: 'c',
        paymentType: 'DB',
        paymentBrand: 'VISA',
        amount: asMinor(100),
        currency: 'EUR',
        resultCode: '000.100.110',
        resultDescription: 'Request successfully processed',
        shortId: '1234.5678.9012',
        ndc: 'ndc',
        details: {},
        createdAt: new Date(start + i * 1000),
      };
      await store.insertPayment(payment);
    }
    let read = 0;
    const counting: Store = {
      ...store,
      queryPayments: async (q) => {
        const page = await store.queryPayments(q);
        read += page.length;
        return page;
      },
    };
    const outcome = await searchPayments({ store: counting }, { merchantId: 'm', channelIds: [] }, {
      date: { from: '2026-11-21 00:00:00', to: '2026-11-21 23:59:59' },
      paymentTypes: 'RF',
      includeLinkedTransactions: 'true',
    } as Parameters<typeof searchPayments>[2]);
    expect(outcome.kind).toBe('too-broad');
    expect(read).toBe(SEARCH_SCAN_LIMIT + 1);
  });
});
