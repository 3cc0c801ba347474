/**
 * A processor's notification that arrives before the gateway has written what it is about
 * (issue 33): Adyen tells a capture's outcome, or a payment's, while the gateway is still writing
 * the capture it answered `received` for, or the payment whose answer it never got; Stripe a
 * refund's failure before the refund is written. The fakes send it before their answer returns.
 * It is acknowledged (a processor left unanswered resends, Adyen queueing what follows behind
 * it), waits, and is applied once when its payment is there: the end state right, one PAYMENT
 * UPDATED however often it is sent. One about a payment that never comes is given up, and one of
 * no one's is not kept; processor_events are pruned past the processors' retry windows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signItem } from '../../test-kit/fakes/adyen/notifications';
import { ADYEN_VISA, type AdyenWorld, adyenWorld } from '../../test-kit/fakes/adyen/world';
import {
  type StripeFake,
  startStripeFake,
  stripeSettings,
  TEST_WEBHOOK_SECRET,
} from '../../test-kit/fakes/stripe';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { LIVE_BASE, type TestGateway, type TestMerchant } from '../../test-kit/gateway';
import { storedWebhook, toldAbout } from '../../test-kit/webhooks';

const DAY_MS = 24 * 60 * 60_000;

let world: AdyenWorld;
let gw: TestGateway;
let merchant: TestMerchant;

beforeAll(async () => {
  // the connector's timeout 5 s: the first requests compile the fake's schemas on a busy machine
  world = await adyenWorld({ webhooks: { autoStart: false }, env: { GATEWAY_CONNECTOR_TIMEOUT_MS: '5000' } });
  gw = world.gateway;
  merchant = world.merchant;
  await gw.store.insertWebhook(storedWebhook(merchant.merchantId));
  world.fake.notifyTo(`${LIVE_BASE}/connectors/adyen/notifications/${merchant.entityId}`);
  world.fake.deliverThrough((url, init) => gw.live.app.request(url, init));
}, 120_000);
afterAll(async () => {
  await world?.cleanup();
});

const post = (path: string, params: Record<string, string>, as = merchant) =>
  gw.live.post(path, { entityId: as.entityId, ...params }, { token: as.token });
const query = (id: string, as = merchant) =>
  gw.live.get(`/v1/query/${id}`, { entityId: as.entityId }, { token: as.token });

/** What the merchant's webhook is told about payment `id`: `action code` per notification, in order. */
const told = (id: string, as = merchant) => toldAbout(gw, as.merchantId, id);

/** The gateway's clock moved on by `ms` (the Adyen world's clock is real time plus what it was moved). */
function advance(ms: number): void {
  if (world.shopper === undefined) throw new Error('the Adyen world moves its clock through its shopper');
  world.shopper.advance(ms);
}

/** The sweep of the waiting notifications, as its worker runs it. */
const sweep = () => gw.notices.runOnce();

/** A signed Adyen notification of one item, as the fake's merchant account and HMAC key sign it. */
function adyenBody(item: Record<string, unknown>): string {
  return JSON.stringify({
    live: 'false',
    notificationItems: [
      {
        NotificationRequestItem: signItem(
          {
            amount: { value: 500, currency: 'EUR' },
            eventDate: '2026-12-01T12:00:00+00:00',
            merchantAccountCode: world.fake.merchantAccount,
            reason: '',
            success: 'true',
            ...item,
          },
          world.fake.hmacKey,
        ),
      },
    ],
  });
}
const notify = (body: string) =>
  gw.live.send('POST', `/connectors/adyen/notifications/${merchant.entityId}`, body, {
    headers: { 'Content-Type': 'application/json' },
  });

