/**
 * Targeted lockout (issue 30, hole 1): the userId is the first half of every token, the FTP user
 * name, and shown to dashboard viewers, so anyone knows it. Failed logins counted per user id let
 * a third party deny the merchant its own API with ten wrong secrets a minute. The attack here,
 * through the real app behind a trusted proxy (X-Forwarded-For is the client's address): wrong
 * secrets for the demo merchant's userId from several addresses, interleaved with the merchant's
 * real payments with its right token. None of the real ones may be refused; the attacker's own
 * addresses are still throttled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../../../test-kit/fixtures/cards';
import { ftpLogin } from '../../../test-kit/ftp';
import { type TestGateway, testGateway } from '../../../test-kit/gateway';

const ATTACKERS = ['203.0.113.1', '203.0.113.2', '2001:db8:1::1', '2001:db8:2::1'];
const MERCHANT = '198.51.100.7';

const wrongToken = (userId: string, n: number) => Buffer.from(`${userId}|wrong-${n}`).toString('base64');

describe('no one can lock a merchant out of its API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway({ env: { GATEWAY_TRUST_PROXY: '1' }, ftp: { port: 0 } });
  });
  afterAll(() => gw?.cleanup());

  it('wrong secrets for the merchant’s userId from several addresses refuse none of its real payments', async () => {
    const demo = gw.demo!;
    const userId = Buffer.from(demo.accessToken, 'base64').toString('utf8').split('|')[0]!;
    const real: number[] = [];
    const attack: Record<string, number[]> = Object.fromEntries(ATTACKERS.map((a) => [a, []]));
    let retryAfter: string | null = null;
    for (let round = 0; round < 15; round++) {
      for (const address of ATTACKERS) {
        const res = await gw.post(
          '/v1/payments',
          { entityId: demo.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD },
          { token: wrongToken(userId, round), headers: { 'X-Forwarded-For': address } },
        );
        attack[address]!.push(res.status);
        if (res.status === 429) retryAfter = res.headers.get('retry-after');
      }
      const paid = await gw.post(
        '/v1/payments',
        { entityId: demo.entityId, amount: '2.00', currency: 'EUR', paymentType: 'PA', ...VISA_CARD },
        { token: demo.accessToken, headers: { 'X-Forwarded-For': MERCHANT } },
      );
      real.push(paid.status);
    }
    expect(real.filter((status) => status === 429 || status === 403 || status === 401)).toEqual([]);
    // each attacking address: ten failures, then throttled (429 with Retry-After)
    for (const address of ATTACKERS) {
      expect([address, attack[address]]).toEqual([address, [...Array(10).fill(403), ...Array(5).fill(429)]]);
    }
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('an IPv6 attacker cannot escape the throttle by changing the host half of its /64', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await gw.get(
        `/v1/payments/${'0'.repeat(32)}`,
        { entityId: gw.demo!.entityId },
        {
          token: wrongToken(`${i}`.padStart(32, 'f'), i),
          headers: { 'X-Forwarded-For': `2001:db8:77::${i + 1}` },
        },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(10).fill(403), 429, 429]);
  });

  it('bad FTP logins with the merchant’s user name lock neither its FTP login elsewhere nor its API', async () => {
    const demo = gw.demo!;
    const [userId, secret] = Buffer.from(demo.accessToken, 'base64').toString('utf8').split('|');
    const replies: string[] = [];
    for (let i = 0; i < 12; i++)
      replies.push(await ftpLogin(gw.ftp!.port, '127.0.0.3', userId!, `guess-${i}`));
    expect(replies.slice(10).every((r) => /^530 .*Too many/.test(r))).toBe(true);
    expect(await ftpLogin(gw.ftp!.port, '127.0.0.4', userId!, secret!)).toMatch(/^230 /);
    const paid = await gw.post(
      '/v1/payments',
      { entityId: demo.entityId, amount: '3.00', currency: 'EUR', paymentType: 'PA', ...VISA_CARD },
      { token: demo.accessToken, headers: { 'X-Forwarded-For': MERCHANT } },
    );
    expect(paid.status).toBe(200);
  });
});
