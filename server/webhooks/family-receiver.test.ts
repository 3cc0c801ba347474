/**
 * Acceptance: a merchant's backend written for the API family receives this gateway's
 * notifications unchanged. The receiver below is self-contained, as such a backend is (node:http
 * and node:crypto only, nothing of the gateway): it decrypts the hex body with AES-256-GCM, the IV
 * and the tag from the X-Initialization-Vector and X-Authentication-Tag headers, and dispatches on
 * `type` (`test` in lower case; `PAYMENT` and `REGISTRATION` by `action`), answering 200 only for
 * what it understood. Through the real gateway: the webhook is registered with the admin API (its
 * test notification must be accepted), then a payment, a capture, a pending payment and its end,
 * a registration made along with a payment and its deletion go through the HTTP API, and the
 * dispatcher delivers every notification, in order. REGISTRATION payloads equal the API's answer.
 */
import { createDecipheriv } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeClock, fakeClock } from '../test-kit/clock';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { ADMIN_TOKEN } from '../test-kit/fixtures/tokens';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { deliverPending, WEBHOOKS_DRIVEN } from '../test-kit/webhooks';

/** The merchant's secret, as its backend is configured with it. */
const SECRET = '3F2A1B0C9D8E7F60514233241506F7E8D9CABBAC9D8E7F6051423324150617F8';

// biome-ignore lint/suspicious/noExplicitAny: a notification is read field by field, as a receiver does
type Notification = { type: string; action?: string; payload: any };

/** What the merchant's backend saw, in the order it handled it. */
interface Handled {
  readonly kind: string;
  readonly notification: Notification;
}

/**
 * The family's receiver: decrypt, then dispatch. Anything it cannot decrypt or does not know is
 * answered 500, so the gateway would try again (and the test would see it pending).
 */
