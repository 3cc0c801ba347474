/**
 * Answers to ids that name nothing the caller may see, as the family gives them (decisions, Wire
 * format): a referencing request is HTTP 400 with the workflow code of its type, a query by id
 * 400 `700.400.580`, a checkout's status 400 `200.300.404`; GET /v1/payments/{id} stays 404
 * `700.400.580`. The same for an id of another merchant and for a malformed one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

/** The family's captured example of an id (activemerchant's remote test): names nothing here. */
const UNKNOWN = '8a8444494a0033a6014e12b371fb6a1e';
const MALFORMED = 'not-an-id';

describe('ids that name nothing the caller may see', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;
  /** A payment of another merchant: unknown to m. */
  let foreign: string;
  /** A checkout of another merchant. */
  let foreignCheckout: string;

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
    other = await gw.addMerchant({ channels: 1 });
    const paid = await gw.post(
      '/v1/payments',
      { entityId: other.entityId, amount: '5.00', currency: 'EUR', paymentType: 'PA', ...VISA_CARD },
      { token: other.token },
    );
    foreign = paid.body.id;
    const checkout = await gw.post(
      '/v1/checkouts',
      { entityId: other.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
      { token: other.token },
    );
    foreignCheckout = checkout.body.id;
  });
  afterAll(() => gw.cleanup());

  const expectAnswer = (res: TestResponse, status: number, code: string) => {
    expect({ status: res.status, code: res.body?.result?.code }).toEqual({ status, code });
    expect(res.body.id).toBeUndefined();
  };

  it('answers a referencing request with the workflow code of its type, HTTP 400', async () => {
    const expected = { CP: '700.400.510', RV: '700.400.530', RF: '600.200.500', RB: '700.100.100' };
    for (const id of [UNKNOWN, MALFORMED, () => foreign]) {
      const named = typeof id === 'function' ? id() : id;
      for (const [paymentType, code] of Object.entries(expected)) {
        const res = await gw.post(
          `/v1/payments/${named}`,
          { entityId: m.entityId, paymentType, amount: '1.00', currency: 'EUR' },
          { token: m.token },
        );
        expectAnswer(res, 400, code);
      }
    }
    // nothing was recorded for them
    expect(await gw.paymentIds(m.merchantId)).toEqual([]);
  });

  it('answers GET /v1/query/{id} with 400 700.400.580', async () => {
    for (const id of [UNKNOWN, MALFORMED, foreign]) {
      const res = await gw.get(`/v1/query/${id}`, { entityId: m.entityId }, { token: m.token });
      expectAnswer(res, 400, '700.400.580');
    }
  });

  it('answers a search by a merchantTransactionId nobody used with 400 700.400.580', async () => {
    // the family's recorded answer (PayUnity's testQueryMerchantUnknown); HyperPay's plugin reads it as "none yet"
    const res = await gw.get(
      '/v1/query',
      { entityId: m.entityId, merchantTransactionId: 'doesntexist' },
      { token: m.token },
    );
    expectAnswer(res, 400, '700.400.580');
    expect(res.body.payments).toBeUndefined();
    // a time frame without transactions is still an empty list (the spec's letter: the family is silent)
    const day = await gw.get(
      '/v1/query',
      { entityId: m.entityId, 'date.from': '2020-01-01 00:00:00', 'date.to': '2020-01-01 23:59:59' },
      { token: m.token },
    );
    expect({ status: day.status, code: day.body.result.code, payments: day.body.payments }).toEqual({
      status: 200,
      code: '000.000.100',
      payments: [],
    });
  });

  it('answers the status of an unknown checkout with 400 200.300.404', async () => {
    for (const id of [`${UNKNOWN.toUpperCase()}.uat01-vm-tx01`, MALFORMED, foreignCheckout]) {
      const res = await gw.get(`/v1/checkouts/${id}/payment`, { entityId: m.entityId }, { token: m.token });
      expectAnswer(res, 400, '200.300.404');
      expect(res.body.result.description).toMatch(/No payment session found for the requested id/);
    }
  });

  it('keeps GET /v1/payments/{id} at 404 700.400.580', async () => {
    for (const id of [UNKNOWN, MALFORMED, foreign]) {
      const res = await gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });
      expectAnswer(res, 404, '700.400.580');
    }
  });
});
