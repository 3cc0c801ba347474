/**
 * Every brand of the payment-method catalogue (shared/brands/catalogue.ts) through the public HTTP
 * API: one accepted and one refused payment each, and an unknown brand refused with 600.200.100.
 * Card brands pay with their test number (in their own IIN ranges) and are declined with a number
 * of another brand; brands with account data get HTTP 400 naming it when it is missing; brands
 * that take none (redirects, PREPAYMENT) refuse account data they cannot use. Then the Query API
 * finds each payment by its method code (`paymentMethods`), the code following from its brand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DATA,
  type BrandDef,
  brandMethod,
  type CardBrand,
  isCardBrand,
  listBrands,
  METHOD_CODES,
  PAYMENT_BRANDS,
} from '../../../shared/brands';
import { parameterErrorNames as names } from '../../test-kit/answers';
import { testNumberOf } from '../../test-kit/fixtures/card-numbers';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const CARD_REST = {
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
} as const;
const cardOf = (brand: CardBrand): Record<string, string> => ({
  'card.number': testNumberOf(brand),
  ...CARD_REST,
  'card.cvv': '1234'.slice(0, PAYMENT_BRANDS[brand].card.cvvLength),
});
const BANK = {
  'bankAccount.holder': 'Jane Jones',
  'bankAccount.iban': 'DE89370400440532013000',
  'bankAccount.bic': 'COBADEFFXXX',
} as const;

const MERCHANT_ACCOUNT = { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } as const;

const entries = listBrands().map(
  (brand) => [brand, PAYMENT_BRANDS[brand as keyof typeof PAYMENT_BRANDS] as BrandDef] as const,
);

describe('payment methods: every catalogue brand, accepted and refused (SQLite)', () => {
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway({ pending: { autoStart: false }, notifier: { autoStart: false } });
    // with the merchant's bank account, which PREPAYMENT needs (a channel without one: 600.200.201)
    m = await gw.addMerchant({
      channels: 1,
      settings: { bankAccount: { holder: 'Shop One GmbH', ...MERCHANT_ACCOUNT } },
    });
  });
  afterAll(() => gw?.cleanup());

  const pay = (params: Record<string, string>) =>
    gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...params },
      { token: m.token },
    );

  /** What an accepted payment of `brand` sends: its account data (none for redirects and PREPAYMENT). */
  async function accountData(brand: string, entry: BrandDef): Promise<Record<string, string>> {
    if (isCardBrand(brand)) return cardOf(brand);
    switch (entry.group) {
      case 'bankAccount':
        return BANK;
      case 'virtualAccount':
        return { 'virtualAccount.accountId': 'jane@example.com' };
      case 'giftCard':
        return { 'giftCard.number': 'GIFT-6006491234567890', 'giftCard.pin': 'PIN-7' };
      case 'walletA':
      case 'walletB':
      case 'walletC': {
        const issued = await gw.post('/simulators/wallets/token', {
          wallet: entry.group,
          card: 'visa',
          entityId: m.entityId,
        });
        expect(issued.status, issued.text).toBe(200);
        return { [`${entry.group}.paymentToken`]: issued.body.paymentToken };
      }
      default:
        // Redirects take no account data, only where the shopper comes back to.
        return entry.flow === 'redirect' ? { shopperResultUrl: 'https://shop.example/return' } : {};
    }
  }

  it('covers every brand of the catalogue', () => {
    expect(entries.map(([b]) => b)).toEqual(Object.keys(PAYMENT_BRANDS));
  });

  it.each(entries)('%s: accepted with its account data', async (brand, entry) => {
    const res = await pay({ paymentBrand: brand, ...(await accountData(brand, entry)) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.paymentBrand).toBe(brand);
    if (entry.flow === 'redirect') {
      expect(res.body.result.code).toBe('000.200.000');
      expect(res.body.redirect.url).toEqual(expect.any(String));
    } else if (entry.flow === 'later' && !entry.toMerchantAccount) {
      // an invoice: pending until its provider accepts it (invoice-brands.test.ts)
      expect(res.body.result.code).toBe('000.200.000');
      expect(res.body.redirect).toBeUndefined();
    } else {
      expect(res.body.result.code).toBe('000.100.110');
    }
    if (isCardBrand(brand)) expect(res.body.card.bin).toBe(testNumberOf(brand).slice(0, 6));
  });

  it.each(entries)('%s: refused', async (brand, entry) => {
    if (isCardBrand(brand)) {
      // A number of another brand: declined by the card checks, nothing charged.
      const other: CardBrand = brand === 'AMEX' ? 'TROY' : 'AMEX';
      const res = await pay({ paymentBrand: brand, ...cardOf(other), 'card.cvv': '123' });
      expect(res.status, res.text).toBe(400);
      expect(res.body.result.code).toBe('100.100.700');
      // No card at all: 400 naming what the card method needs.
      const none = await pay({ paymentBrand: brand });
      expect(none.status, none.text).toBe(400);
      expect(names(none)).toEqual(['card.expiryMonth', 'card.expiryYear', 'card.number']);
    } else if (entry.group !== undefined && !entry.providerCollectsAccount) {
      const res = await pay({ paymentBrand: brand });
      expect(res.status, res.text).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(names(res)).toEqual(ACCOUNT_DATA[entry.group].map(([name]) => name).sort());
    } else {
      // A method that takes no account data (or whose provider collects it: PAYOLUTION_ELV)
      // refuses card data it cannot use.
      const res = await pay({ paymentBrand: brand, ...cardOf('VISA') });
      expect(res.status, res.text).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(names(res)).toContain('paymentBrand');
    }
  });

  it.each(['FOOBAR', 'APPLEPAY', 'INVOICE', 'VISADEBIT'])(
    'refuses the unknown brand %s with 600.200.100, even with card data',
    async (brand) => {
      for (const params of [{}, cardOf('VISA')]) {
        const res = await pay({ paymentBrand: brand, ...params });
        expect(res.status, res.text).toBe(400);
        expect(res.body.result).toEqual({ code: '600.200.100', description: 'invalid Payment Method' });
      }
    },
  );

  it('the Query API finds each payment by its method code', async () => {
    const order = 'order-payment-methods';
    const idsByMethod = new Map<string, string[]>(METHOD_CODES.map((code) => [code, []]));
    for (const [brand, entry] of entries) {
      const res = await pay({
        paymentBrand: brand,
        merchantTransactionId: order,
        ...(await accountData(brand, entry)),
      });
      expect(res.status, res.text).toBe(200);
      idsByMethod.get(brandMethod(brand)!)!.push(res.body.id);
    }
    const query = (paymentMethods: string) =>
      gw.get(
        '/v1/query',
        { entityId: m.entityId, merchantTransactionId: order, paymentMethods },
        { token: m.token },
      );
    for (const [code, ids] of idsByMethod) {
      const res = await query(code);
      // a method no brand of the order has: the family's 400 700.400.580 for an order search that finds nothing
      if (ids.length === 0) {
        expect(res.body.result.code, code).toBe('700.400.580');
        continue;
      }
      expect(res.status, res.text).toBe(200);
      expect(res.body.payments.map((p: { id: string }) => p.id).sort(), code).toEqual([...ids].sort());
    }
    // Codes combine; every brand's payment is found by some code.
    const all = await query(METHOD_CODES.join(','));
    expect(all.body.payments).toHaveLength(entries.length);
    // Each code that a brand has is found at least once (the codes without brands match nothing).
    expect([...idsByMethod].filter(([, ids]) => ids.length > 0).map(([code]) => code)).toEqual([
      'DD',
      'CT',
      'CC',
      'WA',
      'VA',
      'OT',
      'DC',
      'IV',
      'PP',
    ]);
  });
});
