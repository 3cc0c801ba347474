/**
 * An Adyen registration whose answer was lost (issue 32/33), ended by Adyen's notifications:
 * the Checkout API cannot be asked by reference, so the AUTHORISATION of the registration's
 * zero-amount check (its stored card in `tokenization.*`) or its RECURRING_CONTRACT ends it, once,
 * through the inquiry's own end: usable with the stored card and REGISTRATION UPDATED, or refused
 * and never made. Against the fake of Adyen, through the live address; the answer is lost by
 * holding it past the connector's timeout (the fake's holdNextAnswer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signItem } from '../../test-kit/fakes/adyen/notifications';
import { ADYEN_DECLINED, ADYEN_VISA, type AdyenWorld, adyenWorld } from '../../test-kit/fakes/adyen/world';
import { LIVE_BASE, type TestGateway, type TestMerchant } from '../../test-kit/gateway';
import { storedWebhook, toldAbout } from '../../test-kit/webhooks';

let world: AdyenWorld;
let gw: TestGateway;
let merchant: TestMerchant;

const addressOf = (entityId: string) => `${LIVE_BASE}/connectors/adyen/notifications/${entityId}`;

beforeAll(async () => {
  world = await adyenWorld({ webhooks: { autoStart: false } });
  gw = world.gateway;
  merchant = world.merchant;
  await gw.store.insertWebhook(storedWebhook(merchant.merchantId, { types: ['REGISTRATION'] }));
  world.fake.notifyTo(addressOf(merchant.entityId));
  world.fake.deliverThrough((url, init) => gw.live.app.request(url, init));
}, 120_000);
afterAll(async () => {
  await world?.cleanup();
});

type Card = Readonly<Record<string, string>>;

const register = (card: Card, as = merchant) =>
  gw.live.post('/v1/registrations', { entityId: as.entityId, ...card }, { token: as.token });
const read = (id: string, as = merchant) =>
  gw.live.get(`/v1/registrations/${id}`, { entityId: as.entityId }, { token: as.token });
const payWith = (id: string, as = merchant) =>
  gw.live.post(
    `/v1/registrations/${id}/payments`,
    { entityId: as.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
    { token: as.token },
  );
const notify = (body: string, entityId = merchant.entityId) =>
  gw.live.send('POST', `/connectors/adyen/notifications/${entityId}`, body, {
    headers: { 'Content-Type': 'application/json' },
  });

/** What the merchant's webhook is told about `id`: `action code` per notification, in order. */
const told = (id: string, as = merchant) => toldAbout(gw, as.merchantId, id);

const itemOf = (body: string): Record<string, unknown> =>
  JSON.parse(body).notificationItems[0].NotificationRequestItem;

/** The fake's notifications about the gateway's `id` (its merchantReference), in order. */
const aboutId = (id: string): string[] =>
  world.fake.outbox.filter((body) => itemOf(body).merchantReference === id);

/**
 * A registration whose answer is lost (held past the connector's 5 s timeout) while Adyen's
 * notifications of it are not delivered yet (the endpoint unreachable: Adyen queues them); pending.
 */
async function lostRegistration(card: Card, as = merchant): Promise<string> {
  world.fake.notifyTo(undefined);
  world.fake.holdNextAnswer(5_500);
  const pending = await register(card, as);
  expect(pending.body.result.code, pending.text).toBe('000.200.000');
  world.fake.notifyTo(addressOf(as.entityId));
  return pending.body.id as string;
}

/** Adyen sends notification `body` again (it retries until it reads [accepted]), `times` times. */
async function redeliver(body: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) world.fake.redeliver(world.fake.outbox.indexOf(body));
  await world.fake.settled();
}

/** A notification signed as the fake's account signs them, of one item. */
function signed(item: Record<string, unknown>): string {
  return JSON.stringify({
    live: 'false',
    notificationItems: [
      {
        NotificationRequestItem: signItem(
          {
            amount: { value: 0, currency: 'EUR' },
            eventDate: '2026-12-01T12:00:00+00:00',
            merchantAccountCode: world.fake.merchantAccount,
            reason: '',
            ...item,
          },
          world.fake.hmacKey,
        ),
      },
    ],
  });
}

