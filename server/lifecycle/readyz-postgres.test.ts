/**
 * PostgreSQL that refuses writes (issue 30, hole 6): /readyz turns not ready, and a payment is
 * answered as on a full SQLite disk (readyz-write.test.ts): 503 with Retry-After and the family's
 * 800.800.800, never a 500. The database is made to refuse writes for real: the throwaway
 * cluster's default_transaction_read_only turned on for every session (ALTER SYSTEM and a
 * reload), as a standby or an operator's read-only switch answers (SQLSTATE 25006). Before: 200
 * "ready" while every payment answered 500.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';

const unavailable = postgresUnavailableReason();

/** Every session's default, on or off, applied by a reload (the gateway's open connections too). */
async function readOnly(url: string, on: boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SET default_transaction_read_only = off');
    await admin.query(`ALTER SYSTEM SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
    await admin.query('SELECT pg_reload_conf()');
  } finally {
    await admin.end();
  }
  // the backends read the reloaded file before their next command; the probe's verdict stands a second
  await new Promise((r) => setTimeout(r, 1_200));
}

describe.skipIf(unavailable !== undefined)('PostgreSQL that refuses writes', () => {
  let cluster: PostgresCluster;
  let gw: TestGateway;
  let m: TestMerchant;
  beforeAll(async () => {
    cluster = await startPostgres();
    gw = await testGateway({ databaseUrl: cluster.url });
    m = await gw.addMerchant({ channels: 1 });
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
    await cluster?.stop();
  });

  const pay = (merchantTransactionId: string) =>
    gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '3.00',
        currency: 'EUR',
        paymentType: 'DB',
        merchantTransactionId,
        ...VISA_CARD,
      },
      { token: m.token },
    );

  it('readyz 503 "not writable" and payments 503 800.800.800 with Retry-After; both back once it writes', async () => {
    expect((await gw.app.request('http://localhost/readyz')).status).toBe(200);
    await readOnly(cluster.url, true);
    try {
      const ready = await gw.app.request('http://localhost/readyz');
      const report = await ready.json();
      const refused = await pay('read-only-1');
      console.info(
        `read-only PostgreSQL: readyz ${ready.status} ${report.storage}, payment ${refused.status} ${JSON.stringify(refused.body?.result)}`,
      );
      expect([ready.status, report.storage]).toEqual([503, 'not writable']);
      expect([refused.status, refused.body.result.code]).toEqual([503, '800.800.800']);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await readOnly(cluster.url, false);
    }
    expect((await gw.app.request('http://localhost/readyz')).status).toBe(200);
    const found = await gw.get(
      '/v1/query',
      { entityId: m.entityId, merchantTransactionId: 'read-only-1' },
      { token: m.token },
    );
    expect([found.status, found.body.result.code]).toEqual([400, '700.400.580']);
    const paid = await pay('read-only-2');
    expect([paid.status, paid.body.result.code]).toEqual([200, '000.100.110']);
  }, 120_000);
});

if (unavailable !== undefined) it.skip(`PostgreSQL read-only test skipped: ${unavailable}`, () => {});
