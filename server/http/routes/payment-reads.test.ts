/**
 * GET /v1/payments/{id} answers a final payment from its kept rendering (server/http/payment-reads.ts):
 * the same bytes as the first read but the timestamp, with the status of its result, and still
 * only to a token that may see it. (A pending payment's reads before and after it ends:
 * app-based-3ds.test.ts › challenge.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const TIMESTAMP = /"timestamp":"[^"]*"/;

describe('GET /v1/payments/{id}: a final payment read again', () => {
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 2 });
  });
  afterAll(async () => {
    await gw?.cleanup();
  });

  const pay = (card: Record<string, string> = {}) =>
    gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD, ...card },
      { token: m.token },
    );
  const read = (id: string, token = m.token, entityId = m.entityId) =>
    gw.get(`/v1/payments/${id}`, { entityId }, { token });
  const withoutTimestamp = (res: TestResponse) => res.text.replace(TIMESTAMP, '"timestamp":""');

  it('answers the same payment each time, byte for byte but a current timestamp', async () => {
    const paid = await pay();
    expect(paid.status).toBe(200);
    const first = await read(paid.body.id);
    const second = await read(paid.body.id);
    const third = await read(paid.body.id);
    for (const res of [first, second, third]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(res.body.id).toBe(paid.body.id);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.ndc).toBe(paid.body.ndc);
      expect(res.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
      expect(Object.keys(res.body).slice(-3)).toEqual(['buildNumber', 'timestamp', 'ndc']);
    }
    expect(withoutTimestamp(second)).toBe(withoutTimestamp(first));
    expect(withoutTimestamp(third)).toBe(withoutTimestamp(first));
  });

  it('keeps a decline with its HTTP 400', async () => {
    const declined = await pay({ 'card.number': '4000000000000002' });
    expect(declined.status).toBe(400);
    const first = await read(declined.body.id);
    const second = await read(declined.body.id);
    expect([first.status, second.status]).toEqual([400, 400]);
    expect(second.body.result.code).toBe(declined.body.result.code);
    expect(withoutTimestamp(second)).toBe(withoutTimestamp(first));
  });

  it('still answers 404 to a token that may not see it, after its owner read it', async () => {
    const paid = await pay();
    expect((await read(paid.body.id)).status).toBe(200);
    // Another merchant's token.
    const other = await gw.addMerchant({ channels: 1 });
    const foreign = await read(paid.body.id, other.token, other.entityId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.result.code).toBe('700.400.580');
    expect(foreign.text).not.toContain('420000');
    // The same merchant's token restricted to its other channel.
    const restricted = await gw.addToken(m.merchantId, [m.entityIds[1]!]);
    const elsewhere = await read(paid.body.id, restricted.token, m.entityIds[1]!);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).not.toContain('420000');
    // And the owner again.
    expect((await read(paid.body.id)).status).toBe(200);
  });
});
