/**
 * Adyen's late word on a modification the gateway answered as done (issue 33: late failures):
 * captures and refunds are answered `received` with the mode's success; when Adyen's signed
 * notification later says one failed (CAPTURE success=false, CAPTURE_FAILED, REFUNDED_REVERSED),
 * the fake of Adyen POSTs it to the gateway's `/connectors/adyen/notifications/{entityId}` and the
 * payment reads as failed in the Query API and the status read, the merchant's webhook gets one
 * PAYMENT UPDATED however often Adyen sends it, and the amount can be captured or refunded again.
 * The notification names the modification by Adyen's pspReference only: the gateway finds it by
 * its processor's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signItem } from '../../test-kit/fakes/adyen/notifications';
import { ADYEN_VISA, type AdyenWorld, adyenWorld } from '../../test-kit/fakes/adyen/world';
import { LIVE_BASE, type TestMerchant } from '../../test-kit/gateway';
import { storedWebhook, toldAbout } from '../../test-kit/webhooks';

let world: AdyenWorld;
let merchant: TestMerchant;

beforeAll(async () => {
  world = await adyenWorld({ webhooks: { autoStart: false } });
  merchant = world.merchant;
  await world.gateway.store.insertWebhook(storedWebhook(merchant.merchantId));
  // Adyen POSTs its notifications to the channel's address, here the live app in process
  world.fake.notifyTo(address());
  world.fake.deliverThrough((url, init) => world.gateway.live.app.request(url, init));
}, 120_000);

const address = () => `${LIVE_BASE}/connectors/adyen/notifications/${merchant.entityId}`;

/**
 * `request` done with the fake's notifications held, then sent: Adyen notifies seconds after its
 * answer, the fake within milliseconds, which on a busy machine can be before the gateway has
 * written what Adyen answered.
 */
async function thenNotified<T>(request: () => Promise<T>): Promise<T> {
  world.fake.notifyTo(undefined);
  const from = world.fake.outbox.length;
  try {
    return await request();
  } finally {
    world.fake.notifyTo(address());
    for (let i = from; i < world.fake.outbox.length; i++) world.fake.redeliver(i);
    await world.fake.settled();
  }
}
afterAll(async () => {
  await world?.cleanup();
});

const post = (path: string, params: Record<string, string>) =>
  world.gateway.live.post(path, { entityId: merchant.entityId, ...params }, { token: merchant.token });
const query = (id: string) =>
  world.gateway.live.get(`/v1/query/${id}`, { entityId: merchant.entityId }, { token: merchant.token });
const read = (id: string) =>
  world.gateway.live.get(`/v1/payments/${id}`, { entityId: merchant.entityId }, { token: merchant.token });

/** What the merchant's webhook is told about payment `id`: `action code` per notification. */
const told = (id: string) => toldAbout(world.gateway, merchant.merchantId, id);

/** A PA of `amount`, and its capture of all of it (answered received); the capture's pspReference. */
async function capturedAuthorisation(amount = '20.00') {
  const pa = await post('/v1/payments', { ...ADYEN_VISA, amount, currency: 'EUR', paymentType: 'PA' });
  expect(pa.body.result.code, pa.text).toBe('000.000.000');
  const cp = await thenNotified(() =>
    post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount, currency: 'EUR' }),
  );
  expect([cp.body.result.code, cp.body.resultDetails.AcquirerResponse], cp.text).toEqual([
    '000.000.000',
    'received',
  ]);
  return {
    pa: pa.body.id as string,
    cp: cp.body.id as string,
    psp: cp.body.resultDetails.ConnectorTxID1 as string,
  };
}

