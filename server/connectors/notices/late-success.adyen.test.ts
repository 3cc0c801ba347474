/**
 * A late success after the gateway ended the payment (issue 32/33, money safety): an iDEAL
 * payment at Adyen that timed out here (100.396.103: the shopper was not back within 30
 * minutes) is approved by the shopper at the bank afterwards, and Adyen tells it in a verified
 * AUTHORISATION success. The merchant was told it failed, so the gateway gives the money back at
 * Adyen (a reversal of that pspReference), once however often the notification comes, and keeps
 * the payment as the merchant was told. A success for a payment the gateway has as success
 * reverses nothing. Against the fake of Adyen, through the live address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../security/logger';
import { forwardedPage } from '../../test-kit/connectors/shopper';
import { signItem } from '../../test-kit/fakes/adyen/notifications';
import { ADYEN_VISA, type AdyenWorld, adyenShopper, adyenWorld } from '../../test-kit/fakes/adyen/world';
import { LIVE_BASE, type TestGateway, type TestMerchant } from '../../test-kit/gateway';

const RESULT_URL = 'https://shop.example/result';
const TIMED_OUT = '100.396.103';

let world: AdyenWorld;
let gw: TestGateway;
let merchant: TestMerchant;
const lines: string[] = [];

const addressOf = (entityId: string) => `${LIVE_BASE}/connectors/adyen/notifications/${entityId}`;

beforeAll(async () => {
  world = await adyenWorld({
    webhooks: { autoStart: false },
    logger: createLogger({ level: 'warn', stream: { write: (line: string) => lines.push(line) } }),
  });
  gw = world.gateway;
  merchant = world.merchant;
  world.fake.notifyTo(addressOf(merchant.entityId));
  world.fake.deliverThrough((url, init) => gw.live.app.request(url, init));
}, 120_000);
afterAll(async () => {
  await world?.cleanup();
});

const read = (id: string) =>
  gw.live.get(`/v1/payments/${id}`, { entityId: merchant.entityId }, { token: merchant.token });

const itemOf = (body: string): Record<string, unknown> =>
  JSON.parse(body).notificationItems[0].NotificationRequestItem;

/** The fake's AUTHORISATION about the gateway's `id` (its merchantReference). */
const authorisationOf = (id: string): string | undefined =>
  world.fake.outbox.find((body) => {
    const item = itemOf(body);
    return item.merchantReference === id && item.eventCode === 'AUTHORISATION';
  });

/** What the gateway asked Adyen to give back of the payment `psp`: its cancels and reversals. */
const givenBack = (psp: string): string[] =>
  world.fake.received
    .map((r) => r.path)
    .filter(
      (path) => path.endsWith(`/payments/${psp}/reversals`) || path.endsWith(`/payments/${psp}/cancels`),
    );

/** Adyen sends notification `body` again, `times` times. */
async function redeliver(body: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) world.fake.redeliver(world.fake.outbox.indexOf(body));
  await world.fake.settled();
}

/** The log lines (JSON) that mention `text`. */
const logged = (text: string) => lines.filter((line) => line.includes(text)).map((line) => JSON.parse(line));

/** An iDEAL payment pending on Adyen's page; its id and the redirect the merchant was answered. */
async function idealPayment() {
  const pending = await gw.live.post(
    '/v1/payments',
    {
      entityId: merchant.entityId,
      paymentBrand: 'IDEAL',
      amount: '12.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: RESULT_URL,
    },
    { token: merchant.token },
  );
  expect(pending.body.result.code, pending.text).toBe('000.200.000');
  return pending;
}

/** Past the payment's 30 minutes: the pending-payments worker times it out. */
async function timedOut(id: string): Promise<void> {
  world.shopper?.advance(31 * 60_000);
  await gw.pending.runOnce();
  expect((await read(id)).body.result.code).toBe(TIMED_OUT);
}