describe('an Adyen registration whose answer was lost', () => {
  it('its AUTHORISATION, sent three times, makes it usable with the stored card, one REGISTRATION UPDATED', async () => {
    const id = await lostRegistration(ADYEN_VISA);
    // not usable while pending: nothing sent to Adyen
    const early = await payWith(id);
    expect(early.body.result.code, early.text).toBe('100.150.201');
    const [authorisation] = aboutId(id);
    const item = itemOf(authorisation ?? '{}');
    expect(item).toMatchObject({ eventCode: 'AUTHORISATION', success: 'true', merchantReference: id });
    const stored = (item.additionalData as Record<string, string>)['tokenization.storedPaymentMethodId'];
    expect(stored).toMatch(/^[0-9A-Z]{16}$/);
    await redeliver(authorisation ?? '', 3);
    expect(world.fake.deliveries.slice(-3).map((d) => [d.status, d.answer])).toEqual(
      Array(3).fill([200, '[accepted]']),
    );
    expect((await read(id)).body.result.code).toBe('000.000.000');
    expect(await told(id)).toEqual(['CREATED 000.200.000', 'UPDATED 000.000.000']);
    // usable now, with the card Adyen stored (the fake refuses a stored id it never made)
    const paid = await payWith(id);
    expect(paid.body.result.code, paid.text).toBe('000.000.000');
    const sent = world.fake.received.filter((r) => r.path === '/payments').at(-1)?.body as {
      paymentMethod: Record<string, string>;
    };
    expect(sent.paymentMethod.storedPaymentMethodId).toBe(stored);
    // the pending-payments worker has nothing more to ask about it
    await gw.pending.runOnce();
    expect(await told(id)).toEqual(['CREATED 000.200.000', 'UPDATED 000.000.000']);
  });

  it('a refused one: AUTHORISATION false ends it as never made, once', async () => {
    const id = await lostRegistration(ADYEN_DECLINED);
    const [authorisation] = aboutId(id);
    expect(itemOf(authorisation ?? '{}')).toMatchObject({ eventCode: 'AUTHORISATION', success: 'false' });
    await redeliver(authorisation ?? '', 3);
    expect((await read(id)).body.result.code).toBe('800.100.152');
    expect(await told(id)).toEqual(['CREATED 000.200.000', 'UPDATED 800.100.152']);
    const payments = world.fake.received.length;
    const paid = await payWith(id);
    expect(paid.body.result.code, paid.text).toBe('100.150.200');
    expect(world.fake.received.length).toBe(payments);
  });

  it('told before the registration is written (AUTHORISATION and RECURRING_CONTRACT): waits, then the sweep ends it once', async () => {
    world.fake.tellRecurringContracts(true);
    try {
      world.fake.holdNextAnswer(5_500);
      const pending = await register(ADYEN_VISA);
      expect(pending.body.result.code, pending.text).toBe('000.200.000');
      const id: string = pending.body.id;
      await world.fake.settled();
      expect(aboutId(id).map((body) => itemOf(body).eventCode)).toEqual([
        'AUTHORISATION',
        'RECURRING_CONTRACT',
      ]);
      expect((await read(id)).body.result.code).toBe('000.200.000');
      await gw.notices.runOnce();
      expect((await read(id)).body.result.code).toBe('000.000.000');
      expect(await told(id)).toEqual(['CREATED 000.200.000', 'UPDATED 000.000.000']);
      expect((await payWith(id)).body.result.code).toBe('000.000.000');
    } finally {
      world.fake.tellRecurringContracts(false);
    }
  });

  it('its RECURRING_CONTRACT alone ends it too (the stored card as its pspReference)', async () => {
    world.fake.tellRecurringContracts(true);
    let id: string;
    try {
      id = await lostRegistration(ADYEN_VISA);
    } finally {
      world.fake.tellRecurringContracts(false);
    }
    const contract = aboutId(id).find((body) => itemOf(body).eventCode === 'RECURRING_CONTRACT') ?? '';
    await redeliver(contract, 1);
    expect((await read(id)).body.result.code).toBe('000.000.000');
    expect(await told(id)).toEqual(['CREATED 000.200.000', 'UPDATED 000.000.000']);
    const paid = await payWith(id);
    expect(paid.body.result.code, paid.text).toBe('000.000.000');
    const sent = world.fake.received.filter((r) => r.path === '/payments').at(-1)?.body as {
      paymentMethod: Record<string, string>;
    };
    expect(sent.paymentMethod.storedPaymentMethodId).toBe(itemOf(contract).pspReference);
  });

  it('an AUTHORISATION that names no stored card leaves it pending (its RECURRING_CONTRACT will tell)', async () => {
    const id = await lostRegistration(ADYEN_VISA);
    const bare = signed({
      eventCode: 'AUTHORISATION',
      success: 'true',
      pspReference: 'NOSTOREDCARD0001',
      merchantReference: id,
    });
    expect((await notify(bare)).text).toBe('[accepted]');
    expect((await read(id)).body.result.code).toBe('000.200.000');
    expect(await told(id)).toEqual(['CREATED 000.200.000']);
  });
});

