/**
 * The dashboard's payments and back office through the admin API: keyset pages over many rows,
 * search filters, a payment's page, captures/refunds/reversals with the merchant API's rules and
 * codes; tokens' last use, risk rules, schedules and settlement files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../../shared/engine/core/ids';
import type { Payment } from '../../../../shared/engine/core/model';
import { asMinor } from '../../../../shared/money';
import { reconciliationCsv, settle } from '../../../../shared/settlement';
import { ADMIN_TOKEN, addUser, adminCall, type Session, signIn } from '../../../test-kit/admin';
import { VISA_CARD } from '../../../test-kit/fixtures/cards';
import { eurConfig, merchantDay } from '../../../test-kit/fixtures/settlement-day';
import { type TestGateway, type TestMerchant, testGateway } from '../../../test-kit/gateway';
import { saveRun } from '../../../test-kit/settlement/saved-run';

const CARD = { ...VISA_CARD, 'card.cvv': '987' };

let gw: TestGateway;
let m: TestMerchant;
let admin: Session;

beforeAll(async () => {
  gw = await testGateway({
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    scheduler: { autoStart: false },
    webhooks: { autoStart: false },
  });
  m = await gw.addMerchant({ channels: 2 });
  await addUser(gw, 'shop-admin', 'merchant-admin', m.merchantId);
  admin = await signIn(gw.app, 'shop-admin');
}, 60_000);
afterAll(() => gw?.cleanup());

const pay = (params: Record<string, string>) =>
  gw.post(
    '/v1/payments',
    { entityId: m.entityId, amount: '50.00', currency: 'EUR', ...CARD, ...params },
    { token: m.token },
  );

describe('the payments list', () => {
  const seeded: Payment[] = [];
  let merchant: TestMerchant;
  beforeAll(async () => {
    merchant = await gw.addMerchant({ channels: 2 });
    const live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
    const base = Date.parse('2026-11-01T00:00:00Z');
    for (let i = 0; i < 230; i++) {
      // three payments share each millisecond: the id orders them
      const p: Payment = {
        id: newId(),
        merchantId: merchant.merchantId,
        channelId: merchant.entityIds[i % 2]!,
        paymentType: 'DB',
        paymentBrand: i % 5 === 0 ? 'MASTER' : 'VISA',
        amount: asMinor(1000 + (i % 7)),
        currency: i % 11 === 0 ? 'JPY' : 'EUR',
        resultCode: i % 4 === 0 ? '800.100.151' : i % 9 === 0 ? '000.200.000' : '000.100.110',
        resultDescription: '',
        shortId: `1000.0000.${String(i).padStart(4, '0')}`,
        ndc: newId(),
        merchantTransactionId: `order-${i}`,
        details: {},
        createdAt: new Date(base + Math.floor(i / 3) * 60_000),
      };
      await gw.store.insertPayment(p);
      seeded.push(p);
    }
    // a live channel's payment of the same merchant id space is never listed on the test address
    await gw.store.insertPayment({
      ...seeded[0]!,
      id: newId(),
      merchantId: live.merchantId,
      channelId: live.entityId,
    });
  }, 60_000);

  const newestFirst = (ps: Payment[]) =>
    [...ps]
      .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? 1 : -1))
      .map((p) => p.id);
  const list = (query: string) =>
    adminCall(gw.app, 'GET', `/admin/v1/merchants/${merchant.merchantId}/payments?${query}`, {
      token: ADMIN_TOKEN,
    });

  async function allPages(query: string, limit: number): Promise<string[]> {
    const ids: string[] = [];
    let after: string | null = null;
    for (let n = 0; n < 100; n++) {
      const res = await list(`${query}&limit=${limit}${after === null ? '' : `&after=${after}`}`);
      expect(res.status, res.text).toBe(200);
      ids.push(...res.body.payments.map((p: { id: string }) => p.id));
      after = res.body.next;
      if (after === null) return ids;
      expect(res.body.payments).toHaveLength(limit);
    }
    throw new Error('too many pages');
  }

  it('returns every payment once, newest first, in keyset pages (ties ordered by id)', async () => {
    expect(await allPages('', 25)).toEqual(newestFirst(seeded));
    expect(await allPages('', 100)).toEqual(newestFirst(seeded));
    const first = await list('limit=2');
    expect(first.body.payments[0]).toMatchObject({
      paymentType: 'DB',
      result: { code: expect.any(String), description: expect.any(String) },
      status: expect.stringMatching(/^(success|pending|declined|rejected)$/),
      shortId: expect.any(String),
      entityId: expect.any(String),
    });
  });

  it('filters by status, brand, amount, merchantTransactionId, shortId and dates', async () => {
    const of = (f: (p: Payment) => boolean) => newestFirst(seeded.filter(f));
    expect(await allPages('status=declined', 30)).toEqual(of((_) => false || _.resultCode === '800.100.151'));
    expect(await allPages('status=pending', 30)).toEqual(of((p) => p.resultCode === '000.200.000'));
    expect(await allPages('status=success', 30)).toEqual(of((p) => p.resultCode === '000.100.110'));
    expect(await allPages('status=rejected', 30)).toEqual([]);
    expect(await allPages('brand=MASTER', 30)).toEqual(of((p) => p.paymentBrand === 'MASTER'));
    // 10.03 EUR is 1003 minor units; JPY 1003 is not 10.03
    expect(await allPages('amount=10.03', 30)).toEqual(of((p) => p.amount === 1003 && p.currency === 'EUR'));
    expect(await allPages('merchantTransactionId=order-17', 30)).toEqual(
      of((p) => p.merchantTransactionId === 'order-17'),
    );
    expect(await allPages('shortId=1000.0000.0042', 30)).toEqual(of((p) => p.shortId === '1000.0000.0042'));
    const from = Date.parse('2026-11-01T00:10:00Z');
    const to = Date.parse('2026-11-01T00:20:00Z');
    expect(await allPages('from=2026-11-01T00:10:00Z&to=2026-11-01T00:20:00Z', 7)).toEqual(
      of((p) => p.createdAt.getTime() >= from && p.createdAt.getTime() < to),
    );
  });

  it('names each faulty parameter (400)', async () => {
    const res = await list('status=maybe&limit=101&after=nope&amount=ten&from=yesterday&id=XYZ');
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual(
      ['after', 'amount', 'from', 'id', 'limit', 'status'].sort(),
    );
  });
});

describe('the back office', () => {
  it('captures, refunds and reverses as POST /v1/payments/{id} does, and shows the payment’s page', async () => {
    const auth = await pay({ paymentType: 'PA', merchantTransactionId: 'bo-order-1' });
    expect(auth.status, auth.text).toBe(200);
    const base = `/admin/v1/merchants/${m.merchantId}/payments/${auth.body.id}`;
    const capture = await admin.call('POST', `${base}/captures`, { amount: '30.00', currency: 'EUR' });
    expect(capture.status, capture.text).toBe(200);
    expect(capture.body).toMatchObject({
      paymentType: 'CP',
      amount: '30.00',
      currency: 'EUR',
      referencedId: auth.body.id,
    });
    // more than is left: the workflow's own refusal, as the merchant API answers it
    const over = await admin.call('POST', `${base}/captures`, { amount: '30.00', currency: 'EUR' });
    const viaApi = await gw.post(
      `/v1/payments/${auth.body.id}`,
      { entityId: m.entityId, paymentType: 'CP', amount: '30.00', currency: 'EUR' },
      { token: m.token },
    );
    expect([over.status, over.body.result.code]).toEqual([viaApi.status, viaApi.body.result.code]);
    const bad = await admin.call('POST', `${base}/captures`, { amount: 'ten', currency: 'EUR' });
    expect(bad.status).toBe(400);
    expect(bad.body.result.parameterErrors[0].name).toBe('amount');

    const refund = await admin.call(
      'POST',
      `/admin/v1/merchants/${m.merchantId}/payments/${capture.body.id}/refunds`,
      {
        amount: '5.00',
        currency: 'EUR',
      },
    );
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.paymentType).toBe('RF');

    const page = await admin.call('GET', base);
    expect(page.status).toBe(200);
    expect(page.body.payment).toMatchObject({
      id: auth.body.id,
      paymentType: 'PA',
      merchantTransactionId: 'bo-order-1',
      last4: '0000',
    });
    expect(page.body.payment.response.card.bin).toBe('420000');
    expect(page.body.related.map((p: { paymentType: string }) => p.paymentType).sort()).toEqual([
      'CP',
      'CP',
      'CP',
      'RF',
    ]);
    expect(page.body).toHaveProperty('threeDSecure');
    expect(page.body).toHaveProperty('risk');
    expect(Array.isArray(page.body.deliveries)).toBe(true);
    expect(page.body.checkout).toBeNull();
    expect(JSON.stringify(page.body)).not.toContain('4200000000000000');

    const other = await pay({ paymentType: 'PA' });
    const reversal = await admin.call(
      'POST',
      `/admin/v1/merchants/${m.merchantId}/payments/${other.body.id}/reversals`,
      {},
    );
    expect(reversal.status, reversal.text).toBe(200);
    expect(reversal.body.paymentType).toBe('RV');
    const audit = await adminCall(gw.app, 'GET', '/admin/v1/audit?limit=500', { token: ADMIN_TOKEN });
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['payment.CP', 'payment.RF', 'payment.RV']),
    );
  });
});

describe('tokens, risk rules, schedules, settlements', () => {
  it('shows a token’s last use after it is used', async () => {
    const before = await admin.call('GET', `/admin/v1/merchants/${m.merchantId}/tokens`);
    const token = before.body.tokens.find((t: { id: string }) => t.id === m.tokenId);
    expect(token).toMatchObject({ environment: 'test', channels: [], revokedAt: null });
    await pay({ paymentType: 'DB' });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the last use is written in the background
    const after = await admin.call('GET', `/admin/v1/merchants/${m.merchantId}/tokens`);
    expect(after.body.tokens.find((t: { id: string }) => t.id === m.tokenId).lastUsedAt).toEqual(
      expect.any(String),
    );
    const created = await admin.call('POST', `/admin/v1/merchants/${m.merchantId}/tokens`, {
      channels: [m.entityIds[1]],
    });
    expect(created.status).toBe(201);
    const works = await gw.get(
      `/v1/payments/${(await pay({ paymentType: 'DB' })).body.id}`,
      { entityId: m.entityIds[1]! },
      {
        token: created.body.accessToken,
      },
    );
    expect(works.status).toBe(404); // a token of channel 2 does not see channel 1's payment: it authenticates
    const wrong = await admin.call('POST', `/admin/v1/merchants/${m.merchantId}/tokens`, {
      environment: 'prod',
      channels: ['x'],
    });
    expect(wrong.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
      'environment',
      'channels',
    ]);
  });

  it('sets risk rules, naming each faulty field', async () => {
    const path = `/admin/v1/channels/${m.entityId}/risk-rules`;
    expect((await admin.call('GET', path)).body.rules).toBeNull();
    const bad = await admin.call('PUT', path, { rules: { velocity: [{ windowSeconds: 0 }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.result.parameterErrors.length).toBeGreaterThan(0);
    expect(bad.body.result.parameterErrors[0].name).toMatch(/^rules\.velocity\[0\]/);
    const good = await admin.call('PUT', path, { rules: { blockedCardCountries: ['KP'] } });
    expect(good.status, good.text).toBe(200);
    expect((await admin.call('GET', path)).body.rules).toEqual(good.body.rules);
  });

  it('lists schedules and deschedules one', async () => {
    const reg = await gw.post('/v1/registrations', { entityId: m.entityId, ...CARD }, { token: m.token });
    const created = await gw.post(
      '/scheduling/v1/schedules',
      {
        entityId: m.entityId,
        amount: '9.99',
        currency: 'EUR',
        paymentType: 'DB',
        registrationId: reg.body.id,
        'job.expression': '0 0 6 1 * ?',
      },
      { token: m.token },
    );
    expect(created.status, created.text).toBe(200);
    const listed = await admin.call('GET', `/admin/v1/merchants/${m.merchantId}/schedules`);
    expect(listed.body.schedules[0]).toMatchObject({
      id: created.body.id,
      state: 'ACTIVE',
      amount: '9.99',
      currency: 'EUR',
    });
    const path = `/admin/v1/merchants/${m.merchantId}/schedules/${created.body.id}`;
    expect((await admin.call('DELETE', path)).status).toBe(200);
    expect((await admin.call('DELETE', path)).status).toBe(400);
    expect(
      (await admin.call('GET', `/admin/v1/merchants/${m.merchantId}/schedules`)).body.schedules[0].state,
    ).toBe('CANCELLED');
  });

  it('lists settlement files and downloads one as CSV', async () => {
    const records = settle(merchantDay, eurConfig).map((record) => ({ record }));
    const createdAt = new Date('2026-11-02T02:00:00Z');
    await saveRun(
      gw.store,
      {
        channelId: m.entityId,
        date: '2026-11-01',
        merchantId: m.merchantId,
        settlementCount: 1,
        recordCount: records.length,
        fileName: 'x.csv',
        createdAt,
      },
      [
        {
          settlement: {
            id: newId(),
            merchantId: m.merchantId,
            channelId: m.entityId,
            date: '2026-11-01',
            currency: 'EUR',
            status: 'SUCCESS',
            recordCount: records.length,
            counts: { settled: records.length, chargebacks: 0, chargebackReversals: 0, fees: 0 },
            totals: { positive: asMinor(1), negative: asMinor(0), fees: asMinor(0) },
            createdAt,
          },
          records,
        },
      ],
    );
    const files = await admin.call(
      'GET',
      `/admin/v1/merchants/${m.merchantId}/settlements?from=2026-10-01&to=2026-11-30`,
    );
    expect(files.body.files).toEqual([
      {
        date: '2026-11-01',
        entityId: m.entityId,
        records: records.length,
        createdAt: createdAt.toISOString(),
      },
    ]);
    const res = await gw.app.request(
      `http://localhost/admin/v1/merchants/${m.merchantId}/settlements/2026-11-01/file`,
      {
        headers: { cookie: admin.cookie },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="reconciliation_.*\.csv"$/);
    // streamed a page of records at a time: the bytes of the whole file
    expect(await res.text()).toBe(reconciliationCsv(records));
    expect(
      (await admin.call('GET', `/admin/v1/merchants/${m.merchantId}/settlements/2026-10-01/file`)).status,
    ).toBe(404);
  });
});
