/**
 * A Stripe payment with createRegistration=true whose answer was lost, ended by Stripe's signed
 * `payment_intent.succeeded` (issue 32/33): the PaymentIntent was made with a customer of the
 * gateway's and `setup_future_usage`, so its customer and `payment_method` are the card Stripe
 * stored along, and the payment's end keeps that registration exactly as the inquiry's end does:
 * the payment answers its registrationId, a payment with it reaches Stripe with that customer and
 * card, one REGISTRATION CREATED however often the event comes. An event of the same
 * PaymentIntent without the stored card (no `setup_future_usage`) ends it without one. The
 * answer is lost on the way back: a proxy in front of the fake of Stripe forwards the
 * PaymentIntent's creation and drops the connection instead of its answer (the SDK's retry too).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type StripeFake,
  startStripeFake,
  stripeSettings,
  TEST_WEBHOOK_SECRET,
} from '../../test-kit/fakes/stripe';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { LIVE_BASE, type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { storedWebhook, toldAbout } from '../../test-kit/webhooks';

let fake: StripeFake;
let gw: TestGateway;
let merchant: TestMerchant;
let proxy: http.Server;
/** While set, the answers of POST /v1/payment_intents are dropped (Stripe made it; the gateway never hears). */
let losing = false;

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** A proxy to the fake that loses what `losing` says, forwarding everything else as it came. */
async function losingProxy(target: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers[name] = value;
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        ...(req.method === 'GET' ? {} : { body }),
      });
      const text = await answer.text();
      if (losing && req.method === 'POST' && req.url === '/v1/payment_intents') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const webhook = () => ({
  url: `${LIVE_BASE}/connectors/stripe/notifications/${merchant.entityId}`,
  secret: TEST_WEBHOOK_SECRET,
  through: (url: string, init: RequestInit) => gw.live.app.request(url, init),
});

