/**
 * The test clock through the admin API (GATEWAY_TEST_CLOCK): for every kind of work that falls
 * due, moving the clock to just before it leaves it undone and moving past it does it exactly
 * once (checkout expiry, the 29-minute shopperResultUrl call, the pending payment's timeout,
 * the decoupled 3-D Secure answer, a schedule's fire time, webhook retries and the dead letter
 * at 30 days, the daily settlement run and its file); work of several kinds runs in time order
 * within one move; moves are checked, never backwards, and refused with a live channel.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantFolder, reconciliationFileName } from '../reporting/settlement-run/model';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { BROWSER, CHALLENGE_CARD } from '../test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { type Receiver, startReceiver } from '../test-kit/receiver';
import {
  ADMIN_TOKEN,
  admin,
  CLOCK_START,
  clockGateway,
  DAY,
  HOUR,
  MINUTE,
  moveTo,
  SECOND,
} from '../test-kit/test-clock';
import { nextAttemptAt } from '../webhooks/schedule';

const SHOP = 'https://shop.example/result?order=7';

let gw: TestGateway;
let m: TestMerchant;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
/** Each test of these blocks starts its own gateway; this ends it. */
async function stop(): Promise<void> {
  await gw?.cleanup();
  receiver.received.length = 0;
  receiver.answerWith(200);
}

async function start(threeDSecure = false, databaseUrl?: string): Promise<void> {
  gw = await clockGateway(databaseUrl === undefined ? {} : { databaseUrl });
  m = await gw.addMerchant({ channels: 1, settings: { threeDSecure } });
}

const payment = (id: string) => gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });
const pay = (params: Record<string, string>) =>
  gw.post(
    '/v1/payments',
    { entityId: m.entityId, amount: '25.50', currency: 'EUR', paymentType: 'DB', ...params },
    { token: m.token },
  );
