/**
 * The administration's payments list at scale: 1,000,000 payments of one merchant (two test
 * channels, one payment a second), in SQLite and in a throwaway PostgreSQL
 * (server/storage/testing/postgres.ts), then the server time of
 * `GET /admin/v1/merchants/{id}/payments` (the app in process, the operator's token): the first
 * page, a deep page (after the 900,000th row, by its keyset cursor) and a filtered deep page.
 * Goal: each under 50 ms (median). Not part of `npm test`.
 *
 *   npx tsx bench/admin-payments.bench.ts [--rows N] [--sqlite-only|--postgres-only]
 *
 * The rows are made by the database itself (a recursive CTE in SQLite, generate_series in
 * PostgreSQL), with the same columns and indexes the gateway writes, so seeding takes seconds
 * rather than the hours a million HTTP payments would. The query plans are printed: each
 * channel's page is a range scan of `payments_channel_created`, never a sort of the merchant's rows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { createApp } from '../server/app';
import { encodeCursor } from '../server/backoffice/payments/payment-list';
import { type GatewayStore, openStore } from '../server/storage';
import { SQLITE_FILE } from '../server/storage/open';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../server/test-kit/postgres';
import { testVault } from '../server/test-kit/vault';

const args = process.argv.slice(2);
const ROWS = Number(args[args.indexOf('--rows') + 1] ?? 0) || 1_000_000;
const DEEP = Math.floor(ROWS * 0.9);
const TOKEN = 'bench-admin-token-0123456789abcdef0123';
const MERCHANT = 'a'.repeat(32);
const CHANNELS = ['b'.repeat(32), 'c'.repeat(32)];
const BASE_MS = Date.parse('2025-01-01T00:00:00Z');
const SAMPLES = 30;
const GOAL_MS = 50;

interface Dialect {
  readonly name: string;
  /** INSERT … SELECT of `rows` payments, made by the database. */
  readonly seedSql: (rows: number) => string;
  readonly explain: string;
}

// Row i (1…N): created one second after row i-1, channel by parity, a quarter declined, every 9th pending, on both channels.
const SQLITE: Dialect = {
  name: 'SQLite',
  seedSql: (rows) => `
    WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows})
    INSERT INTO payments (id, merchant_id, channel_id, payment_type, payment_brand, amount, currency,
      result_code, result_description, merchant_transaction_id, short_id, ndc, details, created_at)
    SELECT printf('%032x', i), '${MERCHANT}', CASE i % 2 WHEN 0 THEN '${CHANNELS[0]}' ELSE '${CHANNELS[1]}' END,
      'DB', 'VISA', 1000 + i % 500, 'EUR',
      CASE WHEN i % 8 IN (0, 3) THEN '800.100.151' WHEN i % 9 = 0 THEN '000.200.000' ELSE '000.100.110' END,
      '', 'order-' || i, '1000.0000.' || i, printf('%032x', i), '{}', ${BASE_MS} + i * 1000
    FROM s`,
  explain: 'EXPLAIN QUERY PLAN',
};

const POSTGRES: Dialect = {
  name: 'PostgreSQL',
  seedSql: (rows) => `
    INSERT INTO payments (id, merchant_id, channel_id, payment_type, payment_brand, amount, currency,
      result_code, result_description, merchant_transaction_id, short_id, ndc, details, created_at)
    SELECT lpad(to_hex(i), 32, '0'), '${MERCHANT}', CASE i % 2 WHEN 0 THEN '${CHANNELS[0]}' ELSE '${CHANNELS[1]}' END,
      'DB', 'VISA', 1000 + i % 500, 'EUR',
      CASE WHEN i % 8 IN (0, 3) THEN '800.100.151' WHEN i % 9 = 0 THEN '000.200.000' ELSE '000.100.110' END,
      '', 'order-' || i, '1000.0000.' || i, lpad(to_hex(i), 32, '0'), '{}', ${BASE_MS}::bigint + i::bigint * 1000
    FROM generate_series(1, ${rows}) AS s(i)`,
  explain: 'EXPLAIN',
};