async function familyReceiver(secretHex: string) {
  const handled: Handled[] = [];
  const refused: string[] = [];

  function decrypt(body: string, ivHex: string, tagHex: string): Notification {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(secretHex, 'hex'),
      Buffer.from(ivHex, 'hex'),
    );
    decipher.setAuthTag(Buffer.from(tagHex, 'hex'));
    const text = decipher.update(body, 'hex', 'utf8') + decipher.final('utf8');
    return JSON.parse(text) as Notification;
  }

  /** The dispatch: true when the notification was one the shop handles. */
  function dispatch(n: Notification): boolean {
    if (n.type === 'test') {
      handled.push({ kind: 'test', notification: n });
      return true;
    }
    if (n.type === 'PAYMENT') {
      switch (n.action) {
        case 'CREATED':
          handled.push({ kind: 'payment created', notification: n });
          return true;
        case 'UPDATED':
          handled.push({ kind: 'payment updated', notification: n });
          return true;
        default:
          return false;
      }
    }
    if (n.type === 'REGISTRATION') {
      switch (n.action) {
        case 'CREATED':
          handled.push({ kind: 'registration created', notification: n });
          return true;
        case 'UPDATED':
          handled.push({ kind: 'registration updated', notification: n });
          return true;
        case 'DELETED':
          handled.push({ kind: 'registration deleted', notification: n });
          return true;
        default:
          return false;
      }
    }
    return false;
  }

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const iv = req.headers['x-initialization-vector'];
      const tag = req.headers['x-authentication-tag'];
      let ok = false;
      try {
        ok =
          req.method === 'POST' &&
          typeof iv === 'string' &&
          typeof tag === 'string' &&
          dispatch(decrypt(body, iv, tag));
      } catch (error) {
        refused.push(String(error));
      }
      if (!ok) refused.push(`${req.method} ${req.url}`);
      res.writeHead(ok ? 200 : 500, { 'Content-Type': 'text/plain' }).end(ok ? 'OK' : 'not handled');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/payment/notifications`,
    handled,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("the family's notification receiver, against the real gateway", () => {
  let clock: FakeClock;
  let gw: TestGateway;
  let m: TestMerchant;
  let receiver: Awaited<ReturnType<typeof familyReceiver>>;

  const api = (method: string, path: string, params: Record<string, string> = {}) =>
    method === 'GET' || method === 'DELETE'
      ? gw.send(method, `${path}?${new URLSearchParams({ entityId: m.entityId, ...params })}`, undefined, {
          token: m.token,
        })
      : gw.post(path, { entityId: m.entityId, ...params }, { token: m.token });

  /** The dispatcher's rounds, a minute of fake time apart, until nothing is pending. */
  async function deliverAll(): Promise<void> {
    if (await deliverPending(gw, clock, m.merchantId, 20)) return;
    throw new Error(`notifications still pending; the receiver refused: ${receiver.refused.join(', ')}`);
  }

  /** What the receiver handled since the last step, as [kind, id]: one step's notifications. */
  let mark = 0;
  const newlyHandled = () => {
    const got = receiver.handled
      .slice(mark)
      .map(({ kind, notification: { payload } }) => [kind, kind === 'test' ? payload.webhookId : payload.id]);
    mark = receiver.handled.length;
    return got;
  };

  /** An answer without what differs from one answer to the next (the envelope's time and build). */
  const withoutEnvelope = ({ buildNumber: _b, timestamp: _t, ...rest }: Record<string, unknown>) => rest;

  beforeAll(async () => {
    clock = fakeClock();
    receiver = await familyReceiver(SECRET);
    gw = await testGateway({
      clock,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
      ...WEBHOOKS_DRIVEN,
    });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(async () => {
    await gw?.cleanup();
    await receiver?.close();
  });

  it('registers (the test notification accepted) and receives every notification, in order', async () => {
    const registered = await gw.send(
      'POST',
      `/admin/v1/merchants/${m.merchantId}/webhooks`,
      JSON.stringify({ url: receiver.url, key: SECRET }),
      { headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' } },
    );
    expect(registered.status, registered.text).toBe(201);
    expect(newlyHandled()).toEqual([['test', registered.body.id]]);

    // a payment and its capture
    const pa = await api('POST', '/v1/payments', {
      amount: '40.00',
      currency: 'EUR',
      paymentType: 'PA',
      ...VISA_CARD,
    });
    expect(pa.status, pa.text).toBe(200);
    await deliverAll();
    expect(newlyHandled()).toEqual([['payment created', pa.body.id]]);
    const cp = await api('POST', `/v1/payments/${pa.body.id}`, {
      amount: '40.00',
      currency: 'EUR',
      paymentType: 'CP',
    });
    expect(cp.status, cp.text).toBe(200);
    await deliverAll();
    expect(newlyHandled()).toEqual([['payment created', cp.body.id]]);

    // a pending payment (a redirect method), ended by the shopper's approval
    const pending = await api('POST', '/v1/payments', {
      amount: '15.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: 'PAYPAL',
      shopperResultUrl: 'https://shop.example/return',
    });
    expect(pending.body.result.code).toBe('000.200.000');
    await deliverAll();
    expect(newlyHandled()).toEqual([['payment created', pending.body.id]]);
    const session = pending.body.redirect.parameters[0].value as string;
    const approved = await gw.post('/simulators/redirect/answer', { session, action: 'approve' });
    expect(approved.status, approved.text).toBe(303);
    await deliverAll();
    expect(newlyHandled()).toEqual([['payment updated', pending.body.id]]);

    // a registration made along with a payment, then deleted
    const db = await api('POST', '/v1/payments', {
      amount: '9.99',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
      ...VISA_CARD,
    });
    expect(db.status, db.text).toBe(200);
    const registrationId = db.body.registrationId as string;
    await deliverAll();
    // one request, two changes with queues of their own (the payment's, the registration's)
    expect(newlyHandled().sort()).toEqual([
      ['payment created', db.body.id],
      ['registration created', registrationId],
    ]);
    const read = await api('GET', `/v1/registrations/${registrationId}`);
    expect(read.status, read.text).toBe(200);
    const deleted = await api('DELETE', `/v1/registrations/${registrationId}`);
    expect(deleted.status, deleted.text).toBe(200);
    await deliverAll();
    expect(newlyHandled()).toEqual([['registration deleted', registrationId]]);

    expect(receiver.refused).toEqual([]);
    const [, paid, captured, started, ended] = receiver.handled.map((h) => h.notification);
    const of = (kind: string) => receiver.handled.find((h) => h.kind === kind)!.notification;
    const debit = receiver.handled.find((h) => h.notification.payload.id === db.body.id)!.notification;
    const [created, gone] = [of('registration created'), of('registration deleted')];
    expect(paid!.payload).toMatchObject({
      paymentType: 'PA',
      result: { code: '000.100.110' },
      ndc: pa.body.ndc,
    });
    expect(captured!.payload).toMatchObject({
      paymentType: 'CP',
      referencedId: pa.body.id,
      ndc: cp.body.ndc,
    });
    expect(started!.payload.result.code).toBe('000.200.000');
    expect(ended!.payload).toMatchObject({ paymentBrand: 'PAYPAL', result: { code: '000.100.110' } });
    expect(debit!.payload).toMatchObject({ registrationId, ndc: db.body.ndc });

    // REGISTRATION payloads are the API's answer for the registration: what its read shows, and
    // the ndc of the request that made it (here the payment's)
    const { ndc: _readNdc, ...answered } = withoutEnvelope(read.body);
    for (const n of [created!, gone!]) {
      const { ndc, ...payload } = withoutEnvelope(n.payload);
      expect(payload).toEqual(answered);
      expect(ndc).toBe(db.body.ndc);
    }
  });
});
