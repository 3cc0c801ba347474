/**
 * The Checkout API at the HTTP level (Hono's in-process `app.request` on a gateway started with
 * `startGateway`), on a fake clock: creation, the widget's session, submissions (card, decline and
 * retry, one-click, registration-only), the status and its time limits, credentials, concurrency,
 * and the shopperResultUrl notifier (including a restart on the same data). A last block runs two
 * gateways on one PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeClock } from '../../test-kit/clock';
import { CARD_FIELDS, PAN } from '../../test-kit/fixtures/cards';
import {
  TEST_COMMIT,
  type TestGateway,
  type TestMerchant,
  type TestResponse,
  testGateway,
} from '../../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../../test-kit/postgres';
import { tempFolder } from '../../test-kit/temp-folders';

const MINUTE = 60_000;
const CVV = '987';
/** What the widget submits for a card: no paymentBrand (the gateway detects VISA), no credentials. */
const CARD = { ...CARD_FIELDS, 'card.cvv': CVV } as const;
const LUHN_FAIL = { ...CARD, 'card.number': '4444444444444444' };
const CHECKOUT_ID = /^[0-9A-F]{32}\.[a-z0-9-]+$/;
const HEX32 = /^[0-9a-f]{32}$/;
const BUILD_NUMBER = `${TEST_COMMIT}@2026-11-21 10:00:00 +0000`;
const SHOP = 'https://shop.example/return?order=42&note=a%20b';

function expectEnvelope(res: TestResponse, timestamp: string): void {
  expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
  expect(res.headers.get('cache-control')).toBe('private, no-cache, no-store');
  expect(res.body.buildNumber).toBe(BUILD_NUMBER);
  expect(res.body.timestamp).toBe(timestamp);
  expect(typeof res.body.ndc).toBe('string');
}

/** A recording fetch for the notifier: answers `status` (200 unless told otherwise). */
function recordingFetch() {
  const calls: string[] = [];
  let status = 200;
  const fetch = (async (input: string | URL | Request) => {
    calls.push(String(input));
    return new Response('ok', { status });
  }) as typeof globalThis.fetch;
  return {
    calls,
    fetch,
    answer: (s: number) => {
      status = s;
    },
  };
}

