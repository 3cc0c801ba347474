/**
 * The day's figures through the admin API (GET /admin/v1/figures): the initial payments of the
 * day on the address's environment, hour by hour, per currency and brand, amounts as decimal
 * strings summed in minor units; a merchant user's own merchant, an operator's all or one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../shared/engine/core/ids';
import type { Payment } from '../../../shared/engine/core/model';
import { asMinor } from '../../../shared/money';
import { ADMIN_TOKEN, addUser, adminCall, type Session, signIn } from '../../test-kit/admin';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

let gw: TestGateway;
let shop: TestMerchant;
let other: TestMerchant;
let viewer: Session;

const DAY = '2026-11-01';
const at = (time: string) => new Date(`${DAY}T${time}Z`);

async function seed(
  m: TestMerchant,
  createdAt: Date,
  fields: Partial<Payment> & Pick<Payment, 'resultCode'>,
  channel = m.entityId,
): Promise<Payment> {
  const p: Payment = {
    id: newId(),
    merchantId: m.merchantId,
    channelId: channel,
    paymentType: 'DB',
    paymentBrand: 'VISA',
    amount: asMinor(1000),
    currency: 'EUR',
    resultDescription: '',
    shortId: `1000.0000.${Math.floor(Math.random() * 9999)}`,
    ndc: newId(),
    details: {},
    createdAt,
    ...fields,
  };
  await gw.store.insertPayment(p);
  return p;
}

const SUCCESS = '000.100.110';
const DECLINED = '800.100.151';
const REJECTED = '100.100.101';
const PENDING = '000.200.000';

beforeAll(async () => {
  gw = await testGateway({
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    scheduler: { autoStart: false },
    webhooks: { autoStart: false },
  });
  shop = await gw.addMerchant({ channels: 2 });
  other = await gw.addMerchant({ channels: 1 });
  const live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
  await addUser(gw, 'figures-viewer', 'merchant-viewer', shop.merchantId);
  viewer = await signIn(gw.app, 'figures-viewer');
  // the shop's day: two hours, two brands, two currencies, both channels
  const paid = await seed(shop, at('09:05:00'), { resultCode: SUCCESS, amount: asMinor(1999) });
  await seed(shop, at('09:40:00'), { resultCode: SUCCESS, amount: asMinor(1), paymentType: 'PA' });
  await seed(shop, at('09:59:59.999'), { resultCode: DECLINED, amount: asMinor(5000) });
  await seed(
    shop,
    at('14:00:00'),
    { resultCode: SUCCESS, paymentBrand: 'MASTER', currency: 'JPY', amount: asMinor(1500) },
    shop.entityIds[1],
  );
  await seed(shop, at('14:30:00'), { resultCode: REJECTED, paymentBrand: 'MASTER' });
  await seed(shop, at('23:59:59.999'), { resultCode: PENDING });
  // not counted: a refund on the day's payment, the days around it, another merchant, a live channel
  await seed(shop, at('10:00:00'), { resultCode: SUCCESS, paymentType: 'RF', referencedId: paid.id });
  await seed(shop, new Date('2026-10-31T23:59:59.999Z'), { resultCode: SUCCESS });
  await seed(shop, new Date('2026-11-02T00:00:00Z'), { resultCode: SUCCESS });
  await seed(other, at('12:00:00'), { resultCode: SUCCESS, amount: asMinor(700) });
  await seed(live, at('12:00:00'), { resultCode: SUCCESS });
}, 60_000);
afterAll(() => gw?.cleanup());

const operator = (query: string) =>
  adminCall(gw.app, 'GET', `/admin/v1/figures${query}`, { token: ADMIN_TOKEN });

describe("the day's figures", () => {
  it("are the merchant's initial payments of the day, hour by hour, per currency and brand", async () => {
    const res = await viewer.call('GET', `/admin/v1/figures?day=${DAY}`);
    expect(res.status).toBe(200);
    const f = res.body.figures;
    expect(f).toMatchObject({
      day: DAY,
      merchantId: shop.merchantId,
      payments: 6,
      success: 3,
      declined: 1,
      rejected: 1,
      pending: 1,
      successRate: 0.6,
      declineRate: 0.2,
    });
    expect(f.volume).toEqual([
      { currency: 'EUR', amount: '20.00', hours: expect.any(Array) },
      { currency: 'JPY', amount: '1500', hours: expect.any(Array) },
    ]);
    expect(f.volume[0].hours[9]).toBe('20.00');
    expect(f.volume[0].hours.filter((h: string) => h !== '0.00')).toEqual(['20.00']);
    expect(f.volume[1].hours[14]).toBe('1500');
    expect(f.hours).toHaveLength(24);
    expect(f.hours[9]).toEqual({ hour: 9, payments: 3, success: 2, declined: 1, rejected: 0, pending: 0 });
    expect(f.hours[23]).toMatchObject({ payments: 1, pending: 1 });
    expect(f.brands).toEqual([
      expect.objectContaining({
        brand: 'VISA',
        payments: 4,
        success: 2,
        declined: 1,
        successRate: 0.6667,
        volume: [{ currency: 'EUR', amount: '20.00' }],
      }),
      expect.objectContaining({
        brand: 'MASTER',
        payments: 2,
        success: 1,
        rejected: 1,
        declineRate: 0,
        volume: [{ currency: 'JPY', amount: '1500' }],
      }),
    ]);
  });

  it("are every merchant's for an operator, or the one asked for", async () => {
    const all = await operator(`?day=${DAY}`);
    expect(all.status).toBe(200);
    expect(all.body.figures).toMatchObject({ merchantId: null, payments: 7, success: 4 });
    expect(all.body.figures.volume[0]).toMatchObject({ currency: 'EUR', amount: '27.00' });
    const one = await operator(`?day=${DAY}&merchantId=${other.merchantId}`);
    expect(one.body.figures).toMatchObject({ merchantId: other.merchantId, payments: 1, successRate: 1 });
  });

  it('of a day without payments are zeros, the rates null', async () => {
    const res = await viewer.call('GET', '/admin/v1/figures?day=2026-01-01');
    expect(res.body.figures).toMatchObject({
      payments: 0,
      successRate: null,
      declineRate: null,
      volume: [],
      brands: [],
    });
    expect(res.body.figures.hours).toHaveLength(24);
  });

  it('default to the gateway’s today', async () => {
    const res = await viewer.call('GET', '/admin/v1/figures');
    expect(res.status).toBe(200);
    expect(res.body.figures.day).toBe(gw.clock.now().toISOString().slice(0, 10));
  });

  it('refuse a bad day or merchant id naming the field, and another merchant as unknown', async () => {
    const bad = await operator('?day=2026-02-30&merchantId=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
      'day',
      'merchantId',
    ]);
    const theirs = await viewer.call('GET', `/admin/v1/figures?merchantId=${other.merchantId}`);
    expect(theirs.status).toBe(404);
  });
});