const createCheckout = async (params: Record<string, string> = {}): Promise<string> => {
  const res = await gw.post(
    '/v1/checkouts',
    { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...params },
    { token: m.token },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.id;
};
const checkoutStatus = (id: string) =>
  gw.get(`/v1/checkouts/${id}/payment`, { entityId: m.entityId }, { token: m.token });

describe('the test clock, kind by kind: just before → not done; past → done once', () => {
  afterEach(stop);

  it('checkout expiry: 30 minutes after creation', async () => {
    await start();
    const id = await createCheckout();
    const before = await moveTo(gw, 30 * MINUTE - 1);
    expect(before.body.ran.checkoutExpiry).toBe(0);
    expect((await checkoutStatus(id)).body.result.code).toBe('000.200.000');
    const past = await moveTo(gw, 30 * MINUTE);
    expect(past.body.ran.checkoutExpiry).toBe(1);
    expect((await checkoutStatus(id)).body.result.code).toBe('200.300.404');
    expect((await gw.post(`/v1/checkouts/${id}/payment`, VISA_CARD)).body.result.code).toBe('200.300.404');
    expect((await moveTo(gw, 2 * HOUR)).body.ran.checkoutExpiry).toBe(0);
  });

  it('the shopperResultUrl call, 29 minutes after a submission whose status nobody fetched', async () => {
    await start();
    const id = await createCheckout({ shopperResultUrl: `${receiver.url}/result?order=7` });
    await moveTo(gw, 2 * MINUTE);
    expect((await gw.post(`/v1/checkouts/${id}/payment`, VISA_CARD)).status).toBe(200);
    const before = await moveTo(gw, 31 * MINUTE - 1);
    expect(before.body.ran.shopperResultUrl).toBe(0);
    expect(receiver.received).toEqual([]);
    const past = await moveTo(gw, 31 * MINUTE);
    expect(past.body.ran.shopperResultUrl).toBe(1);
    expect(receiver.received.map((r) => [r.method, r.url])).toEqual([
      [
        'GET',
        `/result?order=7&id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${encodeURIComponent(id)}%2Fpayment`,
      ],
    ]);
    expect((await moveTo(gw, 3 * HOUR)).body.ran.shopperResultUrl).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it('a pending payment times out with 100.396.103 after 30 minutes', async () => {
    await start();
    const res = await pay({ paymentBrand: 'PAYPAL', shopperResultUrl: SHOP });
    expect(res.body.result.code).toBe('000.200.000');
    expect((await moveTo(gw, 30 * MINUTE - 1)).body.ran.pendingPayments).toBe(0);
    expect((await payment(res.body.id)).body.result.code).toBe('000.200.000');
    expect((await moveTo(gw, 30 * MINUTE)).body.ran.pendingPayments).toBe(1);
    expect((await payment(res.body.id)).body.result.code).toBe('100.396.103');
    expect((await moveTo(gw, 5 * HOUR)).body.ran.pendingPayments).toBe(0);
  });

  it('a decoupled 3-D Secure authentication: the cardholder answers after 10 s', async () => {
    await start(true);
    const res = await pay({
      ...VISA_CARD,
      'card.number': CHALLENGE_CARD,
      'threeDSecure.decoupled': 'true',
      shopperResultUrl: SHOP,
      ...BROWSER,
    });
    expect(res.body.result.code, res.text).toBe('000.200.000');
    expect((await moveTo(gw, 10 * SECOND - 1)).body.ran.pendingPayments).toBe(0);
    expect((await payment(res.body.id)).body.result.code).toBe('000.200.000');
    expect((await moveTo(gw, 10 * SECOND)).body.ran.pendingPayments).toBe(1);
    expect((await payment(res.body.id)).body.result.code).toBe('000.100.110');
    expect((await moveTo(gw, HOUR)).body.ran.pendingPayments).toBe(0);
  });

  it("a schedule's fire time: the registration is paid once, at the time", async () => {
    await start();
    const reg = await gw.post(
      '/v1/registrations',
      { entityId: m.entityId, ...VISA_CARD },
      { token: m.token },
    );
    expect(reg.status, reg.text).toBe(200);
    const schedule = await gw.post(
      '/scheduling/v1/schedules',
      {
        entityId: m.entityId,
        amount: '9.99',
        currency: 'EUR',
        paymentType: 'DB',
        registrationId: reg.body.id,
        // every day at 11:00 UTC: first at CLOCK_START + 1 h
        'job.expression': '0 0 11 * * ?',
      },
      { token: m.token },
    );
    expect(schedule.status, schedule.text).toBe(200);
    const paid = async () => (await gw.paymentIds(m.merchantId)).length;
    const before = await paid();
    expect((await moveTo(gw, HOUR - 1)).body.ran.schedules).toBe(0);
    expect(await paid()).toBe(before);
    expect((await moveTo(gw, HOUR)).body.ran.schedules).toBe(1);
    expect(await paid()).toBe(before + 1);
    // the next day's fire time, and only it
    expect((await moveTo(gw, DAY + HOUR - 1)).body.ran.schedules).toBe(0);
    expect((await moveTo(gw, DAY + HOUR)).body.ran.schedules).toBe(1);
    expect(await paid()).toBe(before + 2);
  });

  it('webhook retries on their schedule, then the dead letter at 30 days', async () => {
    await start();
    const hook = await admin(gw, 'POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
      url: `${receiver.url}/hook`,
      types: ['PAYMENT'],
    });
    expect(hook.status, hook.text).toBe(201);
    receiver.received.length = 0;
    receiver.answerWith(500);
    expect((await pay(VISA_CARD)).status).toBe(200);
    // every attempt's time: now, then the retry schedule until 30 days after the change
    const times = [CLOCK_START];
    for (let failed = 1; ; failed++) {
      const next = nextAttemptAt(CLOCK_START, times[times.length - 1]!, failed);
      if (next === undefined) break;
      times.push(next);
    }
    expect(times.length).toBeGreaterThan(50);
    const log = async () =>
      (await admin(gw, 'GET', `/admin/v1/merchants/${m.merchantId}/webhook-deliveries`)).body.deliveries[0];
    await moveTo(gw, 0);
    expect(receiver.received).toHaveLength(1);
    // just before the second attempt, then at it
    await moveTo(gw, times[1]!.getTime() - CLOCK_START.getTime() - 1);
    expect(receiver.received).toHaveLength(1);
    await moveTo(gw, times[1]!);
    expect(receiver.received).toHaveLength(2);
    // just before the last attempt: every one before it made, once; still pending
    const last = times[times.length - 1]!;
    await moveTo(gw, new Date(last.getTime() - 1));
    expect(receiver.received).toHaveLength(times.length - 1);
    expect(await log()).toMatchObject({ status: 'pending', attempts: times.length - 1 });
    await moveTo(gw, last);
    expect(receiver.received).toHaveLength(times.length);
    expect(await log()).toMatchObject({ status: 'dead', attempts: times.length, nextAttemptAt: null });
    await moveTo(gw, 40 * DAY);
    expect(receiver.received).toHaveLength(times.length);
    expect(last.getTime() - CLOCK_START.getTime()).toBeLessThanOrEqual(30 * DAY);
  }, 60_000);

  it("the daily settlement run: the day's file at the cut-off (02:00 UTC the next day)", async () => {
    await start();
    expect((await pay(VISA_CARD)).status).toBe(200);
    const day = '2026-11-24';
    const file = join(merchantFolder(gw.dataDir, m.merchantId), reconciliationFileName(m.entityId, day));
    const settled = () => gw.store.listSettlements({ merchantId: m.merchantId, from: day, to: day });
    const cutoff = new Date('2026-11-25T02:00:00.000Z');
    await moveTo(gw, new Date(cutoff.getTime() - 1));
    expect(existsSync(file)).toBe(false);
    expect(await settled()).toEqual([]);
    const past = await moveTo(gw, cutoff);
    expect(past.body.ran.settlement).toBeGreaterThanOrEqual(1);
    expect(existsSync(file)).toBe(true);
    expect(await settled()).toHaveLength(1);
    await moveTo(gw, 5 * DAY);
    expect(await settled()).toHaveLength(1);
  });
});

/** One move over several kinds of work: each runs at its own time, in time order (the inbox shows when). */
async function severalKinds(databaseUrl?: string): Promise<void> {
  await start(true, databaseUrl);
  const inbox = await admin(gw, 'POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
    inbox: true,
    types: ['PAYMENT'],
  });
  expect(inbox.status, inbox.text).toBe(201);
  const decoupled = await pay({
    ...VISA_CARD,
    'card.number': CHALLENGE_CARD,
    'threeDSecure.decoupled': 'true',
    shopperResultUrl: SHOP,
    ...BROWSER,
  });
  const abandoned = await pay({ paymentBrand: 'PAYPAL', shopperResultUrl: SHOP });
  const checkout = await createCheckout({ shopperResultUrl: `${receiver.url}/result` });
  expect((await gw.post(`/v1/checkouts/${checkout}/payment`, VISA_CARD)).status).toBe(200);
  const moved = await admin(gw, 'POST', '/admin/v1/clock', { advance: '1d' });
  expect(moved.status, moved.text).toBe(200);
  expect(moved.body.now).toBe(new Date(CLOCK_START.getTime() + DAY).toISOString());
  expect(moved.body.ran).toMatchObject({ pendingPayments: 2, shopperResultUrl: 1 });
  expect(receiver.received).toHaveLength(1);
  const list = await admin(gw, 'GET', `/admin/v1/merchants/${m.merchantId}/inbox?type=PAYMENT`);
  const at = (id: string) =>
    list.body.notifications
      .filter((n: { payload: { id: string } }) => n.payload.id === id)
      .map((n: { receivedAt: string; payload: { result: { code: string } } }) => [
        n.receivedAt,
        n.payload.result.code,
      ]);
  const iso = (ms: number) => new Date(CLOCK_START.getTime() + ms).toISOString();
  expect(at(decoupled.body.id)).toEqual([
    [iso(0), '000.200.000'],
    [iso(10 * SECOND), '000.100.110'],
  ]);
  expect(at(abandoned.body.id)).toEqual([
    [iso(0), '000.200.000'],
    [iso(30 * MINUTE), '100.396.103'],
  ]);
  const times = list.body.notifications.map((n: { receivedAt: string }) => n.receivedAt);
  expect([...times].sort()).toEqual(times);
}

describe('one move, several kinds: each at its own time, in time order', () => {
  afterEach(stop);

  it('a decoupled answer, a shopperResultUrl call and a timeout: their notifications land in the inbox at their times', () =>
    severalKinds());
});

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)('the test clock on PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await stop();
    await cluster?.stop();
  }, 60_000);

  it('steps through the due times read from PostgreSQL, and the inbox holds what arrived', () =>
    severalKinds(cluster!.url));
});

