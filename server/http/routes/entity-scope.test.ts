/**
 * `entityId` scopes the reads of payments to that channel, also for a merchant-wide token: the
 * Query API (GET /v1/query, /v1/query/{id}) and GET /v1/payments/{id}. A merchant with two
 * channels and a token for both: a query for the second channel never answers the first's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

describe('entityId scopes the reads to its channel', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let first: string;
  let second: string;

  beforeAll(async () => {
    gw = await testGateway();
    // no tokenChannels: the token may use both channels
    m = await gw.addMerchant({ channels: 2 });
    const pay = async (entityId: string) =>
      (
        await gw.post(
          '/v1/payments',
          {
            entityId,
            amount: '7.00',
            currency: 'EUR',
            paymentType: 'DB',
            merchantTransactionId: 'scope-order',
            ...VISA_CARD,
          },
          { token: m.token },
        )
      ).body.id as string;
    first = await pay(m.entityIds[0]!);
    second = await pay(m.entityIds[1]!);
  });
  afterAll(() => gw.cleanup());

  const query = (entityId: string) =>
    gw.get('/v1/query', { entityId, merchantTransactionId: 'scope-order' }, { token: m.token });
  const ids = (res: Awaited<ReturnType<typeof query>>) =>
    (res.body.payments as { id: string }[]).map((p) => p.id);

  it('lists only the named channel’s payments', async () => {
    expect(ids(await query(m.entityIds[0]!))).toEqual([first]);
    expect(ids(await query(m.entityIds[1]!))).toEqual([second]);
  });

  it('answers GET /v1/query/{id} only for a payment of the named channel', async () => {
    const own = await gw.get(`/v1/query/${second}`, { entityId: m.entityIds[1]! }, { token: m.token });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(second);
    const across = await gw.get(`/v1/query/${first}`, { entityId: m.entityIds[1]! }, { token: m.token });
    expect({ status: across.status, code: across.body.result.code }).toEqual({
      status: 400,
      code: '700.400.580',
    });
    expect(across.text).not.toContain(first);
  });

  it('answers GET /v1/payments/{id} only for a payment of the named channel, read again too', async () => {
    const read = (id: string, entityId: string) =>
      gw.get(`/v1/payments/${id}`, { entityId }, { token: m.token });
    // read once on its own channel, so its answer is kept (payment-reads.ts), then across
    expect((await read(first, m.entityIds[0]!)).status).toBe(200);
    const across = await read(first, m.entityIds[1]!);
    expect({ status: across.status, code: across.body.result.code }).toEqual({
      status: 404,
      code: '700.400.580',
    });
    expect((await read(second, m.entityIds[1]!)).status).toBe(200);
  });

  it('keeps a token restricted to one channel to it, as before', async () => {
    const restricted = await gw.addToken(m.merchantId, [m.entityIds[0]!]);
    const res = await gw.get(
      '/v1/query',
      { entityId: m.entityIds[0]!, merchantTransactionId: 'scope-order' },
      { token: restricted.token },
    );
    expect(ids(res)).toEqual([first]);
  });
});
