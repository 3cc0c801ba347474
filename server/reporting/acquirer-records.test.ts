/**
 * The simulated acquirer's records through its routes (`/simulators/acquirer/transfer-failures`,
 * `/simulators/acquirer/records`): what each refuses, that a payment's transfer fails once, that a
 * settled day takes no more records, and that the reporting API shows FAILED and NOT_MATCHED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../test-kit/clock';
import { SEPA_DIRECT_DEBIT } from '../test-kit/fixtures/bank-accounts';
import { VISA_CARD_WITHOUT_CVV } from '../test-kit/fixtures/cards';
import { ADMIN_TOKEN } from '../test-kit/fixtures/tokens';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { HTTPS, PRODUCTION_BEHIND_PROXY } from '../test-kit/production';
import { settleDay } from './settlement-run';

const DAY = '2026-06-02';
const SEPA = { ...SEPA_DIRECT_DEBIT, 'bankAccount.holder': 'Max Mustermann' };

describe("the simulated acquirer's records", () => {
  const clock = fakeClock(`${DAY}T09:00:00.000Z`);
  let gw: TestGateway;
  let m: TestMerchant;
  const pay = async (params: Record<string, string>) => {
    const res = await gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '20.00', currency: 'EUR', paymentType: 'DB', ...params },
      { token: m.token },
    );
    return res;
  };
  const fail = (id: string, entityId = m.entityId) =>
    gw.post('/simulators/acquirer/transfer-failures', { entityId, id });
  const hold = (params: Record<string, string>) =>
    gw.post('/simulators/acquirer/records', { entityId: m.entityId, ...params });

  beforeAll(async () => {
    gw = await testGateway({ clock, settlement: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  it('fails the transfer of a bank-account payment once: a repeat answers the first report', async () => {
    const debit = await pay(SEPA);
    expect(debit.status, debit.text).toBe(200);
    const first = await fail(debit.body.id);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      result: { code: '000.100.110' },
      entityId: m.entityId,
      paymentId: debit.body.id,
      status: 'FAILED',
      paymentType: 'DB',
      amount: '20.00',
      currency: 'EUR',
      date: DAY,
    });
    const again = await fail(debit.body.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });

  it('refuses what has no transfer: a card payment, a declined debit (400 naming id)', async () => {
    const card = await pay(VISA_CARD_WITHOUT_CVV);
    const refused = await fail(card.body.id);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.result.code).toBe('200.300.404');
    expect(refused.body.result.parameterErrors).toEqual([
      { name: 'id', value: card.body.id, message: expect.stringContaining('not a bank-account payment') },
    ]);
    const declined = await pay({ ...SEPA, 'customParameters[forceResultCode]': '800.100.203' });
    expect(declined.status).toBe(400);
    const noMoney = await fail(declined.body.id);
    expect(noMoney.status).toBe(400);
    expect(noMoney.body.result.parameterErrors[0]).toMatchObject({ name: 'id' });
  });

  it('answers 404 for an unknown payment or entity', async () => {
    expect((await fail('0'.repeat(32))).status).toBe(404);
    expect((await fail('nope')).status).toBe(404);
    const debit = await pay(SEPA);
    expect((await fail(debit.body.id, '0'.repeat(32))).status).toBe(404);
    expect((await hold({ entityId: '0'.repeat(32), amount: '1.00', currency: 'EUR' })).status).toBe(404);
  });

  it('refuses bad records with one parameterErrors entry each', async () => {
    const res = await hold({
      amount: '1.5',
      paymentType: 'PA',
      date: '2026-02-30',
      merchantTransactionId: 'short',
      paymentBrand: 'FOOBAR',
      colour: 'red',
    });
    expect(res.status, res.text).toBe(400);
    const names = (res.body.result.parameterErrors as { name: string }[]).map((e) => e.name).sort();
    expect(names).toEqual(
      ['amount', 'colour', 'currency', 'date', 'merchantTransactionId', 'paymentBrand', 'paymentType'].sort(),
    );
    const decimals = await hold({ amount: '1.50', currency: 'JPY' });
    expect(decimals.status).toBe(400);
    expect(decimals.body.result.parameterErrors[0].name).toBe('amount');
  });

  it('settles them as FAILED and NOT_MATCHED, shown by the reporting API; a settled day takes no more', async () => {
    const held = await hold({ amount: '3.00', currency: 'EUR', paymentType: 'CD' });
    expect(held.status, held.text).toBe(200);
    const unreported = (await pay(SEPA)).body.id as string;
    clock.advance(Date.parse('2026-06-03T03:00:00.000Z') - clock.now().getTime());
    const [account] = await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, DAY, {
      merchantId: m.merchantId,
    });
    const id = account!.settlements[0]!.id;
    expect(account!.settlements[0]!.status).toBe('FAILED');
    const detail = await gw.get(
      `/reports/v1/reconciliations/aggregations/${id}`,
      { entityId: m.entityId },
      { token: m.token },
    );
    expect(detail.status, detail.text).toBe(200);
    const text = JSON.stringify(detail.body);
    expect(text).toContain('"FAILED"');
    expect(text).toContain('"NOT_MATCHED"');

    const late = await hold({ amount: '1.00', currency: 'EUR', date: DAY });
    expect(late.status).toBe(400);
    expect(late.body.result.parameterErrors[0]).toMatchObject({ name: 'date', value: DAY });
    const lateFailure = await fail(unreported);
    expect(lateFailure.status, lateFailure.text).toBe(400);
    expect(lateFailure.body.result.parameterErrors[0]).toMatchObject({
      name: 'id',
      message: `its day ${DAY} is settled already`,
    });
  });
});

describe("the simulated acquirer's records in production (NODE_ENV=production)", () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;
  beforeAll(async () => {
    gw = await testGateway({
      env: { ...PRODUCTION_BEHIND_PROXY, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    m = await gw.addMerchant({ channels: 1 });
    other = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  it("need the merchant's credentials: 401 without, 403 for another merchant's token", async () => {
    const debit = await gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '20.00', currency: 'EUR', paymentType: 'DB', ...SEPA },
      { token: m.token, headers: HTTPS },
    );
    expect(debit.status, debit.text).toBe(200);
    for (const [path, form] of [
      ['/simulators/acquirer/transfer-failures', { entityId: m.entityId, id: debit.body.id }],
      ['/simulators/acquirer/records', { entityId: m.entityId, amount: '1.00', currency: 'EUR' }],
    ] as const) {
      expect((await gw.post(path, form, { headers: HTTPS })).status).toBe(401);
      expect((await gw.post(path, form, { token: other.token, headers: HTTPS })).status).toBe(403);
      const owner = await gw.post(path, form, { token: m.token, headers: HTTPS });
      expect(owner.status, owner.text).toBe(200);
    }
  });
});
