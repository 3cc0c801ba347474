/**
 * A Stripe refund that fails after it succeeded (issue 33: late failures): the gateway answered
 * the RF with the mode's success; the bank returns it, and Stripe's signed events about the
 * refund (`charge.refund.updated`, `refund.failed`, both with status failed), POSTed by the fake
 * of Stripe to the gateway's `/connectors/stripe/notifications/{entityId}`, fail the RF: it reads
 * 700.400.200 with Stripe's failure_reason in the Query API, the merchant's webhook gets one
 * PAYMENT UPDATED for the two events however often they come, and the payment can be refunded
 * again. The events name the refund by Stripe's id (re_…) only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type StripeFake,
  startStripeFake,
  stripeSettings,
  stripeSignature,
  TEST_WEBHOOK_SECRET,
} from '../../test-kit/fakes/stripe';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { LIVE_BASE, type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { storedWebhook, toldAbout } from '../../test-kit/webhooks';

let fake: StripeFake;
let gw: TestGateway;
let merchant: TestMerchant;

beforeAll(async () => {
  fake = await startStripeFake();
  gw = await testGateway({ webhooks: { autoStart: false } });
  merchant = await gw.addMerchant({
    channels: 1,
    mode: 'LIVE',
    settings: { connector: stripeSettings(fake.baseUrl) },
  });
  await gw.store.insertWebhook(storedWebhook(merchant.merchantId));
  fake.setWebhook({
    url: `${LIVE_BASE}/connectors/stripe/notifications/${merchant.entityId}`,
    secret: TEST_WEBHOOK_SECRET,
    through: (url, init) => gw.live.app.request(url, init),
  });
});
afterAll(async () => {
  await gw?.cleanup();
  await fake?.close();
});

const post = (path: string, params: Record<string, string>) =>
  gw.live.post(path, { entityId: merchant.entityId, ...params }, { token: merchant.token });
const query = (id: string) =>
  gw.live.get(`/v1/query/${id}`, { entityId: merchant.entityId }, { token: merchant.token });

/** What the merchant's webhook is told about payment `id`: `action code` per notification, in order. */
const told = (id: string) => toldAbout(gw, merchant.merchantId, id);

/** A DB of 20.00 and its refund in full, both done; the refund's id at Stripe. */
async function refunded() {
  const db = await post('/v1/payments', {
    ...VISA_CARD,
    'card.number': '4242424242424242',
    amount: '20.00',
    currency: 'EUR',
    paymentType: 'DB',
  });
  expect(db.body.result.code, db.text).toBe('000.000.000');
  const rf = await post(`/v1/payments/${db.body.id}`, {
    paymentType: 'RF',
    amount: '20.00',
    currency: 'EUR',
  });
  expect(rf.body.result.code, rf.text).toBe('000.000.000');
  await fake.settled();
  const theirId = rf.body.resultDetails.ConnectorTxID1 as string;
  expect(theirId).toMatch(/^re_/);
  return { db: db.body.id as string, rf: rf.body.id as string, theirId };
}

describe('a Stripe refund that fails after it succeeded', () => {
  it('the RF reads 700.400.200 with Stripe’s failure_reason, one PAYMENT UPDATED for both events, the DB refundable again', async () => {
    const { db, rf, theirId } = await refunded();
    const before = fake.events.length;
    expect(fake.ledger.failRefund(theirId)).toBe(true);
    await fake.settled();
    const events = fake.events.slice(before);
    expect(events.map((e) => e.type)).toEqual(['charge.refund.updated', 'refund.failed']);
    const failed = await query(rf);
    expect(failed.body.result.code, failed.text).toBe('700.400.200');
    expect(failed.body.resultDetails).toMatchObject({
      AcquirerResponse: 'failed expired_or_canceled_card',
      ConnectorTxID1: theirId,
    });
    expect(await told(rf)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.200']);
    // Stripe sends them again (it retries for days): acknowledged, nothing more changes
    for (const event of [...events, ...events]) expect(await fake.deliver(event)).toBe(200);
    expect(await told(rf)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.200']);
    const again = await post(`/v1/payments/${db}`, { paymentType: 'RF', amount: '20.00', currency: 'EUR' });
    expect(again.body.result.code, again.text).toBe('000.000.000');
  });

  it('an event whose Stripe-Signature is not the channel’s: 401 800.900.300, the refund stays done', async () => {
    const { rf, theirId } = await refunded();
    fake.setWebhook(undefined);
    try {
      fake.ledger.failRefund(theirId);
    } finally {
      fake.setWebhook({
        url: `${LIVE_BASE}/connectors/stripe/notifications/${merchant.entityId}`,
        secret: TEST_WEBHOOK_SECRET,
        through: (url, init) => gw.live.app.request(url, init),
      });
    }
    const body = JSON.stringify(fake.events.at(-1));
    const answer = await gw.live.send('POST', `/connectors/stripe/notifications/${merchant.entityId}`, body, {
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': stripeSignature(body, 'whsec_not_the_channels'),
      },
    });
    expect([answer.status, answer.body.result.code], answer.text).toEqual([401, '800.900.300']);
    expect((await query(rf)).body.result.code).toBe('000.000.000');
    expect(await told(rf)).toEqual(['CREATED 000.000.000']);
  });
});
