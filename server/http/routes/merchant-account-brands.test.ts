/**
 * Brands the shopper pays by transferring to the merchant's own account (the catalogue's
 * `toMerchantAccount`: PREPAYMENT, a SEPA credit transfer): their answers name that account as
 * `merchant.bankAccount`, and no other brand's does (a boleto is paid at a bank to the provider,
 * an invoice to the pay-later provider); on a channel without the account they are refused
 * (600.200.201) and the widget's checkout session does not offer them, so no button is drawn
 * that could only be refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueBrands, PAYMENT_BRANDS } from '../../../shared/brands';
import { IBAN } from '../../test-kit/fixtures/bank-accounts';
import { type TestGateway, type TestMerchant, testGateway, WORKERS_STOPPED } from '../../test-kit/gateway';

const ACCOUNT = { holder: 'Shop One GmbH', iban: IBAN, bic: 'COBADEFFXXX' } as const;
const TO_MERCHANT = catalogueBrands().filter((b) => 'toMerchantAccount' in PAYMENT_BRANDS[b]);

/** What an accepted payment of a brand without card, wallet or account-id data sends. */
const SHOPPER_ACCOUNT: Readonly<Record<string, Record<string, string>>> = {
  SEPA: {
    'bankAccount.holder': 'Max Mustermann',
    'bankAccount.iban': 'DE23100000001234567890',
    'bankAccount.bic': 'MARKDEF1100',
  },
};

describe('brands paid to the merchant’s account (HTTP)', () => {
  let gw: TestGateway;
  let withAccount: TestMerchant;
  let without: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway(WORKERS_STOPPED);
    withAccount = await gw.addMerchant({ channels: 1, settings: { bankAccount: ACCOUNT } });
    without = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  const pay = (m: TestMerchant, brand: string, currency = 'EUR') =>
    gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '120.00',
        currency,
        paymentType: 'DB',
        paymentBrand: brand,
        shopperResultUrl: 'https://shop.example/return',
        ...SHOPPER_ACCOUNT[brand],
      },
      { token: m.token },
    );

  it('are PREPAYMENT and SEPA (the credit transfer)', () => {
    expect(TO_MERCHANT).toEqual(['SEPA', 'PREPAYMENT']);
  });

  it.each(TO_MERCHANT)('%s answers the channel’s account as merchant.bankAccount', async (brand) => {
    const res = await pay(withAccount, brand);
    expect(res.status, res.text).toBe(200);
    expect(res.body.merchant.bankAccount).toEqual({
      holder: 'Shop One GmbH',
      number: IBAN,
      bic: 'COBADEFFXXX',
      country: IBAN.slice(0, 2),
    });
  });

  it.each(TO_MERCHANT)('%s is refused on a channel without an account: 600.200.201', async (brand) => {
    const res = await pay(without, brand);
    expect(res.status, res.text).toBe(400);
    expect(res.body.result.code).toBe('600.200.201');
    expect(res.body.merchant).toBeUndefined();
  });

  it.each(['BOLETO', 'BRADESCO', 'KLARNA_INVOICE', 'DIRECTDEBIT_SEPA'])(
    '%s (paid to someone else) answers no merchant.bankAccount, even on a channel with one',
    async (brand) => {
      const res =
        brand === 'DIRECTDEBIT_SEPA'
          ? await gw.post(
              '/v1/payments',
              {
                entityId: withAccount.entityId,
                amount: '120.00',
                currency: 'EUR',
                paymentType: 'DB',
                paymentBrand: brand,
                ...SHOPPER_ACCOUNT.SEPA,
              },
              { token: withAccount.token },
            )
          : await pay(withAccount, brand, brand === 'KLARNA_INVOICE' ? 'EUR' : 'BRL');
      expect(res.status, res.text).toBe(200);
      expect(res.body.merchant).toBeUndefined();
    },
  );

  describe('the checkout session offers them only where the account is', () => {
    const sessionBrands = async (m: TestMerchant) => {
      const created = await gw.post(
        '/v1/checkouts',
        { entityId: m.entityId, amount: '120.00', currency: 'EUR', paymentType: 'DB' },
        { token: m.token },
      );
      expect(created.status, created.text).toBe(200);
      const session = await gw.get(`/v1/checkouts/${created.body.id}/session`);
      expect(session.status, session.text).toBe(200);
      return session.body.brands as string[] | undefined;
    };

    it('a channel without an account that accepts every brand: all but those', async () => {
      const brands = await sessionBrands(without);
      expect(brands).toEqual(catalogueBrands().filter((b) => !TO_MERCHANT.includes(b)));
    });

    it('a channel without an account that lists PREPAYMENT: the list without it', async () => {
      const listed = await gw.addMerchant({
        channels: 1,
        settings: { brands: ['VISA', 'PREPAYMENT', 'SEPA'] },
      });
      expect(await sessionBrands(listed)).toEqual(['VISA']);
    });

    it('a channel with an account: offered (its list, or no list: every brand)', async () => {
      const listed = await gw.addMerchant({
        channels: 1,
        settings: { brands: ['VISA', 'PREPAYMENT'], bankAccount: ACCOUNT },
      });
      expect(await sessionBrands(listed)).toEqual(['VISA', 'PREPAYMENT']);
      expect(await sessionBrands(withAccount)).toBeUndefined();
    });
  });
});