describe('Adyen’s notification before the gateway has written what it tells about', () => {
  it('CAPTURE false before the capture’s answer: acknowledged, then the CP fails once, three copies change nothing', async () => {
    const pa = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '9.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    expect(pa.body.result.code, pa.text).toBe('000.000.000');
    world.fake.failNext();
    world.fake.earlyNext();
    const sent = world.fake.deliveries.length;
    const cp = await post(`/v1/payments/${pa.body.id}`, {
      paymentType: 'CP',
      amount: '9.00',
      currency: 'EUR',
    });
    expect([cp.body.result.code, cp.body.resultDetails?.AcquirerResponse], cp.text).toEqual([
      '000.000.000',
      'received',
    ]);
    // told while the capture was not written: acknowledged all the same
    const early = world.fake.deliveries.slice(sent).filter((d) => d.body.includes(cp.body.id));
    expect(early.map((d) => [d.status, d.answer])).toEqual([[200, '[accepted]']]);
    expect(JSON.parse(early[0]?.body ?? '{}').notificationItems[0].NotificationRequestItem).toMatchObject({
      eventCode: 'CAPTURE',
      success: 'false',
      merchantReference: cp.body.id,
    });
    await sweep();
    const failed = await query(cp.body.id);
    expect([failed.body.result.code, failed.body.resultDetails.AcquirerResponse], failed.text).toEqual([
      '700.400.100',
      'CAPTURE false',
    ]);
    expect(await told(cp.body.id)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    // Adyen sends it again, three times: nothing more changes
    const index = world.fake.outbox.indexOf(early[0]?.body ?? '');
    for (let i = 0; i < 3; i++) world.fake.redeliver(index);
    await world.fake.settled();
    await sweep();
    expect(world.fake.deliveries.slice(-3).map((d) => [d.status, d.answer])).toEqual(
      Array(3).fill([200, '[accepted]']),
    );
    expect(await told(cp.body.id)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    // and the authorisation can be captured again
    const again = await post(`/v1/payments/${pa.body.id}`, {
      paymentType: 'CP',
      amount: '9.00',
      currency: 'EUR',
    });
    expect(again.body.result.code, again.text).toBe('000.000.000');
  });

  it('AUTHORISATION of a payment whose answer came too late: the uncertain payment ends with it, once', async () => {
    world.fake.earlyNext();
    // past the connector's timeout here (5 s): the gateway records the payment uncertain, pending
    world.fake.holdNextAnswer(5_500);
    const sent = world.fake.deliveries.length;
    const db = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '6.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(db.body.result.code, db.text).toBe('000.200.000');
    const early = world.fake.deliveries.slice(sent).filter((d) => d.body.includes(db.body.id));
    expect(early.map((d) => [d.status, d.answer])).toEqual([[200, '[accepted]']]);
    expect(JSON.parse(early[0]?.body ?? '{}').notificationItems[0].NotificationRequestItem).toMatchObject({
      eventCode: 'AUTHORISATION',
      success: 'true',
      merchantReference: db.body.id,
    });
    await sweep();
    const ended = await query(db.body.id);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    expect(ended.body.resultDetails.ConnectorTxID1).toMatch(/^[0-9A-Z]{16}$/);
    for (let i = 0; i < 3; i++) expect((await notify(early[0]?.body ?? '')).text).toBe('[accepted]');
    await sweep();
    expect(await told(db.body.id)).toEqual(['CREATED 000.200.000', 'UPDATED 000.000.000']);
  });

  it('about a payment that never comes: kept no longer than its wait; about no one’s (no id of ours): not kept', async () => {
    const neverWritten = 'e'.repeat(32);
    const waits = adyenBody({
      eventCode: 'CAPTURE',
      success: 'false',
      pspReference: 'NEVERWRITTEN0001',
      merchantReference: neverWritten,
    });
    const others = adyenBody({
      eventCode: 'CAPTURE',
      success: 'false',
      pspReference: 'OTHERSYSTEM00001',
      merchantReference: 'order-4711 of another shop',
    });
    for (const body of [waits, others]) expect((await notify(body)).text).toBe('[accepted]');
    const waiting = async () =>
      (await gw.store.waitingProcessorEvents(100)).map((e) => e.eventId).filter((id) => id.includes('0001'));
    expect(await waiting()).toEqual(['CAPTURE:NEVERWRITTEN0001:false']);
    expect(await gw.store.processorEventSeen(merchant.entityId, 'CAPTURE:OTHERSYSTEM00001:false')).toBe(
      false,
    );
    // tried again on each sweep, for ten minutes of the gateway's clock; then given up
    await sweep();
    expect(await waiting()).toHaveLength(1);
    advance(11 * 60_000);
    await sweep();
    expect(await waiting()).toEqual([]);
    expect(await gw.store.processorEventSeen(merchant.entityId, 'CAPTURE:NEVERWRITTEN0001:false')).toBe(true);
  });
});

describe('Stripe’s event before the gateway has written what it tells about', () => {
  let fake: StripeFake;
  let stripeMerchant: TestMerchant;

  beforeAll(async () => {
    fake = await startStripeFake();
    stripeMerchant = await gw.addMerchant({
      channels: 1,
      mode: 'LIVE',
      settings: { connector: stripeSettings(fake.baseUrl) },
    });
    await gw.store.insertWebhook(storedWebhook(stripeMerchant.merchantId));
    fake.setWebhook({
      url: `${LIVE_BASE}/connectors/stripe/notifications/${stripeMerchant.entityId}`,
      secret: TEST_WEBHOOK_SECRET,
      through: (url, init) => gw.live.app.request(url, init),
    });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('refund.failed before the refund’s answer: the RF fails once when it is written', async () => {
    const db = await post(
      '/v1/payments',
      {
        ...VISA_CARD,
        'card.number': '4242424242424242',
        amount: '15.00',
        currency: 'EUR',
        paymentType: 'DB',
      },
      stripeMerchant,
    );
    expect(db.body.result.code, db.text).toBe('000.000.000');
    const before = fake.events.length;
    // the bank returns the refund before Stripe's answer reaches the gateway
    fake.onceBeforeAnswer(/^\/v1\/refunds$/, async (answer) => {
      fake.ledger.failRefund(String(answer.body.id));
      await fake.settled();
    });
    const rf = await post(
      `/v1/payments/${db.body.id}`,
      { paymentType: 'RF', amount: '15.00', currency: 'EUR' },
      stripeMerchant,
    );
    expect(rf.body.result.code, rf.text).toBe('000.000.000');
    const events = fake.events.slice(before);
    expect(events.map((e) => e.type)).toEqual(['charge.refunded', 'charge.refund.updated', 'refund.failed']);
    await sweep();
    const failed = await query(rf.body.id, stripeMerchant);
    expect([failed.body.result.code, failed.body.resultDetails.AcquirerResponse], failed.text).toEqual([
      '700.400.200',
      'failed expired_or_canceled_card',
    ]);
    for (const event of [...events, ...events, ...events]) expect(await fake.deliver(event)).toBe(200);
    await sweep();
    expect(await told(rf.body.id, stripeMerchant)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.200']);
  });
});

// last: it moves the gateway's clock on by weeks
describe('retention of processor_events', () => {
  it('an event older than the processors’ retry windows is pruned, a young one stays and its copy is still refused', async () => {
    const pa = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '4.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    const cp = await post(`/v1/payments/${pa.body.id}`, {
      paymentType: 'CP',
      amount: '4.00',
      currency: 'EUR',
    });
    expect(cp.body.result.code, cp.text).toBe('000.000.000');
    await world.fake.settled();
    const old = world.fake.tellLater(cp.body.resultDetails.ConnectorTxID1, 'CAPTURE_FAILED');
    await world.fake.settled();
    expect(await told(cp.body.id)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    const oldKey = `CAPTURE_FAILED:${cp.body.resultDetails.ConnectorTxID1}:true`;
    advance(30 * DAY_MS);
    const young = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '3.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    const youngCp = await post(`/v1/payments/${young.body.id}`, {
      paymentType: 'CP',
      amount: '3.00',
      currency: 'EUR',
    });
    await world.fake.settled();
    const youngBody = world.fake.tellLater(youngCp.body.resultDetails.ConnectorTxID1, 'CAPTURE_FAILED');
    await world.fake.settled();
    const youngKey = `CAPTURE_FAILED:${youngCp.body.resultDetails.ConnectorTxID1}:true`;
    // 36 days after the first, 6 after the second
    advance(6 * DAY_MS);
    expect(await gw.retention.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await gw.store.processorEventSeen(merchant.entityId, oldKey)).toBe(false);
    expect(await gw.store.processorEventSeen(merchant.entityId, youngKey)).toBe(true);
    // the young one's copy is refused by its key; the old one's changes nothing either (its capture failed already)
    for (const body of [youngBody, old]) expect((await notify(body)).text).toBe('[accepted]');
    expect(await told(youngCp.body.id)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    expect(await told(cp.body.id)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
  });
});