describe('/v1/checkouts over HTTP (SQLite, fake clock)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;
  let integrity: string | undefined;
  const clock = fakeClock();
  const sent = recordingFetch();

  beforeAll(async () => {
    gw = await testGateway({
      clock,
      nodeName: 'Test Node.01',
      integrity: () => integrity,
      notifier: { fetch: sent.fetch, autoStart: false },
    });
    m = await gw.addMerchant({ channels: 2 });
    other = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw.cleanup());
  beforeEach(() => {
    integrity = undefined;
    sent.calls.length = 0;
    sent.answer(200);
  });

  const stamp = () => {
    const d = clock.now();
    return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}+0000`;
  };

  /** Creates a checkout on the merchant's first channel; returns the response. */
  const create = (params: Record<string, string> = {}, who = m) =>
    gw.post(
      '/v1/checkouts',
      {
        entityId: who.entityId,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        shopperResultUrl: SHOP,
        merchantTransactionId: 'order-0042',
        ...params,
      },
      { token: who.token },
    );
  const created = async (params: Record<string, string> = {}, who = m): Promise<string> => {
    const res = await create(params, who);
    expect(res.status).toBe(200);
    return res.body.id;
  };
  /** The widget's submission: no credentials. */
  const submit = (id: string, params: Record<string, string>, target = 'payment') =>
    gw.post(`/v1/checkouts/${id}/${target}`, params);
  /** The merchant's status GET, with credentials. */
  const status = (id: string, target = 'payment', who = m) =>
    gw.get(`/v1/checkouts/${id}/${target}`, { entityId: who.entityId }, { token: who.token });
  const session = (id: string) => gw.get(`/v1/checkouts/${id}/session`);

  describe('POST /v1/checkouts', () => {
    it('creates a checkout: its id (32 uppercase hex, a dot, the node), 000.200.100, ndc = id', async () => {
      const res = await create();
      expect(res.status).toBe(200);
      expectEnvelope(res, stamp());
      expect(res.body.id).toMatch(CHECKOUT_ID);
      expect(res.body.id.endsWith('.test-node-01')).toBe(true);
      expect(res.body.id.length).toBeGreaterThanOrEqual(32);
      expect(res.body.id.length).toBeLessThanOrEqual(48);
      expect(res.body.result).toEqual({ code: '000.200.100', description: 'successfully created checkout' });
      expect(res.body.ndc).toBe(res.body.id);
      expect(Object.keys(res.body)).toEqual(['id', 'result', 'buildNumber', 'timestamp', 'ndc']);
      expect((await create()).body.id).not.toBe(res.body.id);
    });

    it('adds integrity when it was requested and the widget build gives a hash', async () => {
      expect((await create({ integrity: 'true' })).body.integrity).toBeUndefined(); // no hash known yet
      integrity = 'sha384-b2tMYnV0SGFzaA';
      const asked = await create({ integrity: 'true' });
      expect(asked.status).toBe(200);
      expect(asked.body.integrity).toBe('sha384-b2tMYnV0SGFzaA');
      expect((await create()).body.integrity).toBeUndefined();
      expect((await create({ integrity: 'false' })).body.integrity).toBeUndefined();
    });

    it('validates with the core schemas, every fault at once; overridePaymentType is accepted only here', async () => {
      const bad = await create({ amount: '12.5', paymentType: 'RF', 'card.number': PAN });
      expect(bad.status).toBe(400);
      expect(bad.body.result.code).toBe('200.300.404');
      const names = bad.body.result.parameterErrors.map((e: { name: string }) => e.name);
      expect(names).toEqual(expect.arrayContaining(['amount', 'paymentType', 'card.number']));
      expect(bad.text).not.toContain(PAN);

      const missing = await gw.post(
        '/v1/checkouts',
        { entityId: m.entityId, currency: 'EUR' },
        { token: m.token },
      );
      expect(missing.status).toBe(400);
      expect(missing.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(
        expect.arrayContaining(['amount', 'paymentType']),
      );
      // Without paymentType a checkout must at least register.
      expect((await create({ paymentType: '' })).status).toBe(400);

      const override = await create({ 'overridePaymentType[MASTER]': 'PA' });
      expect(override.status).toBe(200);
      const wrongType = await create({ 'overridePaymentType[MASTER]': 'RF' });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.result.parameterErrors[0].name).toBe('overridePaymentType[MASTER]');
      // The same parameter on a payment is refused: the rule of the core schemas.
      const onPayment = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '1.00',
          currency: 'EUR',
          paymentType: 'DB',
          paymentBrand: 'VISA',
          ...CARD,
          'overridePaymentType[MASTER]': 'PA',
        },
        { token: m.token },
      );
      expect(onPayment.status).toBe(400);
      expect(onPayment.body.result.parameterErrors[0].name).toBe('overridePaymentType[MASTER]');

      const unknownRegistration = await create({ 'registrations[0].id': 'a'.repeat(32) });
      expect(unknownRegistration.status).toBe(400);
      expect(unknownRegistration.body.result.parameterErrors[0].name).toBe('registrations[0].id');
    });

    it('needs the merchant credentials (401 without, 403 with a bad token)', async () => {
      const none = await gw.post('/v1/checkouts', { entityId: m.entityId, amount: '1.00', currency: 'EUR' });
      expect(none.status).toBe(401);
      const bad = await gw.post(
        '/v1/checkouts',
        { entityId: m.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB' },
        { token: Buffer.from('nobody|nothing').toString('base64') },
      );
      expect(bad.status).toBe(403);
      expect(bad.body.result.code).toBe('800.900.300');
    });
  });

  describe('GET /v1/checkouts/{id}/session', () => {
    it('gives the widget what it needs, readable from any origin, and no secret', async () => {
      const createdAt = clock.now();
      const id = await created({
        'customer.email': 'jane@example.com',
        'customer.givenName': 'Jane',
        'customer.surname': 'Jones',
      });
      const res = await session(id);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expectEnvelope(res, stamp());
      expect(res.body).toMatchObject({
        id,
        kind: 'payment',
        state: 'open',
        expiresAt: new Date(createdAt.getTime() + 30 * MINUTE).toISOString(),
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        shopperResultUrl: SHOP,
        registrations: [],
        result: { code: '000.000.100' },
        ndc: id,
      });
      for (const secret of [m.token, m.secret, m.entityId, m.merchantId, 'jane@example.com']) {
        expect(res.text).not.toContain(secret);
      }
    });

    it('answers an unknown id with a JSON 404, CORS headers included', async () => {
      const res = await session(`${'A'.repeat(32)}.test-node-01`);
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(res.body.result.code).toBe('200.300.404');
    });
  });

  describe('POST /v1/checkouts/{id}/payment', () => {
    it('pays with a card (the brand detected), as /v1/payments would; the status returns that payment', async () => {
      const id = await created({ 'customParameters[orderRef]': 'R-1' });
      const paid = await submit(id, { ...CARD, 'customParameters[SHOPPER_note]': 'gift' });
      expect(paid.status).toBe(200);
      expect(paid.headers.get('access-control-allow-origin')).toBe('*');
      // Without credentials the answer is the public view (checkout-privacy.test.ts): no holder,
      // no customParameters; the merchant's status below has them.
      expect(paid.body).toMatchObject({
        paymentType: 'DB',
        paymentBrand: 'VISA',
        amount: '92.00',
        currency: 'EUR',
        merchantTransactionId: 'order-0042',
        card: { bin: '420000', last4Digits: '0000' },
        result: { code: '000.100.110' },
      });
      expect(paid.body.card.holder).toBeUndefined();
      expect(paid.body.customParameters).toBeUndefined();
      expect(paid.body.id).toMatch(HEX32);
      // a checkout's payment carries the checkout id as its ndc (decisions)
      expect(paid.body.ndc).toBe(id);
      expect(paid.text).not.toContain(PAN);
      expect(paid.text).not.toContain(`"${CVV}"`);

      const read = await status(id);
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(paid.body.id);
      expect(read.body.result.code).toBe('000.100.110');
      expect(read.body).toMatchObject({
        customParameters: { orderRef: 'R-1', SHOPPER_note: 'gift' },
        card: { bin: '420000', last4Digits: '0000', holder: 'Jane Jones' },
      });
      // Exactly the JSON of GET /v1/payments/{id}.
      const direct = await gw.get(
        `/v1/payments/${paid.body.id}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(read.text).toBe(direct.text);
      // Some old clients send no credentials at all.
      const anonymous = await gw.get(`/v1/checkouts/${id}/payment`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.id).toBe(paid.body.id);
      expect((await session(id)).body.state).toBe('completed');
      expect(await gw.paymentIds(m.merchantId)).toContain(paid.body.id);
    });

    it('a declined card leaves the checkout open; a retry with another card pays it', async () => {
      const id = await created();
      const declined = await submit(id, LUHN_FAIL);
      expect(declined.status).toBe(400);
      expect(declined.body.result.code).toBe('100.100.101');
      expect(declined.text).not.toContain('4444444444444444');
      expect((await session(id)).body.state).toBe('open');
      expect((await session(id)).body.lastResult).toEqual({
        code: '100.100.101',
        description: declined.body.result.description,
      });
      // The status answers the latest attempt while the checkout is open.
      const before = await status(id);
      expect(before.status).toBe(400);
      expect(before.body.result.code).toBe('100.100.101');
      expect(before.body.id).toBe(declined.body.id);

      const retried = await submit(id, CARD);
      expect(retried.status).toBe(200);
      expect(retried.body.result.code).toBe('000.100.110');
      expect(retried.body.id).not.toBe(declined.body.id);
      expect((await status(id)).body.id).toBe(retried.body.id);
    });

    it('is paid once: later submissions are refused (100.350.101) and charge nothing', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const id = await created({}, merchant);
      expect((await submit(id, CARD)).status).toBe(200);
      const again = await submit(id, { ...CARD, 'card.number': '5454545454545454', paymentBrand: 'MASTER' });
      expect(again.status).toBe(400);
      expect(again.body.result.code).toBe('100.350.101');
      expect(again.body.ndc).toBe(id);
      expect(await gw.paymentIds(merchant.merchantId)).toHaveLength(1);
    });

    it('two concurrent submissions charge once', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const id = await created({}, merchant);
      const answers = await Promise.all(Array.from({ length: 6 }, () => submit(id, CARD)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
      expect(answers.filter((a) => a.status === 400).every((a) => a.body.result.code === '100.350.101')).toBe(
        true,
      );
      expect(await gw.paymentIds(merchant.merchantId)).toHaveLength(1);
    });

    it('is valid for 30 minutes: at 29:59 it pays, at 30:00 it is refused (200.300.404) with nothing charged', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const late = await created({}, merchant);
      const expired = await created({}, merchant);
      clock.advance(30 * MINUTE - 1000);
      expect((await submit(late, CARD)).status).toBe(200);
      clock.advance(1000);
      const refused = await submit(expired, CARD);
      expect(refused.status).toBe(400);
      expect(refused.body.result.code).toBe('200.300.404');
      expect(refused.body.result.description).toMatch(/No payment session found.*expired/);
      expect(await gw.paymentIds(merchant.merchantId)).toHaveLength(1);
      expect((await session(expired)).body.state).toBe('expired');
      const read = await status(expired, 'payment', merchant);
      expect(read.status).toBe(400);
      expect(read.body.result.code).toBe('200.300.404');
    });

    it('uses overridePaymentType for the brand the shopper paid with', async () => {
      const id = await created({ 'overridePaymentType[MASTER]': 'PA' });
      const master = await submit(id, { ...CARD, 'card.number': '5454545454545454' });
      expect(master.status).toBe(200);
      expect(master.body.paymentBrand).toBe('MASTER');
      expect(master.body.paymentType).toBe('PA');
      const visa = await submit(await created({ 'overridePaymentType[MASTER]': 'PA' }), CARD);
      expect(visa.body.paymentType).toBe('DB');
    });

    it('registers the card along when the shop added a createRegistration checkbox', async () => {
      const paid = await submit(await created(), { ...CARD, createRegistration: 'true' });
      expect(paid.status).toBe(200);
      expect(paid.body.registrationId).toMatch(HEX32);
      const stored = await gw.get(
        `/v1/registrations/${paid.body.registrationId}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(stored.status).toBe(200);
    });

    it('answers invalid submissions with parameterErrors and keeps the checkout open', async () => {
      const id = await created();
      const bad = await submit(id, {
        'card.number': PAN,
        'card.expiryMonth': '13',
        'customParameters[note]': 'x',
        amount: '1.00',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.result.code).toBe('200.300.404');
      const names = bad.body.result.parameterErrors.map((e: { name: string }) => e.name);
      expect(names).toEqual(expect.arrayContaining(['card.expiryMonth', 'customParameters[note]', 'amount']));
      expect(bad.text).not.toContain(PAN);
      const nothing = await submit(id, {});
      expect(nothing.status).toBe(400);
      expect((await submit(id, CARD)).status).toBe(200);
    });

    it('answers an unknown checkout with 404, and a registration path on a payment checkout too (its status: 400)', async () => {
      const unknown = await submit(`${'B'.repeat(32)}.test-node-01`, CARD);
      expect(unknown.status).toBe(404);
      expect(unknown.body.result.code).toBe('200.300.404');
      const id = await created();
      expect((await submit(id, CARD, 'registration')).status).toBe(404);
      // a status read of what names no checkout is the family's 400 200.300.404 (decisions, Wire format)
      expect((await status(id, 'registration')).status).toBe(400);
    });
  });

  describe('one-click', () => {
    it('pays with a stored registration the checkout offers, the card never sent again', async () => {
      const stored = await gw.post(
        '/v1/registrations',
        { entityId: m.entityId, paymentBrand: 'VISA', ...CARD },
        { token: m.token },
      );
      expect(stored.status).toBe(200);
      const registrationId: string = stored.body.id;
      const id = await created({ 'registrations[0].id': registrationId });

      const view = await session(id);
      // brand and last four digits only: the session is read without credentials (issue 30)
      expect(view.body.registrations).toEqual([
        { id: registrationId, paymentBrand: 'VISA', card: { last4Digits: '0000' } },
      ]);
      expect(view.text).not.toContain(PAN);

      const notOffered = await submit(id, { registrationId: 'c'.repeat(32) });
      expect(notOffered.status).toBe(400);
      expect(notOffered.body.result.parameterErrors[0].name).toBe('registrationId');
      const withCard = await submit(id, { registrationId, ...CARD });
      expect(withCard.status).toBe(400);
      expect(withCard.body.result.parameterErrors.map((e: { name: string }) => e.name)).toContain(
        'card.number',
      );
      expect(withCard.text).not.toContain(PAN);

      const paid = await submit(id, { registrationId, 'card.cvv': '123' });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({
        result: { code: '000.100.110' },
        registrationId,
        paymentBrand: 'VISA',
        amount: '92.00',
        merchantTransactionId: 'order-0042',
        card: { last4Digits: '0000' },
      });
      expect((await status(id)).body.id).toBe(paid.body.id);
    });

    it('accepts registrationId only in the widget submission', async () => {
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '1.00',
          currency: 'EUR',
          paymentType: 'DB',
          paymentBrand: 'VISA',
          ...CARD,
          registrationId: 'a'.repeat(32),
        },
        { token: m.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.result.parameterErrors[0].name).toBe('registrationId');
    });
  });

  describe('registration-only checkouts', () => {
    it('createRegistration=true without paymentType stores the card; its status is the registration', async () => {
      const id = await created({ paymentType: '', createRegistration: 'true' });
      const view = await session(id);
      expect(view.body.kind).toBe('registration');
      expect(view.body.resourcePath).toBe(`/v1/checkouts/${id}/registration`);
      expect(view.body.paymentType).toBeUndefined();
      expect((await submit(id, CARD, 'payment')).status).toBe(404);
      expect((await status(id, 'registration')).body.result.code).toBe('000.200.000');
      // the family's clients read a registration checkout at /payment too (omnipay-hyperpay's GetCardInfoRequest)
      expect((await status(id, 'payment')).body.result.code).toBe('000.200.000');

      const registered = await submit(id, CARD, 'registration');
      expect(registered.status).toBe(200);
      expect(registered.body.result.code).toBe('000.100.110');
      expect(registered.body.id).toMatch(HEX32);
      expect(registered.body.card).toMatchObject({ bin: '420000', last4Digits: '0000' });
      expect(registered.text).not.toContain(PAN);

      const read = await status(id, 'registration');
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(registered.body.id);
      expect(read.body.result.code).toBe('000.100.110');
      const atPayment = await status(id, 'payment');
      expect(atPayment.status).toBe(200);
      expect(atPayment.body.id).toBe(registered.body.id);
      const direct = await gw.get(
        `/v1/registrations/${registered.body.id}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(direct.status).toBe(200);
      // Registered once: the checkout is closed.
      expect((await submit(id, CARD, 'registration')).body.result.code).toBe('100.350.101');
      expect(await gw.paymentIds(m.merchantId)).not.toContain(registered.body.id);
    });
  });

  describe('registration-only checkouts without money', () => {
    it('createRegistration=true with neither amount, currency nor paymentType registers the card', async () => {
      const id = await created({ paymentType: '', amount: '', currency: '', createRegistration: 'true' });
      const view = await session(id);
      expect(view.status).toBe(200);
      expect(view.body.kind).toBe('registration');
      expect(view.body.amount).toBeUndefined();
      expect(view.body.currency).toBeUndefined();
      const registered = await submit(id, CARD, 'registration');
      expect(registered.status).toBe(200);
      expect(registered.body.result.code).toBe('000.100.110');
      expect((await status(id, 'registration')).body.id).toBe(registered.body.id);
    });
  });

  describe('GET /v1/checkouts/{id}/payment (status)', () => {
    it('is 000.200.000 before payment, the payment for 30 minutes after completion, then 200.300.404', async () => {
      const id = await created();
      const open = await status(id);
      expect(open.status).toBe(200);
      expectEnvelope(open, stamp());
      expect(open.body.result).toEqual({ code: '000.200.000', description: 'transaction pending' });
      expect(open.body.ndc).toBe(id);

      clock.advance(10 * MINUTE);
      const paid = await submit(id, CARD);
      clock.advance(30 * MINUTE - 1); // 40 minutes after creation: the checkout itself has expired
      expect((await status(id)).body.id).toBe(paid.body.id);
      clock.advance(1);
      const gone = await status(id);
      expect(gone.status).toBe(400);
      expect(gone.body.result).toEqual({
        code: '200.300.404',
        description: 'No payment session found for the requested id',
      });
      // The payment itself stays readable.
      const direct = await gw.get(
        `/v1/payments/${paid.body.id}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(direct.status).toBe(200);
    });

    it('refuses credentials of another merchant, or of another channel, and bad credentials', async () => {
      const id = await created();
      const paid = await submit(id, CARD);
      expect(paid.status).toBe(200);
      // Another merchant's token with its own channel: the checkout is not theirs to see, answered
      // as an unknown one is (400 200.300.404, decisions, Wire format).
      const foreign = await status(id, 'payment', other);
      expect(foreign.status).toBe(400);
      expect(foreign.body.result.code).toBe('200.300.404');
      expect(foreign.text).not.toContain(paid.body.id);
      // ... or without entityId.
      const foreignNoEntity = await gw.get(`/v1/checkouts/${id}/payment`, {}, { token: other.token });
      expect(foreignNoEntity.status).toBe(400);
      // ... or naming our channel: a channel the token may not use.
      const foreignEntity = await gw.get(
        `/v1/checkouts/${id}/payment`,
        { entityId: m.entityId },
        { token: other.token },
      );
      expect(foreignEntity.status).toBe(403);
      // The right merchant, the wrong channel.
      const otherChannel = await gw.get(
        `/v1/checkouts/${id}/payment`,
        { entityId: m.entityIds[1]! },
        { token: m.token },
      );
      expect(otherChannel.status).toBe(400);
      const badToken = await gw.get(
        `/v1/checkouts/${id}/payment`,
        {},
        { token: Buffer.from('x|y').toString('base64') },
      );
      expect(badToken.status).toBe(403);
      const malformed = await gw.get(
        `/v1/checkouts/${id}/payment`,
        {},
        { headers: { Authorization: 'Basic abc' } },
      );
      expect(malformed.status).toBe(401);
      // Legacy parameters are credentials too.
      const legacy = await gw.get(`/v1/checkouts/${id}/payment`, {
        'authentication.userId': other.userId,
        'authentication.password': other.secret,
      });
      expect(legacy.status).toBe(400);
      expect((await status(id)).status).toBe(200);
      expect(
        (await gw.get(`//v1/checkouts/${id}/payment`, { entityId: m.entityId }, { token: m.token })).status,
      ).toBe(200);
    });

    it("refuses a submission sent with another merchant's credentials, charging nothing", async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const id = await created({}, merchant);
      const foreign = await gw.post(`/v1/checkouts/${id}/payment`, CARD, { token: other.token });
      expect(foreign.status).toBe(404);
      expect(await gw.paymentIds(merchant.merchantId)).toHaveLength(0);
      expect(await gw.paymentIds(other.merchantId)).toHaveLength(0);
      const own = await gw.post(`/v1/checkouts/${id}/payment`, CARD, { token: merchant.token });
      expect(own.status).toBe(200);
    });
  });

  describe('shopperResultUrl notification', () => {
    // The checkouts the tests above submitted fall due too: send theirs first, then start afresh.
    beforeEach(async () => {
      clock.advance(120 * MINUTE);
      while ((await gw.notifier.runOnce()) > 0) {}
      sent.calls.length = 0;
    });

    it('is sent once, 29 minutes after the submission, to the URL with id and resourcePath added', async () => {
      const id = await created();
      clock.advance(2 * MINUTE);
      expect((await submit(id, CARD)).status).toBe(200);
      clock.advance(29 * MINUTE - 1);
      expect(await gw.notifier.runOnce()).toBe(0);
      expect(sent.calls).toEqual([]);
      clock.advance(1);
      expect(await gw.notifier.runOnce()).toBe(1);
      expect(sent.calls).toEqual([
        `https://shop.example/return?order=42&note=a%20b&id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${encodeURIComponent(id)}%2Fpayment`,
      ]);
      clock.advance(10 * MINUTE);
      expect(await gw.notifier.runOnce()).toBe(0);
      expect(sent.calls).toHaveLength(1);
    });

    it('is not sent when the merchant fetched the status, nor for a checkout never submitted', async () => {
      const fetched = await created();
      const untouched = await created();
      await submit(fetched, CARD);
      clock.advance(5 * MINUTE);
      expect((await status(fetched)).status).toBe(200);
      clock.advance(60 * MINUTE);
      expect(await gw.notifier.runOnce()).toBe(0);
      expect(sent.calls.filter((u) => u.includes(fetched) || u.includes(untouched))).toEqual([]);
    });

    it("counts a declined submission (the pay button was clicked), and a status GET before the retry does not cancel the retry's", async () => {
      const id = await created();
      await submit(id, LUHN_FAIL);
      clock.advance(MINUTE);
      expect((await status(id)).body.result.code).toBe('100.100.101');
      clock.advance(MINUTE);
      await submit(id, CARD);
      clock.advance(29 * MINUTE - 1);
      expect(await gw.notifier.runOnce()).toBe(0);
      clock.advance(1);
      expect(await gw.notifier.runOnce()).toBe(1);
      expect(sent.calls[0]).toContain(`id=${id}`);
    });

    it('is tried again after a failure, and carries /registration for a registration checkout', async () => {
      const id = await created({ paymentType: '', createRegistration: 'true' });
      await submit(id, CARD, 'registration');
      clock.advance(29 * MINUTE);
      sent.answer(503);
      expect(await gw.notifier.runOnce()).toBe(0);
      expect(sent.calls).toHaveLength(1);
      sent.answer(200);
      expect(await gw.notifier.runOnce()).toBe(0); // the failed one waits for its retry time
      clock.advance(MINUTE);
      expect(await gw.notifier.runOnce()).toBe(1);
      expect(sent.calls).toHaveLength(2);
      expect(sent.calls[1]).toContain(
        `resourcePath=%2Fv1%2Fcheckouts%2F${encodeURIComponent(id)}%2Fregistration`,
      );
    });
  });
});

