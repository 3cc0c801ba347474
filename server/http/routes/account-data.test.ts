/**
 * Security: a payment is only ever decided with the account data its payment method needs
 * (decisions, "Payment methods and environments"). A brand the gateway does not know is refused
 * with 600.200.100; a known brand without its account data gets 400 (200.300.404) naming every
 * missing parameter. Every entry point: server-to-server payments and registrations, and the
 * checkout's submissions, which need no credentials. Positive controls: card, SEPA, a redirect
 * brand, a wallet token, PREPAYMENT, MADA with its card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parameterErrorNames as names } from '../../test-kit/answers';
import { BANK_ACCOUNT_FIELDS } from '../../test-kit/fixtures/bank-accounts';
import { CARD_FIELDS } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const SHOP = 'https://shop.example/return';
const CARD = { ...CARD_FIELDS, 'card.cvv': '987' } as const;
/** A MADA card (BIN 446404, co-badged with Visa). */
const MADA_CARD = { ...CARD, 'card.number': '4464040000000007' } as const;

/** Brands the gateway does not know: none of them is in the brand registry. */
const UNKNOWN = ['FOOBAR', 'APPLEPAY', 'NOPAY', 'INVOICE'] as const;

/** Each known method family without its data, and the parameters the 400 must name. */
const MISSING: readonly (readonly [brand: string, names: readonly string[]])[] = [
  ['VISA', ['card.expiryMonth', 'card.expiryYear', 'card.number']],
  ['MADA', ['card.expiryMonth', 'card.expiryYear', 'card.number']],
  ['DIRECTDEBIT_SEPA', ['bankAccount.bic', 'bankAccount.holder', 'bankAccount.iban']],
  ['VIRTUAL_ACCOUNT', ['virtualAccount.accountId']],
  ['WALLETA', ['walletA.paymentToken']],
  ['GIFTCARD', ['giftCard.number', 'giftCard.pin']],
];

function expectUnknownBrand(res: TestResponse): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.result).toEqual({ code: '600.200.100', description: 'invalid Payment Method' });
}

