/**
 * Idempotency-Key across a crash, with real gateway processes (`node --import tsx server/main.ts`):
 * a burst of keyed payments (every request its own key), SIGKILL in the middle, a restart on the
 * same data, and a retry of every key that was sent. Each key must end with exactly one payment,
 * and a retry of a key that was answered must answer the same payment (same id): the key is
 * claimed in the payment's own transaction, so no crash can keep the charge and lose the key.
 * On SQLite (group commit) and on PostgreSQL.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE } from './storage/open';
import { VISA_CARD_WITHOUT_HOLDER } from './test-kit/fixtures/cards';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from './test-kit/postgres';
import {
  type DemoMerchantFile,
  readDemo,
  type SpawnedGateway,
  spawnGateway,
  stopAll,
} from './test-kit/process';

const TOTAL = 300;
const IN_FLIGHT = 50;
const KILL_AFTER = 60;
/** Crashes before the retry: each is one more chance to land between a payment and its response. */
const ROUNDS = 3;

const dirs: string[] = [];
afterEach(async () => {
  await stopAll();
}, 30_000);
afterAll(async () => {
  await stopAll();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}, 30_000);

interface Keyed {
  readonly key: string;
  status?: number;
  id?: string;
}

const bodyOf = (demo: DemoMerchantFile, key: string) =>
  new URLSearchParams({
    entityId: demo.entityId,
    amount: '7.00',
    currency: 'EUR',
    paymentType: 'DB',
    merchantTransactionId: key,
    ...VISA_CARD_WITHOUT_HOLDER,
  }).toString();

const send = (gw: SpawnedGateway, demo: DemoMerchantFile, key: string) =>
  fetch(`${gw.baseUrl}/v1/payments`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${demo.accessToken}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      'Idempotency-Key': key,
    },
    body: bodyOf(demo, key),
  });

/**
 * ROUNDS bursts, each on a fresh start on the same data: up to TOTAL keyed payments, IN_FLIGHT at a
 * time, SIGKILL once KILL_AFTER were answered. Then a restart, a retry of every key sent, and the
 * payments per key counted in the database.
 */
async function crashAndRetry(
  dataDir: string,
  databaseUrl: string | undefined,
  countPerKey: (keys: readonly string[]) => Promise<Map<string, number>>,
  claimsLeft: () => Promise<number>,
): Promise<void> {
  const spawnOptions = { dataDir, ...(databaseUrl === undefined ? {} : { databaseUrl }) };
  const tag = Math.random().toString(36).slice(2, 8);
  const sent: Keyed[] = [];
  let answered = 0;
  let demo: DemoMerchantFile | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const gw = await spawnGateway(spawnOptions);
    demo ??= await readDemo(dataDir);
    const merchant = demo;
    let exit: Promise<unknown> | undefined;
    let answeredNow = 0;
    let sentNow = 0;
    const worker = async () => {
      while (exit === undefined && sentNow < TOTAL) {
        sentNow++;
        const item: Keyed = { key: `crash-${tag}-${sent.length}` };
        sent.push(item);
        try {
          const res = await send(gw, merchant, item.key);
          const body = (await res.json()) as { id: string };
          item.status = res.status;
          item.id = body.id;
          answered++;
          answeredNow++;
        } catch {
          continue; // cut off by the crash
        }
        if (exit === undefined && answeredNow >= KILL_AFTER) exit = gw.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(exit, 'the burst ended before the kill').toBeDefined();
    await exit;
  }
  // Keys whose payment committed and whose response did not (the crash came in between): before
  // claims, each of these was charged again by its retry.
  const unanswered = await claimsLeft();

  const second = await spawnGateway(spawnOptions);
  const merchant = demo;
  if (merchant === undefined) throw new Error('no demo merchant');
  const changed: string[] = [];
  const retried = await Promise.all(
    sent.map(async (item) => {
      const res = await send(second, merchant, item.key);
      const body = (await res.json()) as { id: string; result: { code: string } };
      if (item.id !== undefined && body.id !== item.id) changed.push(`${item.key}: ${item.id} → ${body.id}`);
      return { status: res.status, code: body.result.code };
    }),
  );
  expect(await second.stop()).toEqual({ code: 0, signal: null });

  const counts = await countPerKey(sent.map((s) => s.key));
  const doubled = sent.filter((s) => (counts.get(s.key) ?? 0) > 1);
  const missing = sent.filter((s) => (counts.get(s.key) ?? 0) === 0);
  console.info(
    `idempotency crash (${databaseUrl === undefined ? 'SQLite' : 'PostgreSQL'}), ${ROUNDS} SIGKILLs: ${sent.length} keys sent, ` +
      `${answered} answered before the kill, ${unanswered} claimed by a payment without a stored response; after the restart ${doubled.length} keys with two or more ` +
      `payments (double charges), ${missing.length} without any, ${changed.length} retries answering another id`,
  );
  for (const r of retried) expect(r.status, r.code).toBe(200);
  expect(
    doubled.map((d) => `${d.key}: ${counts.get(d.key)} payments`),
    'double charges',
  ).toEqual([]);
  expect(
    missing.map((m) => m.key),
    'keys without a payment after their retry',
  ).toEqual([]);
  expect(changed, 'retries answering another payment').toEqual([]);
}

describe('Idempotency-Key across a crash (SQLite)', () => {
  it('a retry of every key after SIGKILL and restart finds exactly one payment per key', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-idem-crash-'));
    dirs.push(dataDir);
    await crashAndRetry(
      dataDir,
      undefined,
      async (keys) => {
        const db = new BetterSqlite3(join(dataDir, SQLITE_FILE), { readonly: true });
        try {
          const count = db.prepare('SELECT count(*) AS n FROM payments WHERE merchant_transaction_id = ?');
          return new Map(keys.map((k) => [k, (count.get(k) as { n: number }).n]));
        } finally {
          db.close();
        }
      },
      async () => {
        const db = new BetterSqlite3(join(dataDir, SQLITE_FILE), { readonly: true });
        try {
          return (
            db.prepare('SELECT count(*) AS n FROM idempotent_responses WHERE status = 0').get() as {
              n: number;
            }
          ).n;
        } finally {
          db.close();
        }
      },
    );
  }, 90_000);
});

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)('Idempotency-Key across a crash (PostgreSQL)', () => {
  let cluster: PostgresCluster | undefined;
  afterAll(async () => {
    await stopAll();
    await cluster?.stop();
  }, 60_000);

  it('a retry of every key after SIGKILL and restart finds exactly one payment per key', async () => {
    cluster = await startPostgres();
    const url = cluster.url;
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-idem-crash-pg-'));
    dirs.push(dataDir);
    await crashAndRetry(
      dataDir,
      url,
      async (keys) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const result = await client.query<{ key: string; n: number }>(
            'SELECT merchant_transaction_id AS key, count(*)::int AS n FROM payments ' +
              'WHERE merchant_transaction_id = ANY($1) GROUP BY merchant_transaction_id',
            [keys],
          );
          return new Map(result.rows.map((r) => [r.key, r.n]));
        } finally {
          await client.end();
        }
      },
      async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const result = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM idempotent_responses WHERE status = 0',
          );
          return result.rows[0]!.n;
        } finally {
          await client.end();
        }
      },
    );
  }, 120_000);
});
