/**
 * POST /v1/payments with the instruments beyond plain cards (token accounts, virtual accounts,
 * gift cards), forex, the simulated issuer data of card responses, referenceUuid and the
 * deprecated recurring migration, end to end over HTTP on a SQLite gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const TOKEN = '4200000000000042';
const CRYPTOGRAM = 'AgAAAAAABk4DWZ4C28yUQAAAAAA=';
const DTVC = '8317';
const NETWORK_TOKEN = {
  paymentBrand: 'VISA',
  'tokenAccount.number': TOKEN,
  'tokenAccount.type': 'NETWORK',
  'tokenAccount.cryptogram': CRYPTOGRAM,
  'tokenAccount.dtvc': DTVC,
  'tokenAccount.expiryMonth': '05',
  'tokenAccount.expiryYear': '2034',
};
const GIFT_NUMBER = 'GIFT-6006491234567890';
const GIFT_PIN = 'PIN-735519';
const GIFT_CARD = {
  paymentBrand: 'GIFTCARD',
  'giftCard.number': GIFT_NUMBER,
  'giftCard.pin': GIFT_PIN,
  'giftCard.type': 'BIRTHDAY',
};
function expectParameterError(res: TestResponse, name: string): void {
  expect(res.status).toBe(400);
  expect(res.body.result.code).toBe('200.300.404');
  expect(res.body.result.parameterErrors).toEqual(
    expect.arrayContaining([expect.objectContaining({ name, message: expect.any(String) })]),
  );
}

describe('/v1/payments with other instruments over HTTP', () => {
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(async () => {
    await gw?.cleanup();
  });

  const pay = (params: Record<string, string>) =>
    gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '20.00', currency: 'EUR', paymentType: 'DB', ...params },
      { token: m.token },
    );

  describe('token accounts', () => {
    it('debits a network token, answering it masked as card bin and last4', async () => {
      const res = await pay(NETWORK_TOKEN);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.card).toMatchObject({
        bin: '420000',
        last4Digits: '0042',
        expiryMonth: '05',
        expiryYear: '2034',
      });
      expect(res.body.tokenAccount).toEqual({ type: 'NETWORK', expiryMonth: '05', expiryYear: '2034' });
      // DTVC is four digits, which an id may contain by chance: searched for as a JSON value.
      for (const secret of [TOKEN, CRYPTOGRAM, `"${DTVC}"`, 'cryptogram', 'dtvc']) {
        expect(res.text).not.toContain(secret);
      }
    });

    it('declines a token failing Luhn with 100.100.101, as cards are', async () => {
      const res = await pay({ ...NETWORK_TOKEN, 'tokenAccount.number': '4444444444444444' });
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('100.100.101');
      expect(res.text).not.toContain('4444444444444444');
    });

    it('declines an expired token with 100.100.303', async () => {
      const res = await pay({ ...NETWORK_TOKEN, 'tokenAccount.expiryYear': '2020' });
      expect(res.body.result.code).toBe('100.100.303');
    });

    it('refuses a NETWORK token without its cryptogram (400, tokenAccount.cryptogram)', async () => {
      const { 'tokenAccount.cryptogram': _, ...withoutCryptogram } = NETWORK_TOKEN;
      const res = await pay(withoutCryptogram);
      expectParameterError(res, 'tokenAccount.cryptogram');
      expect(res.text).not.toContain(TOKEN);
    });
  });

  describe('virtual accounts', () => {
    const VA = { paymentBrand: 'VIRTUAL_ACCOUNT', 'virtualAccount.accountId': 'jane.jones@example.com' };

    it('succeeds and echoes the account id', async () => {
      const res = await pay(VA);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.virtualAccount).toEqual({ accountId: 'jane.jones@example.com' });
    });

    it('declines with a forced code', async () => {
      const res = await pay({ ...VA, 'customParameters[forceResultCode]': '100.396.101' });
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('100.396.101');
    });

    it('refuses a brand the gateway does not know with 600.200.100 (invalid payment method)', async () => {
      const res = await pay({ ...VA, paymentBrand: 'NOPAY' });
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('600.200.100');
    });
  });

  describe('gift cards', () => {
    it('redeems a gift card with number and PIN, showing only the last four of the number', async () => {
      const res = await pay(GIFT_CARD);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.giftCard).toEqual({ type: 'BIRTHDAY', last4Digits: '7890' });
      expect(res.text).not.toContain(GIFT_PIN);
      expect(res.text).not.toContain(GIFT_NUMBER);
      expect(res.text).not.toContain('"pin"');
    });

    it('declines a gift card without its PIN with 100.100.101', async () => {
      const res = await pay({ paymentBrand: 'GIFTCARD', 'giftCard.number': GIFT_NUMBER });
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('100.100.101');
    });
  });

  describe('forex', () => {
    it('answers forex.amount as DEC2 in its currency', async () => {
      const res = await pay({ ...VISA_CARD, 'forex.amount': '2500', 'forex.currency': 'JPY' });
      expect(res.status).toBe(200);
      expect(res.body.forex).toEqual({ amount: '2500.00', currency: 'JPY' });
    });

    it('refuses a forex.amount finer than its currency (400 naming forex.amount)', async () => {
      const res = await pay({ ...VISA_CARD, 'forex.amount': '2500.50', 'forex.currency': 'JPY' });
      expectParameterError(res, 'forex.amount');
      expect(res.body.result.parameterErrors).toEqual([
        { name: 'forex.amount', value: '2500.50', message: 'has more decimals than JPY has (0)' },
      ]);
    });
  });

  describe('card responses', () => {
    it('carry the simulated issuer data: card.type, card.level, card.issuer', async () => {
      const res = await pay(VISA_CARD);
      const expected = {
        type: 'CREDIT',
        level: 'CLASSIC',
        issuer: {
          bank: 'Simulator Bank',
          phone: '+1 555 0100',
          website: 'https://simulator-bank.example',
        },
      };
      expect(res.body.card).toMatchObject(expected);
      // The status read answers them too: they come from the BIN, not from the first answer.
      const status = await gw.get(
        `/v1/payments/${res.body.id}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(status.body.card).toMatchObject(expected);
    });

    it('answer a DEBIT card as such', async () => {
      const res = await pay({
        ...VISA_CARD,
        paymentBrand: 'MASTER',
        'card.number': '5232105022907162',
        'card.cvv': '204',
      });
      expect(res.body.card).toMatchObject({ type: 'DEBIT', level: 'STANDARD' });
    });
  });

  describe('referenceUuid', () => {
    it('links a reauthorization to the original and charges its card', async () => {
      const original = await pay({ ...VISA_CARD, paymentType: 'PA' });
      expect(original.status).toBe(200);
      const reauth = await pay({
        paymentType: 'PA',
        amount: '25.00',
        referenceUuid: original.body.id,
        'standingInstruction.industryPractice': 'REAUTHORIZATION',
      });
      expect(reauth.status).toBe(200);
      expect(reauth.body).toMatchObject({
        result: { code: '000.100.110' },
        referencedId: original.body.id,
        paymentBrand: 'VISA',
        amount: '25.00',
        card: { bin: '420000', last4Digits: '0000' },
        standingInstruction: { industryPractice: 'REAUTHORIZATION' },
      });
      expect(reauth.body.id).not.toBe(original.body.id);
      // The original can still be reversed: the reauthorization is no capture or refund of it.
      const reversal = await gw.post(
        `/v1/payments/${original.body.id}`,
        { entityId: m.entityId, paymentType: 'RV' },
        { token: m.token },
      );
      expect(reversal.body.result.code).toBe('000.100.110');
    });

    it('fails with a validation error when no transaction matches', async () => {
      const id = 'abcdef0123456789abcdef0123456789';
      const res = await pay({ paymentType: 'PA', referenceUuid: id });
      expectParameterError(res, 'referenceUuid');
      expect(res.body.result.parameterErrors).toEqual([
        { name: 'referenceUuid', value: id, message: 'matches no transaction' },
      ]);
    });

    it("does not match another merchant's payment", async () => {
      const stranger = await gw.addMerchant({ channels: 1 });
      const theirs = await gw.post(
        '/v1/payments',
        { entityId: stranger.entityId, amount: '5.00', currency: 'EUR', paymentType: 'PA', ...VISA_CARD },
        { token: stranger.token },
      );
      expectParameterError(await pay({ paymentType: 'PA', referenceUuid: theirs.body.id }), 'referenceUuid');
    });
  });

  describe('recurring migration (deprecated)', () => {
    it('accepts a migrated INITIAL, registers it, and lets MIT repeats quote the migrated ids', async () => {
      const migrated = await pay({
        ...VISA_CARD,
        createRegistration: 'true',
        'recurringMigration.paymentType': 'DB',
        'recurringMigration.amount': '20.00',
        'recurringMigration.requestTimestamp': '2024-03-01 10:00:00',
        'recurringMigration.connectorTxId1': 'OLD-ACQ-4711',
        'standingInstruction.type': 'RECURRING',
        'standingInstruction.recurringType': 'SUBSCRIPTION',
      });
      expect(migrated.status).toBe(200);
      expect(migrated.body.recurringMigration).toEqual({
        paymentType: 'DB',
        amount: '20.00',
        requestTimestamp: '2024-03-01 10:00:00',
        connectorTxId1: 'OLD-ACQ-4711',
      });
      expect(migrated.body.registrationId).toMatch(/^[0-9a-f]{32}$/);
      expect(migrated.body.standingInstruction.initialTransactionId).toBe('OLD-ACQ-4711');

      const repeat = (extra: Record<string, string>) =>
        gw.post(
          `/v1/registrations/${migrated.body.registrationId}/payments`,
          {
            entityId: m.entityId,
            amount: '20.00',
            currency: 'EUR',
            paymentType: 'DB',
            'standingInstruction.mode': 'REPEATED',
            'standingInstruction.source': 'MIT',
            'standingInstruction.type': 'RECURRING',
            ...extra,
          },
          { token: m.token },
        );
      const ok = await repeat({ 'standingInstruction.initialTransactionId': 'OLD-ACQ-4711' });
      expect(ok.status).toBe(200);
      expect(ok.body.result.code).toBe('000.100.110');
      expect((await repeat({ 'standingInstruction.initialTransactionId': 'SOMETHING-ELSE' })).status).toBe(
        400,
      );
    });
  });
});

describe('secrets of other instruments at rest', () => {
  it('never writes a token, cryptogram, dtvc or gift card PIN/number to the data files', async () => {
    const gw = await testGateway();
    try {
      const m = await gw.addMerchant({ channels: 1 });
      const pay = (params: Record<string, string>, key: string) =>
        gw.post(
          '/v1/payments',
          { entityId: m.entityId, amount: '20.00', currency: 'EUR', paymentType: 'DB', ...params },
          // The stored idempotent responses are searched too.
          { token: m.token, headers: { 'Idempotency-Key': key } },
        );
      expect((await pay({ ...NETWORK_TOKEN, createRegistration: 'true' }, 'token')).status).toBe(200);
      expect((await pay(GIFT_CARD, 'gift')).status).toBe(200);
      const check = async () => {
        const files = await gw.dataFiles();
        expect(files.some((f) => f.path.endsWith('gateway.db'))).toBe(true);
        for (const f of files) {
          const secrets = [
            TOKEN,
            CRYPTOGRAM,
            `"${DTVC}"`,
            GIFT_PIN,
            GIFT_NUMBER,
            '"cryptogram"',
            '"dtvc"',
            '"pin"',
          ];
          for (const secret of secrets) {
            expect(f.bytes.includes(Buffer.from(secret)), `${secret} in ${f.path}`).toBe(false);
          }
        }
      };
      await check(); // with the WAL file present
      await gw.close();
      await check(); // after the checkpoint on close
    } finally {
      await gw.cleanup();
    }
  });
});