beforeAll(async () => {
  fake = await startStripeFake();
  proxy = await losingProxy(fake.baseUrl);
  gw = await testGateway({ webhooks: { autoStart: false } });
  merchant = await gw.addMerchant({
    channels: 1,
    mode: 'LIVE',
    settings: {
      connector: stripeSettings(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`),
    },
  });
  await gw.store.insertWebhook(storedWebhook(merchant.merchantId, { types: ['PAYMENT', 'REGISTRATION'] }));
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy === undefined ? resolve() : proxy.close(() => resolve())));
  await fake?.close();
});

const post = (path: string, params: Record<string, string>) =>
  gw.live.post(path, { entityId: merchant.entityId, ...params }, { token: merchant.token });
const get = (path: string) => gw.live.get(path, { entityId: merchant.entityId }, { token: merchant.token });

/** What the merchant's webhook is told about `id`: `type action code` per notification, in order. */
const told = (id: string) => toldAbout(gw, merchant.merchantId, id, { withType: true });

/** Every REGISTRATION notification the merchant's webhook is told. */
async function registrationsTold(): Promise<string[]> {
  const deliveries = await gw.store.listDeliveries(merchant.merchantId, { limit: 500 });
  return deliveries
    .map((d) => d.notification as unknown as { type: string; action?: string; payload: { id: string } })
    .filter((n) => n.type === 'REGISTRATION')
    .map((n) => `${n.action} ${n.payload.id}`);
}

type StripeEvent = { type: string; data: { object: Record<string, unknown> } };

/**
 * A DB with createRegistration=true whose answer is lost while Stripe's events are not delivered
 * (the endpoint unreachable: Stripe retries later); pending, with its payment_intent.succeeded.
 */
async function lostPayment(): Promise<{ id: string; event: StripeEvent }> {
  fake.setWebhook(undefined);
  losing = true;
  const before = fake.events.length;
  let pending: Awaited<ReturnType<typeof post>>;
  try {
    pending = await post('/v1/payments', {
      ...VISA_CARD,
      'card.number': '4242424242424242',
      amount: '18.00',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
    });
  } finally {
    losing = false;
    fake.setWebhook(webhook());
  }
  expect(pending.body.result.code, pending.text).toBe('000.200.000');
  expect(pending.body.registrationId).toBeUndefined();
  const event = fake.events.slice(before).find((e) => e.type === 'payment_intent.succeeded') as
    | StripeEvent
    | undefined;
  expect(event?.data.object).toMatchObject({ setup_future_usage: 'off_session', status: 'succeeded' });
  return { id: pending.body.id as string, event: event as StripeEvent };
}

describe('a Stripe payment with createRegistration=true whose answer was lost', () => {
  it('payment_intent.succeeded, sent three times, ends it with its registration: paid with at Stripe, one REGISTRATION CREATED', async () => {
    const { id, event } = await lostPayment();
    const intent = event.data.object;
    for (let i = 0; i < 3; i++) expect(await fake.deliver(event as never)).toBe(200);
    const ended = await get(`/v1/query/${id}`);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    const registrationId: string = ended.body.registrationId;
    expect(registrationId, ended.text).toMatch(/^[0-9a-f]{32}$/);
    const registration = await get(`/v1/registrations/${registrationId}`);
    expect([registration.status, registration.body.result.code], registration.text).toEqual([
      200,
      '000.000.000',
    ]);
    expect(await told(id)).toEqual(['PAYMENT CREATED 000.200.000', 'PAYMENT UPDATED 000.000.000']);
    expect(await told(registrationId)).toEqual(['REGISTRATION CREATED 000.000.000']);
    // usable: a payment with it names the customer and the card Stripe stored
    const paid = await post(`/v1/registrations/${registrationId}/payments`, {
      amount: '6.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(paid.body.result.code, paid.text).toBe('000.000.000');
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').at(-1);
    expect(sent?.form).toMatchObject({ customer: intent.customer, payment_method: intent.payment_method });
    await gw.pending.runOnce();
    expect(await told(registrationId)).toEqual(['REGISTRATION CREATED 000.000.000']);
  });

  it('its inquiry, before any event, keeps the registration the same way (the one end of both)', async () => {
    const { id, event } = await lostPayment();
    // first asked INQUIRY_FIRST_MS (5 s) after it was sent
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    await gw.pending.runOnce();
    const ended = await get(`/v1/query/${id}`);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    const registrationId: string = ended.body.registrationId;
    expect(registrationId, ended.text).toMatch(/^[0-9a-f]{32}$/);
    // Stripe's event, late: nothing more changes
    for (let i = 0; i < 2; i++) expect(await fake.deliver(event as never)).toBe(200);
    expect(await told(id)).toEqual(['PAYMENT CREATED 000.200.000', 'PAYMENT UPDATED 000.000.000']);
    expect(await told(registrationId)).toEqual(['REGISTRATION CREATED 000.000.000']);
    const paid = await post(`/v1/registrations/${registrationId}/payments`, {
      amount: '7.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(paid.body.result.code, paid.text).toBe('000.000.000');
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').at(-1);
    expect(sent?.form).toMatchObject({
      customer: event.data.object.customer,
      payment_method: event.data.object.payment_method,
    });
  }, 20_000);

  it('an event naming no stored card (no setup_future_usage) ends the payment without a registration', async () => {
    const { id, event } = await lostPayment();
    const before = await registrationsTold();
    const bare = {
      ...event,
      id: `${(event as unknown as { id: string }).id}_bare`,
      data: { ...event.data, object: { ...event.data.object, setup_future_usage: null } },
    };
    for (let i = 0; i < 3; i++) expect(await fake.deliver(bare as never)).toBe(200);
    const ended = await get(`/v1/query/${id}`);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    expect(ended.body.registrationId, ended.text).toBeUndefined();
    expect(await told(id)).toEqual(['PAYMENT CREATED 000.200.000', 'PAYMENT UPDATED 000.000.000']);
    expect(await registrationsTold()).toEqual(before);
  });
});