describe('what a notification cannot do to a registration', () => {
  it('one already final (answered at once) is not changed by its notifications, a later refusal included', async () => {
    const made = await register(ADYEN_VISA);
    expect(made.body.result.code, made.text).toBe('000.000.000');
    const id: string = made.body.id;
    await world.fake.settled();
    // Adyen's AUTHORISATION may reach the gateway before the registration it tells of is written
    // (on a loaded machine): then it waits for the sweep, which finds the registration final
    await gw.notices.runOnce();
    const [authorisation] = aboutId(id);
    // recorded as seen, not kept waiting for a payment that never comes
    expect(
      await gw.store.processorEventSeen(
        merchant.entityId,
        `AUTHORISATION:${itemOf(authorisation ?? '{}').pspReference}:true`,
      ),
    ).toBe(true);
    const refusal = signed({
      eventCode: 'AUTHORISATION',
      success: 'false',
      pspReference: 'LATEREFUSAL00001',
      merchantReference: id,
    });
    expect((await notify(refusal)).text).toBe('[accepted]');
    expect((await read(id)).body.result.code).toBe('000.000.000');
    expect(await told(id)).toEqual(['CREATED 000.000.000']);
    expect((await payWith(id)).body.result.code).toBe('000.000.000');
  });

  it('one of another channel (the same merchant, another address) is not ended by this channel’s notification', async () => {
    const two = await gw.addMerchant({
      channels: 2,
      mode: 'LIVE',
      settings: { connector: world.settings() },
    });
    await gw.store.insertWebhook(storedWebhook(two.merchantId, { types: ['REGISTRATION'] }));
    const second = { ...two, entityId: two.entityIds[1] ?? '' };
    const id = await lostRegistration(ADYEN_VISA, second);
    const [authorisation] = aboutId(id);
    // Adyen's notification of it, at the first channel's address: verified there, but not its registration
    expect((await notify(authorisation ?? '', two.entityId)).text).toBe('[accepted]');
    await gw.notices.runOnce();
    expect((await read(id, second)).body.result.code).toBe('000.200.000');
    // at its own channel's address it ends it
    expect((await notify(authorisation ?? '', second.entityId)).text).toBe('[accepted]');
    expect((await read(id, second)).body.result.code).toBe('000.000.000');
    expect(await told(id, second)).toEqual(['CREATED 000.200.000', 'UPDATED 000.000.000']);
    world.fake.notifyTo(addressOf(merchant.entityId));
  });
});

describe('what the adyen connector sent in these tests', () => {
  it('every request and notification matched the published schemas', ({ skip }) => {
    if (!world.fake.schemaChecked)
      skip('../shared/facts/connectors/adyen is not here: nothing to check against');
    expect(world.fake.schemaFailures).toEqual([]);
  });
});
