/**
 * What the dashboard needs to be safe with money, through the admin API: a payment's remaining
 * capturable, refundable and chargeable amounts (from its children, as the workflow counts them),
 * the environment and the gateway's clock for the banner, the audit log newest first with
 * filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, addUser, adminCall, type Session, signIn } from '../../../test-kit/admin';
import { VISA_CARD } from '../../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../../test-kit/gateway';

const CARD = { ...VISA_CARD, 'card.cvv': '987' };

let gw: TestGateway;
let m: TestMerchant;
let admin: Session;

beforeAll(async () => {
  gw = await testGateway({
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    scheduler: { autoStart: false },
    webhooks: { autoStart: false },
    testClock: true,
  });
  m = await gw.addMerchant({ channels: 1 });
  await addUser(gw, 'dash-admin', 'merchant-admin', m.merchantId);
  admin = await signIn(gw.app, 'dash-admin');
}, 60_000);
afterAll(() => gw?.cleanup());

const pay = async (paymentType: string) => {
  const res = await gw.post(
    '/v1/payments',
    { entityId: m.entityId, amount: '50.00', currency: 'EUR', paymentType, ...CARD },
    { token: m.token },
  );
  expect(res.status).toBe(200);
  return res.body.id as string;
};
const view = async (id: string) => {
  const res = await admin.call('GET', `/admin/v1/merchants/${m.merchantId}/payments/${id}`);
  expect(res.status).toBe(200);
  return res.body.payment.remaining;
};
const act = (id: string, path: string, amount?: string) =>
  admin.call(
    'POST',
    `/admin/v1/merchants/${m.merchantId}/payments/${id}/${path}`,
    amount === undefined ? {} : { amount, currency: 'EUR' },
  );

describe('a payment’s remaining amounts', () => {
  it('counts a debit’s refunds and chargebacks off what remains refundable', async () => {
    const id = await pay('DB');
    expect(await view(id)).toEqual({
      currency: 'EUR',
      capturable: null,
      refundable: '50.00',
      reversible: '50.00',
      chargeable: '50.00',
    });
    expect((await act(id, 'refunds', '12.00')).status).toBe(200);
    expect((await act(id, 'chargebacks', '8.50')).status).toBe(200);
    expect(await view(id)).toEqual({
      currency: 'EUR',
      capturable: null,
      refundable: '29.50',
      reversible: '0.00',
      chargeable: '41.50',
    });
  });

  it('counts a preauthorization’s captures off what remains capturable', async () => {
    const id = await pay('PA');
    expect(await view(id)).toMatchObject({ capturable: '50.00', refundable: null, reversible: '50.00' });
    expect((await act(id, 'captures', '20.00')).status).toBe(200);
    expect(await view(id)).toMatchObject({ capturable: '30.00', refundable: null, reversible: '0.00' });
  });
});

describe('the banner’s environment', () => {
  it('says test and the gateway’s clock to any signed-in user', async () => {
    const moved = await adminCall(gw.app, 'POST', '/admin/v1/clock', {
      token: ADMIN_TOKEN,
      body: { advance: '30d' },
    });
    expect(moved.status).toBe(200);
    // a month on, the session has expired: a new one
    admin = await signIn(gw.app, 'dash-admin');
    const res = await admin.call('GET', '/admin/v1/environment');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ environment: 'test', clock: { testClock: true } });
    // the gateway's time, a month ahead of the wall clock
    expect(Date.parse(res.body.clock.now)).toBeGreaterThanOrEqual(Date.parse(moved.body.now));
    expect(Date.parse(res.body.clock.now)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });
});

describe('the audit log', () => {
  it('lists newest first, pages towards older entries, and filters by actor and action', async () => {
    const operator = (method: string, path: string, body?: unknown) =>
      adminCall(gw.app, method, path, { token: ADMIN_TOKEN, ...(body === undefined ? {} : { body }) });
    expect((await operator('POST', '/admin/v1/merchants', { name: 'Audited shop' })).status).toBeLessThan(
      300,
    );
    for (let i = 0; i < 3; i++)
      expect(
        (await admin.call('PUT', `/admin/v1/channels/${m.entityId}/risk-rules`, { rules: null })).status,
      ).toBe(200);
    const page = await operator('GET', '/admin/v1/audit?limit=2');
    expect(page.status).toBe(200);
    const ids = page.body.entries.map((e: { id: number }) => e.id);
    expect(ids[0]).toBeGreaterThan(ids[1]);
    const older = await operator('GET', `/admin/v1/audit?limit=2&before=${page.body.next}`);
    expect(older.body.entries[0].id).toBeLessThan(ids[1]);
    const byAction = await operator('GET', '/admin/v1/audit?action=channel.risk-rules');
    expect(byAction.body.entries.map((e: { action: string }) => e.action)).toEqual([
      'channel.risk-rules',
      'channel.risk-rules',
      'channel.risk-rules',
    ]);
    const byActor = await operator('GET', '/admin/v1/audit?actor=dash-admin');
    expect(byActor.body.entries.length).toBeGreaterThan(0);
    expect(byActor.body.entries.every((e: { actor: string }) => e.actor === 'dash-admin')).toBe(true);
    const future = await operator('GET', '/admin/v1/audit?from=2999-01-01T00:00:00Z');
    expect(future.body.entries).toEqual([]);
    const bad = await operator('GET', '/admin/v1/audit?from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(['from']);
  });
});

describe('the webhook delivery log', () => {
  it('filters by event type and endpoint, pages with next, and resends a delivered delivery', async () => {
    const hook = await admin.call('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, { inbox: true });
    expect(hook.status, hook.text).toBeLessThan(300);
    const webhookId = hook.body.id ?? hook.body.webhook?.id;
    await pay('DB');
    await pay('DB');
    const log = (q: string) =>
      admin.call('GET', `/admin/v1/merchants/${m.merchantId}/webhook-deliveries${q}`);
    const payments = await log(`?type=PAYMENT&webhookId=${webhookId}`);
    expect(payments.status, payments.text).toBe(200);
    expect(payments.body.deliveries.length).toBeGreaterThanOrEqual(2);
    expect(new Set(payments.body.deliveries.map((d: { type: string }) => d.type))).toEqual(
      new Set(['PAYMENT']),
    );
    const first = await log(`?type=PAYMENT&limit=1`);
    expect(first.body.next).toBe(String(first.body.deliveries[0].id));
    const second = await log(`?type=PAYMENT&limit=1&before=${first.body.next}`);
    expect(second.body.deliveries[0].id).toBeLessThan(first.body.deliveries[0].id);
    const bad = await log('?type=payment!');
    expect(bad.status).toBe(400);
    expect(bad.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(['type']);
    // delivered into the inbox: a delivered one may be sent again (not only a dead-lettered one)
    await gw.webhooks.runOnce();
    const done = await log(`?status=delivered&webhookId=${webhookId}`);
    const delivered = done.body.deliveries[0];
    expect(delivered, done.text).toBeDefined();
    const resent = await admin.call(
      'POST',
      `/admin/v1/merchants/${m.merchantId}/webhook-deliveries/${delivered.id}/redeliver`,
    );
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ id: delivered.id, status: 'pending', attempts: 0 });
  });
});
