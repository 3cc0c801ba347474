/**
 * A payment with createRegistration=true whose answer was lost, ended by Adyen's notification
 * (issue 32/33): Adyen's Checkout API cannot be asked by reference, so the payment's
 * AUTHORISATION ends it, and the card Adyen stored along (`tokenization.storedPaymentMethodId`
 * in its additionalData) becomes the payment's registration exactly as the inquiry's end makes
 * it: the payment answers its registrationId, the registration is usable with the stored card
 * (on a routed channel at the route that stored it), one REGISTRATION CREATED however often the
 * notification comes. An AUTHORISATION naming no stored card ends the payment without one.
 * Against the fake of Adyen, through the live address; the answer is lost by holding it past
 * the connector's 5 s timeout (the fake's holdNextAnswer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signItem } from '../../test-kit/fakes/adyen/notifications';
import { ADYEN_VISA, type AdyenWorld, adyenWorld } from '../../test-kit/fakes/adyen/world';
import { refusingAddress } from '../../test-kit/fakes/stripe';
import { LIVE_BASE, type TestGateway, type TestMerchant } from '../../test-kit/gateway';
import { storedWebhook, toldAbout } from '../../test-kit/webhooks';

let world: AdyenWorld;
let gw: TestGateway;
let merchant: TestMerchant;
/** A channel of two routes: the first refuses the connection, so payments fall back to the second. */
let routed: TestMerchant;

const addressOf = (entityId: string) => `${LIVE_BASE}/connectors/adyen/notifications/${entityId}`;

beforeAll(async () => {
  world = await adyenWorld({ webhooks: { autoStart: false } });
  gw = world.gateway;
  merchant = world.merchant;
  routed = await gw.addMerchant({
    channels: 1,
    mode: 'LIVE',
    settings: {
      routes: [
        { connector: world.settings(`${await refusingAddress()}/checkout/v71`) },
        { connector: world.settings() },
      ],
    },
  });
  for (const m of [merchant, routed])
    await gw.store.insertWebhook(storedWebhook(m.merchantId, { types: ['PAYMENT', 'REGISTRATION'] }));
  world.fake.notifyTo(addressOf(merchant.entityId));
  world.fake.deliverThrough((url, init) => gw.live.app.request(url, init));
}, 120_000);
afterAll(async () => {
  await world?.cleanup();
});

const pay = (as: TestMerchant) =>
  gw.live.post(
    '/v1/payments',
    {
      entityId: as.entityId,
      ...ADYEN_VISA,
      amount: '12.00',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
    },
    { token: as.token },
  );
const query = (id: string, as: TestMerchant) =>
  gw.live.get(`/v1/query/${id}`, { entityId: as.entityId }, { token: as.token });
const readRegistration = (id: string, as: TestMerchant) =>
  gw.live.get(`/v1/registrations/${id}`, { entityId: as.entityId }, { token: as.token });
const payWith = (id: string, as: TestMerchant) =>
  gw.live.post(
    `/v1/registrations/${id}/payments`,
    { entityId: as.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
    { token: as.token },
  );
const notify = (body: string, as: TestMerchant) =>
  gw.live.send('POST', `/connectors/adyen/notifications/${as.entityId}`, body, {
    headers: { 'Content-Type': 'application/json' },
  });

/** What the merchant's webhook is told about `id`: `type action code` per notification, in order. */
const told = (id: string, as: TestMerchant) => toldAbout(gw, as.merchantId, id, { withType: true });

/** Every REGISTRATION notification the merchant's webhook is told. */
async function registrationsTold(as: TestMerchant): Promise<string[]> {
  const deliveries = await gw.store.listDeliveries(as.merchantId, { limit: 500 });
  return deliveries
    .map((d) => d.notification as unknown as { type: string; action?: string; payload: { id: string } })
    .filter((n) => n.type === 'REGISTRATION')
    .map((n) => `${n.action} ${n.payload.id}`);
}

const itemOf = (body: string): Record<string, unknown> =>
  JSON.parse(body).notificationItems[0].NotificationRequestItem;
const aboutId = (id: string): string[] =>
  world.fake.outbox.filter((body) => itemOf(body).merchantReference === id);

/**
 * A payment whose answer is lost (held past the connector's timeout) while Adyen's notification
 * of it is not delivered yet (the endpoint unreachable: Adyen queues it); pending.
 */
async function lostPayment(as: TestMerchant): Promise<string> {
  world.fake.notifyTo(undefined);
  world.fake.holdNextAnswer(5_500);
  const pending = await pay(as);
  expect(pending.body.result.code, pending.text).toBe('000.200.000');
  expect(pending.body.registrationId).toBeUndefined();
  world.fake.notifyTo(addressOf(as.entityId));
  return pending.body.id as string;
}

/** Adyen sends notification `body` again (it retries until it reads [accepted]), `times` times. */
async function redeliver(body: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) world.fake.redeliver(world.fake.outbox.indexOf(body));
  await world.fake.settled();
}