describe('moving the clock: checks and refusals', () => {
  beforeAll(async () => {
    await start();
  });
  afterAll(stop);

  it('GET answers the time; POST takes advance (ms or 31m, 2h, 30d) or to', async () => {
    const now = await admin(gw, 'GET', '/admin/v1/clock');
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ now: CLOCK_START.toISOString(), testClock: true, frozen: true });
    expect(now.body.result.code).toBe('000.000.100');
    const a = await admin(gw, 'POST', '/admin/v1/clock', { advance: '31m' });
    expect(a.body.now).toBe(new Date(CLOCK_START.getTime() + 31 * MINUTE).toISOString());
    const b = await admin(gw, 'POST', '/admin/v1/clock', { advance: 1000 });
    expect(b.body.now).toBe(new Date(CLOCK_START.getTime() + 31 * MINUTE + SECOND).toISOString());
    const c = await admin(gw, 'POST', '/admin/v1/clock', { to: '2026-12-01T09:00:00+01:00' });
    expect(c.body.now).toBe('2026-12-01T08:00:00.000Z');
    expect((await admin(gw, 'GET', '/admin/v1/clock')).body.now).toBe('2026-12-01T08:00:00.000Z');
  });

  it('never backwards: 400 naming the field, and the clock stays', async () => {
    const res = await admin(gw, 'POST', '/admin/v1/clock', { to: '2026-11-30T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.result.code).toBe('200.300.404');
    expect(res.body.result.parameterErrors).toEqual([
      expect.objectContaining({ name: 'to', value: '2026-11-30T00:00:00Z' }),
    ]);
    expect((await admin(gw, 'GET', '/admin/v1/clock')).body.now).toBe('2026-12-01T08:00:00.000Z');
  });

  it.each([
    [{}, ['advance']],
    [{ advance: '31m', to: '2027-01-01T00:00:00Z' }, ['to']],
    [{ advance: '-5m' }, ['advance']],
    [{ advance: 1.5 }, ['advance']],
    [{ advance: 'soon' }, ['advance']],
    [{ to: '2027-01-01' }, ['to']],
    [{ to: '2027-02-30T00:00:00Z' }, ['to']],
    [{ advance: '1m', by: 'me' }, ['by']],
  ])('refuses %j: 400 naming %j', async (body, names) => {
    const res = await admin(gw, 'POST', '/admin/v1/clock', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(names);
  });

  it('refuses a body that is not a JSON object; needs the operator token', async () => {
    const res = await gw.send('POST', '/admin/v1/clock', '[1]', {
      token: ADMIN_TOKEN,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect((await gw.send('GET', '/admin/v1/clock', undefined)).status).toBe(401);
  });

  it('stops moving once a live channel exists', async () => {
    const live = await admin(gw, 'POST', `/admin/v1/merchants/${m.merchantId}/channels`, {
      name: 'Live',
      mode: 'LIVE',
    });
    expect(live.status, live.text).toBe(201);
    const res = await admin(gw, 'POST', '/admin/v1/clock', { advance: '1m' });
    expect(res.status).toBe(400);
    expect(res.body.result.description).toMatch(/live channel/);
  });
});

describe('a gateway without a test clock, or where it is refused', () => {
  afterEach(stop);

  it('answers 404 on /admin/v1/clock when the clock is real', async () => {
    gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
    expect((await admin(gw, 'GET', '/admin/v1/clock')).status).toBe(404);
    expect((await admin(gw, 'POST', '/admin/v1/clock', { advance: '1m' })).status).toBe(404);
  });

  it('GATEWAY_TEST_CLOCK=on is refused with a live channel: the gateway does not start', async () => {
    const first = await testGateway({});
    await first.addMerchant({ channels: 1, mode: 'LIVE' });
    await first.close();
    try {
      await expect(
        testGateway({ dataDir: first.dataDir, env: { GATEWAY_TEST_CLOCK: 'on' } }),
      ).rejects.toThrow(/GATEWAY_TEST_CLOCK is refused: a live channel exists/);
      // without it, the same data starts
      gw = await testGateway({ dataDir: first.dataDir });
    } finally {
      await first.cleanup();
    }
  });

  it('GATEWAY_TEST_CLOCK=on is refused in production mode', async () => {
    await expect(
      testGateway({
        env: { GATEWAY_TEST_CLOCK: 'on', NODE_ENV: 'production', GATEWAY_TRUST_PROXY: '1' },
      }),
    ).rejects.toThrow(/GATEWAY_TEST_CLOCK is refused in production mode/);
  });

  it('GATEWAY_TEST_CLOCK=on runs with real time plus the moves', async () => {
    gw = await testGateway({ env: { GATEWAY_TEST_CLOCK: 'on', GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
    const before = Date.now();
    const res = await admin(gw, 'POST', '/admin/v1/clock', { advance: '2h' });
    expect(res.status).toBe(200);
    const now = new Date(res.body.now).getTime();
    expect(now).toBeGreaterThanOrEqual(before + 2 * HOUR);
    const shown = await admin(gw, 'GET', '/admin/v1/clock');
    expect(shown.body.frozen).toBe(false);
    // a move by nothing still runs what is due, and never sets a running clock back
    const still = await admin(gw, 'POST', '/admin/v1/clock', { advance: 0 });
    expect(still.status).toBe(200);
    expect(new Date(still.body.now).getTime()).toBeGreaterThanOrEqual(new Date(shown.body.now).getTime());
  });
});