describe('account data: nothing is decided without it (SQLite)', () => {
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway({ pending: { autoStart: false }, notifier: { autoStart: false } });
    // with the merchant's bank account, which PREPAYMENT needs (a channel without one: 600.200.201)
    m = await gw.addMerchant({
      channels: 1,
      settings: {
        bankAccount: { holder: 'Shop One GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
      },
    });
  });
  afterAll(() => gw?.cleanup());

  const pay = (params: Record<string, string>) =>
    gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...params },
      { token: m.token },
    );
  const register = (params: Record<string, string>) =>
    gw.post('/v1/registrations', { entityId: m.entityId, ...params }, { token: m.token });
  const MONEY = { amount: '92.00', currency: 'EUR', paymentType: 'DB' };
  const checkout = async (params: Record<string, string> = MONEY): Promise<string> => {
    const res = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, shopperResultUrl: SHOP, ...params },
      { token: m.token },
    );
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  };
  /** The widget's submission: no credentials. */
  const submit = (id: string, params: Record<string, string>, target = 'payment') =>
    gw.post(`/v1/checkouts/${id}/${target}`, params);
  const session = (id: string) => gw.get(`/v1/checkouts/${id}/session`);
  const status = (id: string, target = 'payment') =>
    gw.get(`/v1/checkouts/${id}/${target}`, { entityId: m.entityId }, { token: m.token });

  describe('POST /v1/payments', () => {
    it.each(UNKNOWN)('refuses the unknown brand %s without account data with 600.200.100', async (brand) => {
      expectUnknownBrand(await pay({ paymentBrand: brand }));
    });

    it('refuses an unknown brand with card data too (600.200.100, nothing charged)', async () => {
      const res = await pay({ paymentBrand: 'FOOBAR', ...CARD });
      expectUnknownBrand(res);
      expect(res.text).not.toContain('000.100.110');
    });

    it('masks a card number sent as the brand: neither answered nor kept in the payment', async () => {
      const res = await pay({ paymentBrand: '4200000000000000', ...CARD });
      expectUnknownBrand(res);
      expect(res.text).not.toContain('4200000000000000');
      const read = await gw.get(`/v1/payments/${res.body.id}`, { entityId: m.entityId }, { token: m.token });
      expect(read.body.result.code, read.text).toBe('600.200.100');
      expect(read.text).not.toContain('4200000000000000');
    });

    it.each(MISSING)('answers 400 naming what %s lacks', async (brand, missing) => {
      const res = await pay({ paymentBrand: brand });
      expect(res.status, res.text).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(names(res)).toEqual([...missing].sort());
      expect(res.body.id).toBeUndefined();
    });

    it('positive controls: card, MADA card, SEPA, redirect brand, prepayment', async () => {
      const card = await pay({ paymentBrand: 'VISA', ...CARD });
      expect(card.body.result.code, card.text).toBe('000.100.110');
      const mada = await pay({ paymentBrand: 'MADA', ...MADA_CARD });
      expect(mada.body.result.code, mada.text).toBe('000.100.110');
      expect(mada.body.paymentBrand).toBe('MADA');
      expect(mada.body.card).toMatchObject({ bin: '446404', last4Digits: '0007' });
      const sepa = await pay({ paymentBrand: 'DIRECTDEBIT_SEPA', ...BANK_ACCOUNT_FIELDS });
      expect(sepa.body.result.code, sepa.text).toBe('000.100.110');
      const paypal = await pay({ paymentBrand: 'PAYPAL', shopperResultUrl: SHOP });
      expect(paypal.status, paypal.text).toBe(200);
      expect(paypal.body.result.code).toBe('000.200.000');
      expect(paypal.body.redirect.url).toEqual(expect.any(String));
      const prepayment = await pay({ paymentBrand: 'PREPAYMENT' });
      expect(prepayment.status, prepayment.text).toBe(200);
    });

    it('MADA checks its card like any card brand: a number outside its ranges is declined', async () => {
      const res = await pay({ paymentBrand: 'MADA', ...CARD });
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('100.100.700');
    });

    it('positive control: a wallet token', async () => {
      const issued = await gw.post('/simulators/wallets/token', {
        wallet: 'walletA',
        card: 'visa',
        entityId: m.entityId,
      });
      expect(issued.status, issued.text).toBe(200);
      const res = await pay({ paymentBrand: 'WALLETA', 'walletA.paymentToken': issued.body.paymentToken });
      expect(res.body.result.code, res.text).toBe('000.100.110');
    });
  });

  describe('POST /v1/registrations', () => {
    it('refuses an unknown brand with 600.200.100 and stores nothing', async () => {
      const res = await register({ paymentBrand: 'FOOBAR' });
      expectUnknownBrand(res);
      expect(res.body.id).toBeUndefined();
    });

    it('answers 400 naming what a card brand lacks', async () => {
      const res = await register({ paymentBrand: 'VISA' });
      expect(res.status).toBe(400);
      expect(names(res)).toEqual(['card.expiryMonth', 'card.expiryYear', 'card.number']);
    });

    it.each(['PAYPAL', 'PREPAYMENT'])(
      'refuses to register %s, whose method carries no account data to keep (100.150.100)',
      async (brand) => {
        const res = await register({ paymentBrand: brand });
        expect(res.status, res.text).toBe(400);
        expect(res.body.result.code).toBe('100.150.100');
        expect(res.body.id).toBeUndefined();
      },
    );

    it('positive control: a card registration', async () => {
      const res = await register({ paymentBrand: 'VISA', ...CARD });
      expect(res.body.result.code, res.text).toBe('000.100.110');
    });
  });

  describe('checkout submissions (no credentials)', () => {
    it.each(UNKNOWN)('refuses the unknown brand %s and leaves the checkout unpaid', async (brand) => {
      const id = await checkout();
      expectUnknownBrand(await submit(id, { paymentBrand: brand }));
      expect((await session(id)).body.state).toBe('open');
      const read = await status(id);
      expect(read.body.result.code).not.toMatch(/^000\.(000|100)\./);
      expect(read.body.result.code).not.toBe('000.200.000');
      // The shopper can still pay with a card.
      const card = await submit(id, CARD);
      expect(card.body.result.code, card.text).toBe('000.100.110');
      expect((await session(id)).body.state).toBe('completed');
    });

    it.each(MISSING)(
      'answers 400 naming what %s lacks, and the checkout stays open',
      async (brand, missing) => {
        const id = await checkout();
        const res = await submit(id, { paymentBrand: brand });
        expect(res.status, res.text).toBe(400);
        expect(res.body.result.code).toBe('200.300.404');
        expect(names(res)).toEqual([...missing].sort());
        expect((await session(id)).body.state).toBe('open');
      },
    );

    it('refuses a submission of nothing at all (no brand, no data)', async () => {
      const id = await checkout();
      const res = await submit(id, {});
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect((await session(id)).body.state).toBe('open');
    });

    it('refuses an unknown brand at a registration checkout, which stays open', async () => {
      const id = await checkout({ createRegistration: 'true' });
      expectUnknownBrand(await submit(id, { paymentBrand: 'FOOBAR' }, 'registration'));
      expect((await session(id)).body.state).toBe('open');
    });

    it('positive controls: MADA card, redirect brand, SEPA', async () => {
      const mada = await submit(await checkout(), { paymentBrand: 'MADA', ...MADA_CARD });
      expect(mada.body.result.code, mada.text).toBe('000.100.110');
      const paypal = await submit(await checkout(), { paymentBrand: 'PAYPAL' });
      expect(paypal.body.result.code, paypal.text).toBe('000.200.000');
      const sepa = await submit(await checkout(), {
        paymentBrand: 'DIRECTDEBIT_SEPA',
        ...BANK_ACCOUNT_FIELDS,
      });
      expect(sepa.body.result.code, sepa.text).toBe('000.100.110');
    });
  });
});
