/**
 * The Query API's SELECT (payments/query.ts) on both databases: a keyset page deep in a long
 * time frame reads its index range from the cursor on, not from the frame's start, so paging
 * through a day costs the same per page. PostgreSQL shows the rows an index scan examined
 * (EXPLAIN ANALYZE); SQLite's plan shows the index range, its lower bound the cursor's instant.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Payment } from '../../../shared/engine/core/model';
import type { PaymentQuery } from '../../../shared/engine/core/ports';
import { randomHexId as hex, storedDebit } from '../../test-kit/fixtures/stored-payment';
import { type PostgresCluster, startPostgres } from '../../test-kit/postgres';
import { describeDialects } from '../../test-kit/store-dialects';
import { testVault } from '../../test-kit/vault';
import type { Database } from '../core/database';
import { type GatewayStore, openStore } from '../index';
import { SQLITE_FILE } from '../open';
import { paymentQuery } from './query';

const DAY = Date.parse('2026-03-04T00:00:00.000Z');
const COUNT = 3000;
const LIMIT = 100;

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Actual Rows'?: number;
  readonly 'Actual Loops'?: number;
  readonly 'Rows Removed by Filter'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** Rows the plan's scans read: those they passed on plus those their filters dropped. */
const scanned = (node: PlanNode): number =>
  (/Scan/.test(node['Node Type'])
    ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1)
    : 0) + (node.Plans ?? []).reduce((sum, child) => sum + scanned(child), 0);

describeDialects('%s payments store, the Query API search', (dialect) => {
  let dataDir = '';
  let cluster: PostgresCluster | undefined;
  let store: GatewayStore;
  let db: Kysely<Database>;
  let raw: BetterSqlite3.Database | undefined;
  const merchantId = hex();
  const channelId = hex();
  const day: Payment[] = [];

  beforeAll(async () => {
    if (dialect === 'postgres') cluster = await startPostgres();
    else dataDir = await mkdtemp(join(tmpdir(), 'gateway-payment-query-'));
    store = await openStore({
      ...(cluster ? { databaseUrl: cluster.url } : { dataDir }),
      vault: testVault(),
    });
    if (cluster) {
      db = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: cluster.url }) }),
      });
    } else {
      raw = new BetterSqlite3(join(dataDir, SQLITE_FILE));
      db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
    }
    // a day of payments one second apart, two of them in the same millisecond
    for (let i = 0; i < COUNT; i++) {
      day.push(
        storedDebit({ merchantId, channelId, createdAt: new Date(DAY + Math.min(i, COUNT - 2) * 1000) }),
      );
    }
    await Promise.all(day.map((p) => store.insertPayment(p)));
    day.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    await store?.close();
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  const search = (after: Payment | undefined, paymentTypes?: string[]): PaymentQuery => ({
    merchantId,
    channelIds: [channelId],
    from: new Date(DAY),
    until: new Date(DAY + 86_400_000),
    ...(paymentTypes === undefined ? {} : { paymentTypes }),
    ...(after === undefined ? {} : { after: { createdAt: after.createdAt, id: after.id } }),
    limit: LIMIT,
  });

  it('pages through the frame in (createdAt, id) order, the tie across pages included', async () => {
    const ids: string[] = [];
    let after: Payment | undefined;
    for (;;) {
      const page = await store.queryPayments({ ...search(after), limit: 7 });
      ids.push(...page.map((p) => p.id));
      if (page.length < 7) break;
      after = page.at(-1);
    }
    expect(ids).toEqual(day.map((p) => p.id));
  });

  it('reads a page deep in the frame from the cursor on', async () => {
    const cursor = day[COUNT - 2 * LIMIT]!;
    const compiled = paymentQuery(db, search(cursor))!.compile();
    if (dialect === 'postgres') {
      const result = await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>({
        ...compiled,
        sql: `EXPLAIN (ANALYZE, FORMAT JSON) ${compiled.sql}`,
      });
      const plan = result.rows[0]!['QUERY PLAN'][0]!.Plan;
      // the page, and at most the rows of the cursor's own instant: not the 2,800 before it
      expect(scanned(plan)).toBeLessThanOrEqual(LIMIT + 2);
    } else {
      const plan = raw!
        .prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`)
        .all(...(compiled.parameters as unknown[]));
      expect(plan.map((r) => (r as { detail: string }).detail).join('\n')).toMatch(
        /SEARCH payments USING INDEX \w+ \(.*created_at>\?/,
      );
      // the range's lower bound: the cursor's instant, not the frame's start
      expect(compiled.sql).toMatch(/"created_at" >= \?/);
      const bound =
        compiled.parameters[
          compiled.sql.slice(0, compiled.sql.indexOf('"created_at" >= ?')).split('?').length - 1
        ];
      expect(bound).toBe(cursor.createdAt.getTime());
    }
    expect((await store.queryPayments(search(cursor))).map((p) => p.id)).toEqual(
      day.slice(COUNT - 2 * LIMIT + 1, COUNT - LIMIT + 1).map((p) => p.id),
    );
  });

  it('finds nothing for a filter that matches nothing, page after page', async () => {
    expect(await store.queryPayments(search(day[COUNT / 2], ['RF']))).toEqual([]);
  });
});
