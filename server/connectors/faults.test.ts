/**
 * The fault matrix of a connector channel (issue 32 point 5): a scripted upstream on 127.0.0.1
 * (server/test-kit/faults/) fails each payment its own way; whatever happens the merchant is told
 * pending, a retry with the same Idempotency-Key is told the same and charges nothing more, and
 * the pending-payments worker (on the test's clock) asks the upstream's Query API what happened
 * and ends the payment with the truth and a PAYMENT UPDATED notification. On SQLite and on
 * PostgreSQL; two gateway processes on one PostgreSQL in faults-processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../test-kit/clock';
import { MATRIX, type MatrixDriver, type MatrixRow, matrixTable, runCase } from '../test-kit/faults/matrix';
import { type ScriptedUpstream, scriptedUpstream } from '../test-kit/faults/upstream';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { storedWebhook } from '../test-kit/webhooks';
import { oppClient } from './opp/client';

/** The connector's timeout here: short, so a case takes a second, and long enough for a loaded machine. */
const TIMEOUT_MS = 400;
const rows: MatrixRow[] = [];

async function inProcess(name: string, upstream: ScriptedUpstream, databaseUrl?: string) {
  const clock = fakeClock();
  const gw = await testGateway({
    clock,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    connector: oppClient({ timeoutMs: TIMEOUT_MS }),
    pending: { autoStart: false },
    notifier: { autoStart: false },
    webhooks: { autoStart: false },
    scheduler: { autoStart: false },
  });
  const m = await gw.addMerchant({
    channels: 1,
    settings: {
      connector: { baseUrl: upstream.baseUrl, entityId: 'upstream-entity', accessToken: 'upstream-token' },
    },
  });
  await gw.store.insertWebhook(storedWebhook(m.merchantId, { createdAt: clock.now() }));
  return { gw, m, driver: driver(name, gw, m, clock) };
}

function driver(
  name: string,
  gw: TestGateway,
  m: TestMerchant,
  clock: ReturnType<typeof fakeClock>,
): MatrixDriver {
  return {
    name,
    pay: (key) =>
      gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '12.34',
          currency: 'EUR',
          paymentType: 'DB',
          testMode: 'EXTERNAL',
          ...VISA_CARD,
        },
        { token: m.token, headers: { 'Idempotency-Key': key } },
      ),
    read: (id) => gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token }),
    async step() {
      clock.advance(10_000);
      await gw.pending.runOnce();
    },
    async notified(id) {
      return (await gw.store.listDeliveries(m.merchantId, { limit: 500 }))
        .reverse()
        .map(
          (d) =>
            d.notification as unknown as {
              action?: string;
              payload: { id: string; result: { code: string } };
            },
        )
        .filter((n) => n.payload.id === id)
        .map((n) => `${n.action} ${n.payload.result.code}`);
    },
  };
}

const pgSkip = postgresUnavailableReason();

describe('the fault matrix of a connector channel', () => {
  let upstream: ScriptedUpstream;
  let cluster: PostgresCluster | undefined;
  const gateways: TestGateway[] = [];
  beforeAll(async () => {
    upstream = await scriptedUpstream({ timeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.cleanup();
    await upstream?.close();
    await cluster?.stop();
    if (rows.length > 0)
      console.log(`\nThe fault matrix (connector timeout ${TIMEOUT_MS} ms)\n${matrixTable(rows)}\n`);
  }, 60_000);

  const stores: { name: string; url?: () => Promise<string> }[] = [
    { name: 'SQLite' },
    ...(pgSkip === undefined
      ? [
          {
            name: 'PostgreSQL',
            url: async () => {
              cluster = await startPostgres();
              return cluster.url;
            },
          },
        ]
      : []),
  ];
  for (const store of stores)
    it(`every fault ends right, charged once at most, on ${store.name}`, async () => {
      const { gw, driver } = await inProcess(store.name, upstream, await store.url?.());
      gateways.push(gw);
      const mine: MatrixRow[] = [];
      for (const test of MATRIX) {
        const row = await runCase(driver, upstream, test);
        mine.push(row);
        rows.push(row);
      }
      expect(
        mine.filter((r) => !r.ok).map((r) => r.label),
        matrixTable(mine),
      ).toEqual([]);
    }, 120_000);

  it('a refused connection is a known failure at once: 999.999.999, nothing pending, nothing asked later', async () => {
    const closed = await scriptedUpstream({ timeoutMs: TIMEOUT_MS });
    const url = closed.baseUrl;
    await closed.close(); // nobody listens there now: the connection is refused
    const { gw, m, driver: d } = await inProcess('SQLite', { ...upstream, baseUrl: url });
    gateways.push(gw);
    const first = await d.pay(`refused-${Date.now()}`);
    expect(first.status, JSON.stringify(first.body)).toBe(400);
    expect(first.body.result.code).toBe('999.999.999');
    const queries = upstream.queries();
    await d.step();
    expect(upstream.queries()).toBe(queries);
    expect((await d.read(first.body.id)).body.result.code).toBe('999.999.999');
    expect(await d.notified?.(first.body.id)).toEqual(['CREATED 999.999.999']);
    expect(m.entityId).toBeDefined();
  });

  it.skipIf(pgSkip === undefined)(`PostgreSQL rows skipped: ${pgSkip}`, () => {});
});
