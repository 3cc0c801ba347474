/**
 * Webhooks end to end: registered through the admin API (a real HTTP receiver on loopback gets
 * the test notification), notified by every payment and registration change through the
 * outbox, delivered by the dispatcher under a fake clock, in order per payment, retried on the
 * decisions' schedule over the whole 30 days, dead-lettered, redelivered; the deprecated
 * notificationUrl GETs; chargebacks and their reversals. The receiver decrypts with plain
 * AES-256-GCM from node:crypto, as a merchant's would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeClock } from '../test-kit/clock';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { ADMIN_TOKEN } from '../test-kit/fixtures/tokens';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type Received, type Receiver, startReceiver } from '../test-kit/receiver';
import { deliverPending, webhookTestbed } from '../test-kit/webhooks';
import { decryptNotification } from './encryption';

const KEY = '000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// biome-ignore lint/suspicious/noExplicitAny: notifications are read field by field
type Json = any;

/** What a merchant's receiver does: hex key, hex IV and tag headers, hex body → JSON. */
function decrypt(key: string, r: Received): Json {
  const iv = r.headers['x-initialization-vector'];
  const tag = r.headers['x-authentication-tag'];
  if (typeof iv !== 'string' || typeof tag !== 'string') throw new Error('not an encrypted notification');
  return JSON.parse(decryptNotification(key, r.body, iv, tag));
}