describe('the notifier across a restart, and on its own timer', () => {
  it('survives a restart: the due notification is in the database', async () => {
    const dataDir = await tempFolder('gateway-checkout-restart-');
    const clock = fakeClock();
    const first = recordingFetch();
    const gw1 = await testGateway({ clock, dataDir, notifier: { fetch: first.fetch, autoStart: false } });
    const m = await gw1.addMerchant({ channels: 1 });
    const res = await gw1.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: SHOP },
      { token: m.token },
    );
    const id: string = res.body.id;
    expect((await gw1.post(`/v1/checkouts/${id}/payment`, CARD)).status).toBe(200);
    await gw1.close();

    clock.advance(29 * MINUTE);
    const second = recordingFetch();
    const gw2 = await testGateway({ clock, dataDir, notifier: { fetch: second.fetch, autoStart: false } });
    try {
      expect(await gw2.notifier.runOnce()).toBe(1);
      expect(second.calls).toHaveLength(1);
      expect(second.calls[0]).toContain(`id=${id}`);
      expect(first.calls).toEqual([]);
    } finally {
      await gw2.cleanup();
    }
  });

  it('is started by startGateway and stopped by close()', async () => {
    const clock = fakeClock();
    const fetch = recordingFetch();
    const gw = await testGateway({ clock, notifier: { fetch: fetch.fetch, intervalMs: 10 } });
    try {
      const m = await gw.addMerchant({ channels: 1 });
      const res = await gw.post(
        '/v1/checkouts',
        { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: SHOP },
        { token: m.token },
      );
      await gw.post(`/v1/checkouts/${res.body.id}/payment`, CARD);
      clock.advance(29 * MINUTE);
      await vi.waitFor(() => expect(fetch.calls).toHaveLength(1), { timeout: 5000 });
      await gw.close();
      // Closed: nothing polls any more, even with another notification due.
      const calls = fetch.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fetch.calls).toHaveLength(calls);
    } finally {
      await gw.cleanup();
    }
  });
});