describe('a success Adyen tells after the gateway ended the payment', () => {
  it('an iDEAL payment timed out here, approved late at the bank: reversed at Adyen once, still 100.396.103', async () => {
    const pending = await idealPayment();
    const id: string = pending.body.id;
    // the shopper reaches the bank's page in time, and leaves it open
    const page = await forwardedPage(gw.live, pending.body.redirect);
    await timedOut(id);
    // then approves it there: Adyen authorises it and tells the gateway (AUTHORISATION success)
    await adyenShopper(world.fake)(page, 'approve');
    await world.fake.settled();
    const authorisation = authorisationOf(id) ?? '';
    expect(itemOf(authorisation)).toMatchObject({ eventCode: 'AUTHORISATION', success: 'true' });
    const psp = String(itemOf(authorisation).pspReference);
    expect(givenBack(psp)).toEqual([`/payments/${psp}/reversals`]);
    // the same notification again (Adyen retries; another process receives it): nothing more
    await redeliver(authorisation, 2);
    expect(givenBack(psp)).toHaveLength(1);
    expect(world.fake.deliveries.slice(-2).map((d) => [d.status, d.answer])).toEqual(
      Array(2).fill([200, '[accepted]']),
    );
    // Adyen has it cancelled; the merchant's payment is as they were told
    expect(world.fake.payments().find((p) => p.psp === psp)?.state).toBe('cancelled');
    const after = await read(id);
    expect(after.body.result.code, after.text).toBe(TIMED_OUT);
    // an operator can see what was done, and to which payment
    const warned = logged(id);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 'warn', paymentId: id, theirId: psp });
  });

  it('a reversal Adyen refuses is said as an error line (an operator must act), and not tried again', async () => {
    const pending = await idealPayment();
    const id: string = pending.body.id;
    await timedOut(id);
    // Adyen's word that it authorised it, though its payment is not authorised there: the
    // reversal is refused (422), as one of a payment Adyen no longer holds would be
    const psp = world.fake.payments().find((p) => p.reference === id)?.psp ?? '';
    const item = signItem(
      {
        amount: { value: 1200, currency: 'EUR' },
        eventCode: 'AUTHORISATION',
        eventDate: '2026-12-01T12:00:00+00:00',
        merchantAccountCode: world.fake.merchantAccount,
        merchantReference: id,
        pspReference: psp,
        reason: '',
        success: 'true',
      },
      world.fake.hmacKey,
    );
    const body = JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: item }] });
    for (let i = 0; i < 2; i++) {
      const answer = await gw.live.send(
        'POST',
        `/connectors/adyen/notifications/${merchant.entityId}`,
        body,
        {
          headers: { 'Content-Type': 'application/json' },
        },
      );
      expect(answer.text).toBe('[accepted]');
    }
    expect(givenBack(psp)).toEqual([`/payments/${psp}/reversals`]);
    expect((await read(id)).body.result.code).toBe(TIMED_OUT);
    const said = logged(id);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 'error', paymentId: id, theirId: psp });
  });

  it('a success for a payment the gateway has as success reverses nothing', async () => {
    // Adyen's AUTHORISATION is not delivered with the answer: the gateway sees it first afterwards
    world.fake.notifyTo(undefined);
    const paid = await gw.live.post(
      '/v1/payments',
      { entityId: merchant.entityId, ...ADYEN_VISA, amount: '7.00', currency: 'EUR', paymentType: 'DB' },
      { token: merchant.token },
    );
    world.fake.notifyTo(addressOf(merchant.entityId));
    expect(paid.body.result.code, paid.text).toBe('000.000.000');
    const id: string = paid.body.id;
    const authorisation = authorisationOf(id) ?? '';
    const psp = String(itemOf(authorisation).pspReference);
    await redeliver(authorisation, 1);
    expect(world.fake.deliveries.at(-1)?.answer).toBe('[accepted]');
    expect(givenBack(psp)).toEqual([]);
    expect(world.fake.payments().find((p) => p.psp === psp)?.state).toBe('authorised');
    expect((await read(id)).body.result.code).toBe('000.000.000');
    expect(logged(id)).toEqual([]);
  });
});

describe('what the adyen connector sent in these tests', () => {
  it('every request and notification matched the published schemas', ({ skip }) => {
    if (!world.fake.schemaChecked)
      skip('../shared/facts/connectors/adyen is not here: nothing to check against');
    expect(world.fake.schemaFailures).toEqual([]);
  });
});