/** The stored card of the AUTHORISATION of payment `id` (the fake's), and that notification. */
function authorisationOf(id: string): { body: string; stored: string } {
  const body = aboutId(id).find((b) => itemOf(b).eventCode === 'AUTHORISATION') ?? '';
  const item = itemOf(body);
  expect(item).toMatchObject({ eventCode: 'AUTHORISATION', success: 'true', merchantReference: id });
  const stored = (item.additionalData as Record<string, string>)['tokenization.storedPaymentMethodId'];
  expect(stored).toMatch(/^[0-9A-Z]{16}$/);
  return { body, stored: stored ?? '' };
}

/** The registration is usable: a payment with it reaches Adyen with the card Adyen stored. */
async function paidWithStored(registrationId: string, stored: string, as: TestMerchant): Promise<void> {
  const paid = await payWith(registrationId, as);
  expect(paid.body.result.code, paid.text).toBe('000.000.000');
  const sent = world.fake.received.filter((r) => r.path === '/payments').at(-1)?.body as {
    paymentMethod: Record<string, string>;
  };
  expect(sent.paymentMethod.storedPaymentMethodId).toBe(stored);
}

describe('an Adyen payment with createRegistration=true whose answer was lost', () => {
  it('its AUTHORISATION, sent three times, ends it with its registration: usable with the stored card, one REGISTRATION CREATED', async () => {
    const id = await lostPayment(merchant);
    const { body, stored } = authorisationOf(id);
    await redeliver(body, 3);
    expect(world.fake.deliveries.slice(-3).map((d) => [d.status, d.answer])).toEqual(
      Array(3).fill([200, '[accepted]']),
    );
    const ended = await query(id, merchant);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    const registrationId: string = ended.body.registrationId;
    expect(registrationId, ended.text).toMatch(/^[0-9a-f]{32}$/);
    const registration = await readRegistration(registrationId, merchant);
    expect([registration.status, registration.body.result.code], registration.text).toEqual([
      200,
      '000.000.000',
    ]);
    expect(await told(id, merchant)).toEqual(['PAYMENT CREATED 000.200.000', 'PAYMENT UPDATED 000.000.000']);
    expect(await told(registrationId, merchant)).toEqual(['REGISTRATION CREATED 000.000.000']);
    await paidWithStored(registrationId, stored, merchant);
    // the pending-payments worker has nothing more to ask about it
    await gw.pending.runOnce();
    expect(await told(registrationId, merchant)).toEqual(['REGISTRATION CREATED 000.000.000']);
  });

  it('told before the payment is written: waits, then the sweep ends it with its registration, once', async () => {
    world.fake.holdNextAnswer(5_500);
    const pending = await pay(merchant);
    expect(pending.body.result.code, pending.text).toBe('000.200.000');
    const id: string = pending.body.id;
    await world.fake.settled();
    const { body, stored } = authorisationOf(id);
    expect((await query(id, merchant)).body.result.code).toBe('000.200.000');
    await gw.notices.runOnce();
    await redeliver(body, 2);
    await gw.notices.runOnce();
    const ended = await query(id, merchant);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    const registrationId: string = ended.body.registrationId;
    expect(registrationId, ended.text).toMatch(/^[0-9a-f]{32}$/);
    expect(await told(registrationId, merchant)).toEqual(['REGISTRATION CREATED 000.000.000']);
    await paidWithStored(registrationId, stored, merchant);
  });

  it('on a routed channel the registration is held by the route that stored the card, and paid with there', async () => {
    const id = await lostPayment(routed);
    const { body, stored } = authorisationOf(id);
    await redeliver(body, 3);
    const ended = await query(id, routed);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    const registrationId: string = ended.body.registrationId;
    expect(registrationId, ended.text).toMatch(/^[0-9a-f]{32}$/);
    expect(await told(registrationId, routed)).toEqual(['REGISTRATION CREATED 000.000.000']);
    // untagged, it would go to the first route, which refuses the connection
    await paidWithStored(registrationId, stored, routed);
  });

  it('an AUTHORISATION naming no stored card ends the payment without a registration (none it could be paid with)', async () => {
    const id = await lostPayment(merchant);
    const before = await registrationsTold(merchant);
    const bare = JSON.stringify({
      live: 'false',
      notificationItems: [
        {
          NotificationRequestItem: signItem(
            {
              amount: { value: 1200, currency: 'EUR' },
              eventDate: '2026-12-01T12:00:00+00:00',
              merchantAccountCode: world.fake.merchantAccount,
              reason: '',
              eventCode: 'AUTHORISATION',
              success: 'true',
              pspReference: 'NOSTOREDCARD0002',
              merchantReference: id,
            },
            world.fake.hmacKey,
          ),
        },
      ],
    });
    for (let i = 0; i < 3; i++) expect((await notify(bare, merchant)).text).toBe('[accepted]');
    const ended = await query(id, merchant);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    expect(ended.body.registrationId, ended.text).toBeUndefined();
    expect(await told(id, merchant)).toEqual(['PAYMENT CREATED 000.200.000', 'PAYMENT UPDATED 000.000.000']);
    expect(await registrationsTold(merchant)).toEqual(before);
  });
});