describe('checkouts on one PostgreSQL shared by two gateways', () => {
  const unavailable = postgresUnavailableReason();
  if (unavailable !== undefined) {
    it.skip(`PostgreSQL tests skipped: ${unavailable}`, () => {});
    return;
  }
  let cluster: PostgresCluster;
  let a: TestGateway;
  let b: TestGateway;
  const clock = fakeClock();
  const sentA = recordingFetch();
  const sentB = recordingFetch();

  beforeAll(async () => {
    cluster = await startPostgres();
    a = await testGateway({
      clock,
      databaseUrl: cluster.url,
      notifier: { fetch: sentA.fetch, autoStart: false },
    });
    b = await testGateway({
      clock,
      databaseUrl: cluster.url,
      notifier: { fetch: sentB.fetch, autoStart: false },
    });
  }, 60_000);
  afterAll(async () => {
    await a?.cleanup();
    await b?.cleanup();
    await cluster?.stop();
  }, 60_000);

  it('charges once when both gateways take a submission of the same checkout at once, and notifies once', async () => {
    const m = await a.addMerchant({ channels: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await a.post(
        '/v1/checkouts',
        { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: SHOP },
        { token: m.token },
      );
      ids.push(res.body.id);
    }
    for (const id of ids) {
      const answers = await Promise.all([
        a.post(`/v1/checkouts/${id}/payment`, CARD),
        b.post(`/v1/checkouts/${id}/payment`, CARD),
        a.post(`/v1/checkouts/${id}/payment`, CARD),
        b.post(`/v1/checkouts/${id}/payment`, CARD),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    }
    expect(await a.paymentIds(m.merchantId)).toHaveLength(5);
    // The status through either gateway.
    expect((await b.get(`/v1/checkouts/${ids[0]}/payment`)).body.result.code).toBe('000.100.110');

    clock.advance(29 * MINUTE);
    const [fromA, fromB] = await Promise.all([a.notifier.runOnce(), b.notifier.runOnce()]);
    // ids[0] had its status read; the other four are notified, each by one gateway only.
    expect(fromA + fromB).toBe(4);
    const all = [...sentA.calls, ...sentB.calls];
    expect(all).toHaveLength(4);
    for (const id of ids.slice(1)) expect(all.filter((u) => u.includes(`id=${id}`))).toHaveLength(1);
  });
});

describe('integrity=true on a gateway as started (the widget build gives the hash)', () => {
  it('answers the SRI hash of the served paymentWidgets.js, the same as /v1/fastcheckout/integrity', async () => {
    const gw = await testGateway();
    try {
      const m = await gw.addMerchant({ channels: 1 });
      const created = await gw.post(
        '/v1/checkouts',
        { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' },
        { token: m.token },
      );
      expect(created.status).toBe(200);
      const script = await gw.app.request('/v1/paymentWidgets.js');
      const served = Buffer.from(await script.arrayBuffer());
      const expected = `sha384-${createHash('sha384').update(served).digest('base64')}`;
      expect(created.body.integrity).toBe(expected);
      expect((await gw.get('/v1/fastcheckout/integrity')).body.integrity).toBe(expected);
    } finally {
      await gw.cleanup();
    }
  });
});