describe('a capture Adyen takes back', () => {
  it('CAPTURE_FAILED after CAPTURE: the CP reads 700.400.100 with Adyen’s code, one PAYMENT UPDATED, the PA capturable again', async () => {
    const { pa, cp, psp } = await capturedAuthorisation();
    // read once while it is a success: a kept answer must not outlive the change
    expect((await read(cp)).body.result.code).toBe('000.000.000');
    const body = world.fake.tellLater(psp, 'CAPTURE_FAILED');
    await world.fake.settled();
    expect(world.fake.deliveries.at(-1)).toMatchObject({ body, status: 200, answer: '[accepted]' });
    const failed = await query(cp);
    expect(failed.body.result.code, failed.text).toBe('700.400.100');
    expect(failed.body.resultDetails).toMatchObject({
      AcquirerResponse: 'CAPTURE_FAILED true',
      ConnectorTxID1: psp,
      ExtendedDescription: 'Capture Failed',
    });
    expect((await read(cp)).body.result.code).toBe('700.400.100');
    expect(await told(cp)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    // Adyen sends it again (it retries until it reads [accepted]): nothing more changes
    const index = world.fake.outbox.indexOf(body);
    for (let i = 0; i < 3; i++) world.fake.redeliver(index);
    await world.fake.settled();
    expect(world.fake.deliveries.slice(-3).map((d) => [d.status, d.answer])).toEqual(
      Array(3).fill([200, '[accepted]']),
    );
    expect(await told(cp)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    // the authorisation's amount is capturable again
    const again = await post(`/v1/payments/${pa}`, { paymentType: 'CP', amount: '20.00', currency: 'EUR' });
    expect(again.body.result.code, again.text).toBe('000.000.000');
  });

  it('CAPTURE with success false: the CP answered received reads 700.400.100 with CAPTURE false', async () => {
    const pa = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '7.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    world.fake.failNext();
    const cp = await thenNotified(() =>
      post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: '7.00', currency: 'EUR' }),
    );
    expect(cp.body.result.code, cp.text).toBe('000.000.000');
    const failed = await query(cp.body.id);
    expect([failed.body.result.code, failed.body.resultDetails.AcquirerResponse], failed.text).toEqual([
      '700.400.100',
      'CAPTURE false',
    ]);
    expect(await told(cp.body.id)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
  });
});

describe('a refund Adyen takes back', () => {
  it('REFUNDED_REVERSED: the RF reads 700.400.200, one PAYMENT UPDATED, the DB refundable again', async () => {
    const db = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    const rf = await thenNotified(() =>
      post(`/v1/payments/${db.body.id}`, { paymentType: 'RF', amount: '10.00', currency: 'EUR' }),
    );
    expect(rf.body.result.code, rf.text).toBe('000.000.000');
    // the whole amount is refunded: no more
    const over = await post(`/v1/payments/${db.body.id}`, {
      paymentType: 'RF',
      amount: '1.00',
      currency: 'EUR',
    });
    expect(over.body.result.code).toBe('700.400.200');
    world.fake.tellLater(rf.body.resultDetails.ConnectorTxID1, 'REFUNDED_REVERSED');
    await world.fake.settled();
    const failed = await query(rf.body.id);
    expect([failed.body.result.code, failed.body.resultDetails.AcquirerResponse], failed.text).toEqual([
      '700.400.200',
      'REFUNDED_REVERSED true',
    ]);
    expect(await told(rf.body.id)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.200']);
    const again = await post(`/v1/payments/${db.body.id}`, {
      paymentType: 'RF',
      amount: '10.00',
      currency: 'EUR',
    });
    expect(again.body.result.code, again.text).toBe('000.000.000');
  });
});

describe('a late failure whose signature is not Adyen’s', () => {
  it('401 800.900.300, and the capture stays done', async () => {
    const { cp, psp } = await capturedAuthorisation('3.00');
    const item = {
      amount: { value: 300, currency: 'EUR' },
      eventCode: 'CAPTURE_FAILED',
      eventDate: '2026-12-01T12:00:00+00:00',
      merchantAccountCode: world.fake.merchantAccount,
      merchantReference: cp,
      pspReference: psp,
      reason: 'Capture Failed',
      success: 'true',
    };
    const forged = JSON.stringify({
      live: 'false',
      notificationItems: [{ NotificationRequestItem: signItem(item, 'AB'.repeat(32)) }],
    });
    const answer = await world.gateway.live.send(
      'POST',
      `/connectors/adyen/notifications/${merchant.entityId}`,
      forged,
      { headers: { 'Content-Type': 'application/json' } },
    );
    expect([answer.status, answer.body.result.code], answer.text).toEqual([401, '800.900.300']);
    expect((await query(cp)).body.result.code).toBe('000.000.000');
    expect(await told(cp)).toEqual(['CREATED 000.000.000']);
  });
});