describe('webhooks', () => {
  let clock: FakeClock;
  let gw: TestGateway;
  let receiver: Receiver;
  let m: TestMerchant;

  const admin = (method: string, path: string, body?: object, token = ADMIN_TOKEN) =>
    gw.send(method, path, body === undefined ? undefined : JSON.stringify(body), {
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    });
  const pay = (params: Record<string, string>, merchant = m) =>
    gw.post(
      '/v1/payments',
      { entityId: merchant.entityId, currency: 'EUR', ...params },
      { token: merchant.token },
    );
  const reference = (id: string, params: Record<string, string>, merchant = m) =>
    gw.post(
      `/v1/payments/${id}`,
      { entityId: merchant.entityId, currency: 'EUR', ...params },
      { token: merchant.token },
    );

  async function register(merchant: TestMerchant, body: object): Promise<Json> {
    const res = await admin('POST', `/admin/v1/merchants/${merchant.merchantId}/webhooks`, body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** Runs the dispatcher, a minute of fake time apart, until the merchant has nothing pending. */
  async function drain(merchant: TestMerchant, rounds = 30): Promise<void> {
    if (!(await deliverPending(gw, clock, merchant.merchantId, rounds)))
      throw new Error('deliveries still pending');
  }

  /** Requests the receiver answered 2xx, after index `from`. */
  const delivered = (from = 0) => receiver.received.slice(from).filter((r) => r.answered < 300);

  beforeAll(async () => {
    ({ clock, receiver, gw, merchant: m } = await webhookTestbed());
  });
  afterAll(async () => {
    await gw?.cleanup();
    await receiver?.close();
  });
  afterEach(async () => {
    receiver.answerWith(200);
    receiver.failNext(0);
    for (const w of await gw.store.listWebhooks(m.merchantId))
      await admin('DELETE', `/admin/v1/merchants/${m.merchantId}/webhooks/${w.id}`);
  });

  describe('the admin API', () => {
    it('is refused without the operator token, and a merchant token does not open it', async () => {
      for (const token of ['', 'wrong', m.token]) {
        const res = await admin('GET', `/admin/v1/merchants/${m.merchantId}/webhooks`, undefined, token);
        expect(res.status).toBe(401);
        expect(res.body.result.code).toBe('800.900.300');
      }
    });

    it('is off, and says how to turn it on, when no admin token is configured', async () => {
      const off = await testGateway({ webhooks: { autoStart: false }, notifier: { autoStart: false } });
      try {
        const res = await off.send('GET', '/admin/v1/merchants/x/webhooks', undefined, {
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        expect(res.status).toBe(401);
        expect(res.body.result.description).toContain('GATEWAY_ADMIN_TOKEN');
      } finally {
        await off.cleanup();
      }
    });
  });

  describe('registration', () => {
    it('sends an encrypted test notification and answers the key once', async () => {
      const before = receiver.received.length;
      const hook = await register(m, { url: `${receiver.url}/hooks` });
      expect(hook.key).toMatch(/^[0-9A-F]{64}$/);
      expect(hook).toMatchObject({
        url: `${receiver.url}/hooks`,
        encrypted: true,
        // SCHEDULE and RISK only when asked for (decisions, "Notifications")
        types: ['PAYMENT', 'REGISTRATION'],
      });
      const [test] = receiver.received.slice(before);
      expect(test?.method).toBe('POST');
      expect(test?.url).toBe('/hooks');
      expect(test?.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(test?.headers['x-initialization-vector']).toMatch(/^[0-9A-F]{24}$/);
      expect(test?.headers['x-authentication-tag']).toMatch(/^[0-9A-F]{32}$/);
      // lower case, as the family's receivers dispatch on it
      expect(decrypt(hook.key, test!)).toMatchObject({ type: 'test', payload: { webhookId: hook.id } });

      const shown = await admin('GET', `/admin/v1/merchants/${m.merchantId}/webhooks/${hook.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.key).toBeUndefined();
      expect(shown.text).not.toContain(hook.key);
    });

    it('fails with a clear message, and stores nothing, when nothing answers', async () => {
      const closed = await startReceiver();
      const url = `${closed.url}/gone`;
      await closed.close();
      const res = await admin('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, { url, key: KEY });
      expect(res.status).toBe(400);
      expect(res.body.result.description).toContain(`${url} did not accept the test notification`);
      expect(res.body.result.description).toContain('not reachable');
      receiver.answerWith(503);
      const refused = await admin('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
        url: receiver.url,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.result.description).toContain('answered HTTP 503');
      const list = await admin('GET', `/admin/v1/merchants/${m.merchantId}/webhooks`);
      expect(list.body.webhooks).toEqual([]);
    });

    it('names every invalid field', async () => {
      const res = await admin('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
        url: 'ftp://example.com/x',
        key: 'abc',
        types: ['PAYMENT', 'NOPE'],
        paymentTypes: 'DB,xyz',
        encrypted: 'maybe',
      });
      expect(res.status).toBe(400);
      expect(res.body.result.parameterErrors.map((e: Json) => e.name)).toEqual([
        'url',
        'key',
        'types',
        'paymentTypes',
        'encrypted',
      ]);
      expect(res.text).not.toContain('"abc"');
      const missing = await admin('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {});
      expect(missing.body.result.parameterErrors).toEqual([
        expect.objectContaining({ name: 'url', message: expect.stringContaining('required') }),
      ]);
      const unknown = await admin('POST', '/admin/v1/merchants/0000/webhooks', { url: receiver.url });
      expect(unknown.status).toBe(404);
    });

    it('requires https for a merchant with live channels (loopback excepted)', async () => {
      const live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
      const res = await admin('POST', `/admin/v1/merchants/${live.merchantId}/webhooks`, {
        url: 'http://hooks.example.com/x',
      });
      expect(res.body.result.parameterErrors[0]).toMatchObject({
        name: 'url',
        message: expect.stringContaining('https'),
      });
      await register(live, { url: receiver.url });
    });
  });

  describe('notifications', () => {
    it('tells every payment and registration change, in order per payment, through failures', async () => {
      const hook = await register(m, { url: `${receiver.url}/in`, key: KEY });
      const start = receiver.received.length;
      receiver.failNext(2);

      const pa = await pay({
        amount: '92.00',
        paymentType: 'PA',
        merchantTransactionId: 'order-0001',
        ...VISA_CARD,
      });
      const cp1 = await reference(pa.body.id, { amount: '50.00', paymentType: 'CP' });
      const cp2 = await reference(pa.body.id, { amount: '42.00', paymentType: 'CP' });
      const db = await pay({ amount: '10.00', paymentType: 'DB', createRegistration: 'true', ...VISA_CARD });
      const registrationId = db.body.registrationId as string;
      await gw.send('DELETE', `/v1/registrations/${registrationId}?entityId=${m.entityId}`, undefined, {
        token: m.token,
      });
      await drain(m);

      const got = delivered(start).map((r) => decrypt(KEY, r));
      // each change exactly once
      expect(got).toHaveLength(6);
      const ofPa = got.filter((n) => n.payload.id === pa.body.id || n.payload.referencedId === pa.body.id);
      expect(ofPa.map((n) => n.payload.id)).toEqual([pa.body.id, cp1.body.id, cp2.body.id]);
      const first = ofPa[0];
      expect(first).toMatchObject({
        type: 'PAYMENT',
        payload: {
          id: pa.body.id,
          paymentType: 'PA',
          amount: '92.00',
          currency: 'EUR',
          presentationAmount: '92.00',
          presentationCurrency: 'EUR',
          merchantTransactionId: 'order-0001',
          result: { code: '000.100.110' },
          card: { bin: '420000', last4Digits: '0000' },
          ndc: pa.body.ndc,
          buildNumber: expect.any(String),
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+0000$/),
        },
      });
      // the family's receivers tell a new payment from a changed one by action (decisions)
      expect(first.action).toBe('CREATED');
      expect(ofPa[1].action).toBe('CREATED');
      expect(ofPa[1].payload).toMatchObject({ paymentType: 'CP', referencedId: pa.body.id, amount: '50.00' });
      expect(JSON.stringify(got)).not.toContain('4200000000000000');

      const registrations = got.filter((n) => n.type === 'REGISTRATION');
      expect(registrations.map((n) => n.action)).toEqual(['CREATED', 'DELETED']);
      expect(registrations[0].payload).toMatchObject({
        id: registrationId,
        paymentBrand: 'VISA',
        card: { last4Digits: '0000' },
        // the API's answer for it (decisions): the mode's success code
        result: { code: '000.100.110' },
      });

      // the log: the first deliveries needed a second attempt
      const log = await admin(
        'GET',
        `/admin/v1/merchants/${m.merchantId}/webhook-deliveries?webhookId=${hook.id}`,
      );
      expect(log.status).toBe(200);
      expect(log.body.deliveries).toHaveLength(6);
      expect(log.body.deliveries.every((d: Json) => d.status === 'delivered')).toBe(true);
      const retried = log.body.deliveries.filter((d: Json) => d.attempts > 1);
      expect(retried.length).toBeGreaterThan(0);
      expect(log.body.deliveries[0].id).toBeGreaterThan(log.body.deliveries[5].id);
    });

    it('notifies a pending payment twice: pending, then its end', async () => {
      await register(m, { url: receiver.url, key: KEY });
      const start = receiver.received.length;
      const res = await pay({
        amount: '5.00',
        paymentType: 'DB',
        paymentBrand: 'PAYPAL',
        shopperResultUrl: 'https://shop.example/back',
      });
      expect(res.body.result.code).toBe('000.200.000');
      const session = res.body.redirect.parameters[0].value;
      const answer = await gw.post('/simulators/redirect/answer', { session, action: 'approve' });
      expect(answer.status).toBeLessThan(400);
      await drain(m);
      const got = delivered(start).map((r) => decrypt(KEY, r));
      expect(got.map((n) => n.payload.result.code)).toEqual(['000.200.000', '000.100.110']);
      expect(got.map((n) => n.action)).toEqual(['CREATED', 'UPDATED']);
      expect(new Set(got.map((n) => n.payload.id))).toEqual(new Set([res.body.id]));
    });

    it('sends plain JSON to a webhook that asked for it, of the types it asked for', async () => {
      await register(m, { url: receiver.url, encrypted: false, types: ['PAYMENT'], paymentTypes: ['DB'] });
      const start = receiver.received.length;
      const pa = await pay({ amount: '3.00', paymentType: 'PA', ...VISA_CARD });
      await pay({ amount: '4.00', paymentType: 'DB', createRegistration: 'true', ...VISA_CARD });
      await drain(m);
      expect(pa.body.id).toBeDefined();
      const got = delivered(start);
      expect(got).toHaveLength(1);
      expect(got[0]?.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(got[0]?.headers['x-initialization-vector']).toBeUndefined();
      expect(JSON.parse(got[0]!.body)).toMatchObject({
        type: 'PAYMENT',
        payload: { paymentType: 'DB', amount: '4.00' },
      });
    });

    it('stops sending to a deleted webhook', async () => {
      const hook = await register(m, { url: receiver.url, key: KEY });
      receiver.answerWith(500);
      await pay({ amount: '1.00', paymentType: 'DB', ...VISA_CARD });
      await gw.webhooks.runOnce();
      expect((await admin('DELETE', `/admin/v1/merchants/${m.merchantId}/webhooks/${hook.id}`)).status).toBe(
        200,
      );
      const start = receiver.received.length;
      receiver.answerWith(200);
      await pay({ amount: '2.00', paymentType: 'DB', ...VISA_CARD });
      clock.advance(HOUR);
      await gw.webhooks.runOnce();
      expect(receiver.received.length).toBe(start);
      const log = await admin(
        'GET',
        `/admin/v1/merchants/${m.merchantId}/webhook-deliveries?webhookId=${hook.id}&status=dead`,
      );
      expect(log.body.deliveries[0]).toMatchObject({ status: 'dead', lastError: 'webhook deleted' });
    });
  });

  describe('retries', () => {
    it('retries on the schedule of the decisions for 30 days, then dead-letters; a redelivery delivers it', async () => {
      const hook = await register(m, { url: receiver.url, key: KEY });
      receiver.answerWith(503);
      const res = await pay({ amount: '7.00', paymentType: 'DB', ...VISA_CARD });
      const created = clock.now().getTime();
      const start = receiver.received.length;
      const [delivery] = await gw.store.listDeliveries(m.merchantId, { webhookId: hook.id, limit: 1 });
      const path = `/admin/v1/merchants/${m.merchantId}/webhook-deliveries/${delivery!.seq}`;

      const expectedWaits = [1, 2, 4, 8, 15, 30, 60, 120, 240, 480].map((n) => n * MINUTE);
      const attempts: number[] = [];
      await gw.webhooks.runOnce();
      attempts.push(clock.now().getTime());
      for (;;) {
        const shown = (await admin('GET', path)).body;
        if (shown.status === 'dead') break;
        const due = Date.parse(shown.nextAttemptAt);
        const wait = due - clock.now().getTime();
        expect(wait).toBe(expectedWaits[attempts.length - 1] ?? 12 * HOUR);
        // not a moment before it is due
        clock.advance(wait - 1000);
        const before = receiver.received.length;
        await gw.webhooks.runOnce();
        expect(receiver.received.length).toBe(before);
        clock.advance(1000);
        await gw.webhooks.runOnce();
        expect(receiver.received.length).toBe(before + 1);
        attempts.push(clock.now().getTime());
      }
      // 1 + 10 growing waits (16 h in all) + every 12 h up to 30 days: 58 more
      expect(attempts).toHaveLength(69);
      expect(attempts.at(-1)! - created).toBeLessThanOrEqual(30 * 24 * HOUR);
      expect(attempts.at(-1)! + 12 * HOUR - created).toBeGreaterThan(30 * 24 * HOUR);
      expect(receiver.received.length - start).toBe(69);
      const dead = (await admin('GET', path)).body;
      expect(dead).toMatchObject({
        status: 'dead',
        attempts: 69,
        lastStatus: 503,
        lastError: 'answered HTTP 503',
      });
      expect(decrypt(KEY, receiver.received.at(-1)!).payload.id).toBe(res.body.id);

      // only a dead one can be redelivered; this one now goes at once
      receiver.answerWith(200);
      expect((await admin('POST', `${path}/redeliver`)).status).toBe(200);
      expect((await admin('POST', `${path}/redeliver`)).status).toBe(400);
      await gw.webhooks.runOnce();
      expect((await admin('GET', path)).body).toMatchObject({
        status: 'delivered',
        attempts: 1,
        lastStatus: 200,
      });
      expect(decrypt(KEY, receiver.received.at(-1)!).payload.id).toBe(res.body.id);
    });
  });

  describe('notificationUrl (deprecated)', () => {
    it('is a GET with id and resourcePath, for payments and for checkout payments', async () => {
      const start = receiver.received.length;
      const res = await pay({
        amount: '8.00',
        paymentType: 'DB',
        notificationUrl: `${receiver.url}/notify?shop=1`,
        ...VISA_CARD,
      });
      const checkout = await gw.post(
        '/v1/checkouts',
        {
          entityId: m.entityId,
          amount: '9.00',
          currency: 'EUR',
          paymentType: 'DB',
          notificationUrl: `${receiver.url}/notify`,
        },
        { token: m.token },
      );
      const submitted = await gw.post(`/v1/checkouts/${checkout.body.id}/payment`, { ...VISA_CARD });
      expect(submitted.body.result.code).toBe('000.100.110');
      await drain(m);
      const gets = receiver.received.slice(start).filter((r) => r.method === 'GET');
      expect(gets.map((r) => r.url)).toEqual([
        `/notify?shop=1&id=${res.body.id}&resourcePath=${encodeURIComponent(`/v1/payments/${res.body.id}`)}`,
        `/notify?id=${encodeURIComponent(checkout.body.id)}&resourcePath=${encodeURIComponent(`/v1/checkouts/${checkout.body.id}/payment`)}`,
      ]);
    });
  });

  describe('chargebacks', () => {
    it('books a CB against a capture and a CR reversing it: in query, webhooks and linked transactions', async () => {
      await register(m, { url: receiver.url, key: KEY });
      const pa = await pay({
        amount: '30.00',
        paymentType: 'PA',
        merchantTransactionId: 'order-cb-01',
        ...VISA_CARD,
      });
      const cp = await reference(pa.body.id, { amount: '30.00', paymentType: 'CP' });
      await drain(m);
      const start = receiver.received.length;
      const base = `/admin/v1/merchants/${m.merchantId}/payments`;

      // refusals first: a PA, too much, a bad reason code
      expect((await admin('POST', `${base}/${pa.body.id}/chargebacks`, {})).body.result.code).toBe(
        '700.100.700',
      );
      expect(
        (await admin('POST', `${base}/${cp.body.id}/chargebacks`, { amount: '30.01' })).body.result.code,
      ).toBe('700.100.300');
      const badCode = await admin('POST', `${base}/${cp.body.id}/chargebacks`, {
        chargebackResultCode: '000.100.3',
      });
      expect(badCode.status).toBe(400);
      expect(badCode.body.result.description).toContain('chargebackResultCode');
      expect((await admin('POST', `${base}/nope/chargebacks`, {})).status).toBe(404);

      const cb = await admin('POST', `${base}/${cp.body.id}/chargebacks`, {
        amount: '20.00',
        chargebackResultCode: '000.100.220',
      });
      expect(cb.status).toBe(200);
      expect(cb.body).toMatchObject({
        paymentType: 'CB',
        amount: '20.00',
        currency: 'EUR',
        referencedId: cp.body.id,
        chargebackResultCode: '000.100.220',
        result: { code: '000.100.220', description: 'Fraudulent Transaction' },
      });
      clock.advance(1000);
      // 10.00 left to charge back
      expect((await admin('POST', `${base}/${cp.body.id}/chargebacks`, { amount: '10.01' })).status).toBe(
        400,
      );
      const cr = await admin('POST', `${base}/${cb.body.id}/chargeback-reversals`);
      expect(cr.body).toMatchObject({
        paymentType: 'CR',
        amount: '20.00',
        referencedId: cp.body.id,
        chargebackId: cb.body.id,
        result: { code: '000.100.110' },
      });
      expect((await admin('POST', `${base}/${cb.body.id}/chargeback-reversals`)).body.result.code).toBe(
        '700.300.300',
      );
      clock.advance(1000);
      // reversed: the whole capture can be charged back again
      expect((await admin('POST', `${base}/${cp.body.id}/chargebacks`, { amount: '30.00' })).status).toBe(
        200,
      );

      // query: by type, and linked to the capture
      const byType = await gw.get(
        '/v1/query',
        { entityId: m.entityId, merchantTransactionId: 'order-cb-01', paymentTypes: 'CB,CR' },
        { token: m.token },
      );
      expect(byType.body.payments.map((p: Json) => p.paymentType)).toEqual(['CB', 'CR', 'CB']);
      const linked = await gw.get(
        `/v1/query/${cp.body.id}`,
        { entityId: m.entityId, includeLinkedTransactions: 'true' },
        { token: m.token },
      );
      const ids = linked.body.payments.map((p: Json) => p.id);
      expect(ids).toEqual(expect.arrayContaining([pa.body.id, cp.body.id, cb.body.id]));

      // webhooks
      await drain(m);
      const got = delivered(start).map((r) => decrypt(KEY, r));
      expect(got.map((n) => n.payload.paymentType)).toEqual(['CB', 'CR', 'CB']);
      expect(got[0].payload).toMatchObject({
        id: cb.body.id,
        referencedId: cp.body.id,
        result: { code: '000.100.220' },
      });
    });

    it('leaves only what is not charged back to refund, until the chargeback is reversed', async () => {
      const db = await pay({ amount: '50.00', paymentType: 'DB', ...VISA_CARD });
      const base = `/admin/v1/merchants/${m.merchantId}/payments`;
      const cb = await admin('POST', `${base}/${db.body.id}/chargebacks`, { amount: '20.00' });
      expect(cb.status).toBe(200);
      expect((await reference(db.body.id, { amount: '30.01', paymentType: 'RF' })).body.result.code).toBe(
        '700.400.200',
      );
      expect((await reference(db.body.id, { amount: '10.00', paymentType: 'RF' })).body.result.code).toBe(
        '000.100.110',
      );
      expect((await admin('POST', `${base}/${cb.body.id}/chargeback-reversals`)).status).toBe(200);
      expect((await reference(db.body.id, { amount: '40.00', paymentType: 'RF' })).body.result.code).toBe(
        '000.100.110',
      );
    });

    it('the acquirer simulator raises one too, on test-mode payments only', async () => {
      const db = await pay({ amount: '12.00', paymentType: 'DB', ...VISA_CARD });
      clock.advance(1000); // the query lists by time: the CB after its DB
      const raised = await gw.post('/simulators/acquirer/chargebacks', {
        entityId: m.entityId,
        id: db.body.id,
        chargebackResultCode: '000.100.221',
      });
      expect(raised.status).toBe(200);
      expect(raised.body).toMatchObject({
        paymentType: 'CB',
        amount: '12.00',
        referencedId: db.body.id,
        result: { code: '000.100.221' },
      });
      const linked = await gw.get(
        `/v1/query/${db.body.id}`,
        { entityId: m.entityId, includeLinkedTransactions: 'true' },
        { token: m.token },
      );
      expect(linked.body.payments.map((p: Json) => p.paymentType)).toEqual(['DB', 'CB']);
      // nothing left to charge back; an unknown payment or another entity's: 404
      expect(
        (await gw.post('/simulators/acquirer/chargebacks', { entityId: m.entityId, id: db.body.id })).body
          .result.code,
      ).toBe('700.100.300');
      const other = await gw.addMerchant({ channels: 1 });
      expect(
        (await gw.post('/simulators/acquirer/chargebacks', { entityId: other.entityId, id: db.body.id }))
          .status,
      ).toBe(404);
      expect(
        (await gw.post('/simulators/acquirer/chargebacks', { entityId: m.entityId, id: 'nope' })).status,
      ).toBe(404);
    });
  });
});
