/**
 * The spec's payment response fields beyond the basics, through the HTTP API (test mode
 * INTERNAL): `brandResult` (the brand detected from the card number), `result.avsResponse`
 * decided from the billing address against the simulator's test address, `card.regulatedFlag`
 * from the simulated BIN table, `resultDetails.MerchantAdviceCode` on the simulated Mastercard
 * declines, and `merchant.bankAccount.*` on prepayment and bank-transfer payments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const CARD = {
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
} as const;
const VISA = { paymentBrand: 'VISA', 'card.number': '4200000000000000', ...CARD } as const;
const PAY = { amount: '12.50', currency: 'EUR', paymentType: 'DB' } as const;
/** The simulator's AVS test address (README, "Simulator behaviour"). */
const TEST_STREET = '1 Test Street';
const TEST_POSTCODE = 'TE1 2ST';
const ACCOUNT = { holder: 'Shop One GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };

describe('payment response fields', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  const pay = (params: Record<string, string>, entityId = m.entityId) =>
    gw.post('/v1/payments', { entityId, ...PAY, ...params }, { token: m.token });

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  describe('brandResult', () => {
    it('is the brand the card number belongs to, in the answer, the read and the query', async () => {
      const paid = await pay(VISA);
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.brandResult).toBe('VISA');
      const read = await gw.get(`/v1/payments/${paid.body.id}`, { entityId: m.entityId }, { token: m.token });
      expect(read.body.brandResult).toBe('VISA');
      const queried = await gw.get(`/v1/query/${paid.body.id}`, { entityId: m.entityId }, { token: m.token });
      expect(queried.body.brandResult).toBe('VISA');
    });

    it('names what the number says, also when the paymentBrand sent is another of its brands', async () => {
      const mastercard = await pay({ paymentBrand: 'MASTER', 'card.number': '5454545454545454', ...CARD });
      expect(mastercard.body.brandResult).toBe('MASTER');
      // a MADA card is co-badged on a Visa BIN: the payment is MADA, the detected brand the number's
      const mada = await pay({ paymentBrand: 'MADA', 'card.number': '4464040000000007', ...CARD });
      expect(mada.status, mada.text).toBe(200);
      expect(mada.body.paymentBrand).toBe('MADA');
      expect(mada.body.brandResult).toMatch(/^[A-Z]{1,16}$/);
    });

    it('is absent where there is no card number to detect it from', async () => {
      const sepa = await pay({
        paymentBrand: 'DIRECTDEBIT_SEPA',
        'bankAccount.holder': 'Max Mustermann',
        'bankAccount.iban': 'DE89370400440532013000',
        'bankAccount.bic': 'COBADEFFXXX',
      });
      expect(sepa.status, sepa.text).toBe(200);
      expect(sepa.body.brandResult).toBeUndefined();
    });
  });

  describe('result.avsResponse from billing.street1 and billing.postcode', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['both match: F', { 'billing.street1': TEST_STREET, 'billing.postcode': TEST_POSTCODE }, 'F'],
      [
        'case and spaces do not matter',
        { 'billing.street1': ' 1 test  STREET', 'billing.postcode': 'te1 2st' },
        'F',
      ],
      ['the postcode only: Z', { 'billing.street1': '2 Other Road', 'billing.postcode': TEST_POSTCODE }, 'Z'],
      ['a matching postcode without a street: Z', { 'billing.postcode': TEST_POSTCODE }, 'Z'],
      ['the street only: A', { 'billing.street1': TEST_STREET, 'billing.postcode': 'AB1 2CD' }, 'A'],
      ['neither: N', { 'billing.street1': '2 Other Road', 'billing.postcode': 'AB1 2CD' }, 'N'],
      ['a billing address without street or postcode: U', { 'billing.city': 'Testville' }, 'U'],
      ['no billing address: U', {}, 'U'],
    ];
    for (const [name, billing, letter] of cases) {
      it(name, async () => {
        const paid = await pay({ ...VISA, ...billing });
        expect(paid.status, paid.text).toBe(200);
        expect(paid.body.result.code).toBe('000.100.110');
        expect(paid.body.result.avsResponse).toBe(letter);
      });
    }

    it('is answered on a payment with a stored registration too', async () => {
      const reg = await gw.post('/v1/registrations', { entityId: m.entityId, ...VISA }, { token: m.token });
      expect(reg.status, reg.text).toBe(200);
      const paid = await gw.post(
        `/v1/registrations/${reg.body.id}/payments`,
        { entityId: m.entityId, ...PAY, 'billing.street1': TEST_STREET, 'billing.postcode': 'XX9 9XX' },
        { token: m.token },
      );
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.result.avsResponse).toBe('A');
    });
  });

  describe('card.regulatedFlag from the simulated BIN table', () => {
    it('is "Y" for the regulated debit BIN, "N" for the others (the family writes it so), absent for unknown BINs', async () => {
      const regulated = await pay({ paymentBrand: 'MASTER', 'card.number': '5100000000000008', ...CARD });
      expect(regulated.status, regulated.text).toBe(200);
      expect(regulated.body.card).toMatchObject({ bin: '510000', type: 'DEBIT', regulatedFlag: 'Y' });
      const visa = await pay(VISA);
      expect(visa.body.card).toMatchObject({ bin: '420000', regulatedFlag: 'N' });
      const exempt = await pay({ paymentBrand: 'VISA', 'card.number': '4012001037141112', ...CARD });
      expect(exempt.body.card).toMatchObject({ bin: '401200', type: 'DEBIT', regulatedFlag: 'N' });
      const unknown = await pay({ paymentBrand: 'VISA', 'card.number': '4111111111111111', ...CARD });
      expect(unknown.status, unknown.text).toBe(200);
      expect(unknown.body.card.regulatedFlag).toBeUndefined();
    });
  });

  describe('resultDetails.MerchantAdviceCode on Mastercard declines', () => {
    const declines: [string, string, string, string][] = [
      ['5100000000000016', '800.100.157', '54', '01'],
      ['5100000000000024', '800.100.176', '51', '02'],
      ['5100000000000032', '800.100.172', '62', '03'],
      ['5100000000000214', '800.100.197', '05', '21'],
    ];
    for (const [number, code, acquirer, advice] of declines) {
      it(`${number}: ${code} with advice code ${advice}`, async () => {
        const paid = await pay({ paymentBrand: 'MASTER', 'card.number': number, ...CARD });
        expect(paid.status, paid.text).toBe(400);
        expect(paid.body.result.code).toBe(code);
        expect(paid.body.resultDetails).toMatchObject({
          AcquirerResponse: acquirer,
          MerchantAdviceCode: advice,
        });
        const read = await gw.get(
          `/v1/payments/${paid.body.id}`,
          { entityId: m.entityId },
          { token: m.token },
        );
        expect(read.body.resultDetails.MerchantAdviceCode).toBe(advice);
      });
    }

    it('is absent on successes and on declines without a scheme advice', async () => {
      const ok = await pay({ paymentBrand: 'MASTER', 'card.number': '5454545454545454', ...CARD });
      expect(ok.body.resultDetails.MerchantAdviceCode).toBeUndefined();
      const visa = await pay({ ...VISA, 'card.number': '4000000000000002' });
      expect(visa.status).toBe(400);
      expect(visa.body.resultDetails.MerchantAdviceCode).toBeUndefined();
    });
  });

  describe("merchant.bankAccount: where the shopper transfers to (the channel's account)", () => {
    let channel: string;
    let noCountry: string;

    beforeAll(async () => {
      const configured = await gw.addMerchant({
        channels: 1,
        settings: { bankAccount: { ...ACCOUNT, country: 'DE' } },
      });
      channel = configured.entityId;
      const bare = await gw.addMerchant({ channels: 1, settings: { bankAccount: ACCOUNT } });
      noCountry = bare.entityId;
      tokens.set(channel, configured.token);
      tokens.set(noCountry, bare.token);
    });
    const tokens = new Map<string, string>();
    const payOn = (entityId: string, params: Record<string, string>) =>
      gw.post('/v1/payments', { entityId, ...PAY, ...params }, { token: tokens.get(entityId)! });

    it('is answered on a prepayment: holder, number (the IBAN), bic, country', async () => {
      const paid = await payOn(channel, { paymentBrand: 'PREPAYMENT' });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.merchant.bankAccount).toEqual({
        holder: 'Shop One GmbH',
        number: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        country: 'DE',
      });
    });

    it("is answered on a SEPA credit transfer (a bank transfer to the merchant's account)", async () => {
      const paid = await payOn(channel, {
        paymentBrand: 'SEPA',
        'bankAccount.holder': 'Max Mustermann',
        'bankAccount.iban': 'DE23100000001234567890',
        'bankAccount.bic': 'MARKDEF1100',
      });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.merchant.bankAccount).toMatchObject({
        number: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
      });
      // the shopper's own account is echoed beside it, unchanged
      expect(paid.body.bankAccount.iban).toBe('DE23100000001234567890');
    });

    it("takes the country from the IBAN when the channel's account names none", async () => {
      const paid = await payOn(noCountry, { paymentBrand: 'PREPAYMENT' });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.merchant.bankAccount.country).toBe('DE');
    });

    it('is not answered on a direct debit (the merchant collects) or a card payment', async () => {
      const debit = await payOn(channel, {
        paymentBrand: 'DIRECTDEBIT_SEPA',
        'bankAccount.holder': 'Max Mustermann',
        'bankAccount.iban': 'DE23100000001234567890',
        'bankAccount.bic': 'MARKDEF1100',
      });
      expect(debit.status, debit.text).toBe(200);
      expect(debit.body.merchant).toBeUndefined();
      const card = await payOn(channel, VISA);
      expect(card.body.merchant).toBeUndefined();
    });
  });
});