async function seed(store: GatewayStore, dialect: Dialect, db: { run: (text: string) => Promise<unknown> }) {
  const now = new Date(BASE_MS);
  await store.insertMerchant({ id: MERCHANT, name: 'Bench Merchant', createdAt: now });
  for (const [i, id] of CHANNELS.entries())
    await store.insertChannel({
      id,
      merchantId: MERCHANT,
      name: `Bench_${i}`,
      mode: 'TEST',
      settings: {},
      createdAt: now,
    });
  const started = performance.now();
  await db.run(dialect.seedSql(ROWS));
  console.log(
    `  seeded ${ROWS.toLocaleString('en')} payments in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

async function measure(
  store: GatewayStore,
  label: string,
  query: string,
  expectRows: number,
): Promise<boolean> {
  const app = createApp(
    { commit: '0'.repeat(40), builtAt: new Date() },
    {
      store,
      clock: { now: () => new Date() },
      seal: (s) => s,
      admin: { token: TOKEN, webhooks: store, vault: { encrypt: (s) => s } },
    },
  );
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < SAMPLES + 3; i++) {
    const t = performance.now();
    const res = await app.request(`http://localhost/admin/v1/merchants/${MERCHANT}/payments?${query}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const body = (await res.json()) as { payments?: unknown[] };
    const elapsed = performance.now() - t;
    if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status} ${JSON.stringify(body)}`);
    count = body.payments?.length ?? 0;
    if (i >= 3) times.push(elapsed); // the first calls warm the statement caches
  }
  const ok = median(times) < GOAL_MS && count === expectRows;
  console.log(
    `  ${label.padEnd(34)} median ${median(times).toFixed(2).padStart(7)} ms  p95 ${p95(times).toFixed(2).padStart(7)} ms  rows ${count}  ${ok ? 'PASS' : 'FAIL'}`,
  );
  return ok;
}

async function run(dialect: Dialect): Promise<boolean> {
  console.log(`\n${dialect.name}`);
  let dataDir: string | undefined;
  let cluster: PostgresCluster | undefined;
  if (dialect === POSTGRES) cluster = await startPostgres();
  else dataDir = await mkdtemp(join(tmpdir(), 'gateway-admin-bench-'));
  const store = await openStore({
    ...(cluster ? { databaseUrl: cluster.url } : { dataDir: dataDir! }),
    vault: testVault(),
  });
  try {
    // a second connection to the same database, for the bulk insert and the plans
    const raw =
      cluster === undefined
        ? new Kysely<unknown>({
            dialect: new SqliteDialect({
              database: new BetterSqlite3(join(dataDir!, SQLITE_FILE)),
            }),
          })
        : new Kysely<unknown>({
            dialect: new PostgresDialect({
              pool: new pg.Pool({ connectionString: cluster.url }),
            }),
          });
    await seed(store, dialect, { run: (text) => sql.raw(text).execute(raw) });
    // PostgreSQL: VACUUM sets the fresh rows' hint bits and visibility map now, so the timed reads
    // do not (nor race autovacuum doing it); SQLite: ANALYZE for the planner's statistics
    await sql.raw(cluster === undefined ? 'ANALYZE' : 'VACUUM (ANALYZE) payments').execute(raw);
    // the deep page's cursor: row DEEP counted from the newest
    const deep = ROWS - DEEP + 1;
    const cursor = encodeCursor({
      createdAt: new Date(BASE_MS + deep * 1000),
      id: deep.toString(16).padStart(32, '0'),
    });
    const plan = await sql
      .raw(
        `${dialect.explain} SELECT * FROM payments WHERE merchant_id = '${MERCHANT}' AND channel_id = '${CHANNELS[0]}' AND (created_at, id) < (${BASE_MS + deep * 1000}, '${deep.toString(16).padStart(32, '0')}') ORDER BY created_at DESC, id DESC LIMIT 25`,
      )
      .execute(raw);
    console.log(`  plan: ${plan.rows.map((r) => Object.values(r as object).join(' ')).join(' | ')}`);
    if (cluster !== undefined) {
      const analyzed = await sql
        .raw(
          `EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM payments WHERE merchant_id = '${MERCHANT}' AND channel_id = '${CHANNELS[0]}' ORDER BY created_at DESC, id DESC LIMIT 25`,
        )
        .execute(raw);
      console.log(
        `  first page, analyzed: ${analyzed.rows.map((r) => Object.values(r as object).join(' ')).join(' | ')}`,
      );
    }
    await raw.destroy();
    const results = [
      await measure(store, 'first page (25)', 'limit=25', 25),
      await measure(
        store,
        `deep page (after row ${DEEP.toLocaleString('en')})`,
        `limit=25&after=${cursor}`,
        25,
      ),
      await measure(store, 'deep page, 100 rows', `limit=100&after=${cursor}`, 100),
      await measure(store, 'deep page, status=declined', `limit=25&status=declined&after=${cursor}`, 25),
    ];
    return results.every(Boolean);
  } finally {
    await store.close();
    await cluster?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  }
}

const dialects: Dialect[] = [];
if (!args.includes('--postgres-only')) dialects.push(SQLITE);
if (!args.includes('--sqlite-only')) {
  const reason = postgresUnavailableReason();
  if (reason === undefined) dialects.push(POSTGRES);
  else console.log(`PostgreSQL skipped: ${reason}`);
}
console.log(
  `admin payments list: ${ROWS.toLocaleString('en')} payments, goal median < ${GOAL_MS} ms (${process.version}, ${(await import('node:os')).cpus()[0]?.model ?? 'cpu?'})`,
);
let all = true;
for (const dialect of dialects) all = (await run(dialect)) && all;
process.exitCode = all || !args.includes('--strict') ? 0 : 1;
