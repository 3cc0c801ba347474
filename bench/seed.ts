/**
 * `payments.bench.ts --seed N`: a gateway's SQLite store filled with N payments before the load,
 * each with the webhook delivery it would have left, delivered. Written straight into the
 * gateway's database file (WAL mode lets a second connection write while the gateway idles),
 * by INSERT … SELECT from one real payment the gateway made: the same merchant, channel, sealed
 * card and details, new ids and ndc, created over the 24 hours before it.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { SQLITE_FILE } from '../server/storage/open';
import { PAYMENT_COLUMNS } from '../server/storage/payments/rows';

/** Rows per transaction: keeps the WAL small between checkpoints. */
const CHUNK = 50_000;
const DAY_MS = 86_400_000;

export interface Seeded {
  readonly count: number;
  readonly seconds: number;
  /** Ids of some seeded payments (random), for reads of old rows. */
  readonly sampleIds: string[];
}

/** Seeds `count` payments copied from `templateId`, and one delivered webhook delivery each. */
export function seedSqlite(dataDir: string, templateId: string, count: number, samples = 5_000): Seeded {
  const t0 = performance.now();
  const db = new BetterSqlite3(join(dataDir, SQLITE_FILE));
  try {
    db.pragma('busy_timeout = 10000');
    const spacing = Math.max(1, Math.floor(DAY_MS / count));
    const value = (column: string): string => {
      if (column === 'id' || column === 'ndc') return 'lower(hex(randomblob(16)))';
      // counted across chunks, so that the copies span the whole 24 hours
      if (column === 'created_at') return `p.created_at - (@offset + n.i) * ${spacing}`;
      if (column === 'merchant_transaction_id') return `'seed-' || (@offset + n.i)`;
      return `p.${column}`;
    };
    const payments = db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @rows)
       INSERT INTO payments (${PAYMENT_COLUMNS.join(', ')})
       SELECT ${PAYMENT_COLUMNS.map(value).join(', ')}
       FROM n, (SELECT * FROM payments WHERE id = @template) AS p`,
    );
    const deliveries = db.prepare(
      `INSERT INTO webhook_deliveries (merchant_id, webhook_id, callback_url, target, order_key, type,
         action, payload, status, attempts, next_attempt_at, created_at, retry_from, last_attempt_at,
         last_status, last_error, delivered_at)
       SELECT merchant_id, NULL, 'https://merchant.example/webhooks', 'seed', id, 'PAYMENT', 'CREATED',
         '{}', 'delivered', 1, NULL, created_at, created_at, created_at, 200, NULL, created_at
       FROM payments WHERE rowid > @after`,
    );
    const lastRowid = db.prepare<[], { r: number | null }>('SELECT max(rowid) AS r FROM payments');
    const chunk = db.transaction((offset: number, rows: number) => {
      const after = lastRowid.get()?.r ?? 0;
      const inserted = payments.run({ rows, offset, template: templateId }).changes;
      if (inserted !== rows) throw new Error(`seeding: ${inserted} of ${rows} payments written`);
      deliveries.run({ after });
    });
    for (let offset = 0; offset < count; offset += CHUNK) chunk(offset, Math.min(CHUNK, count - offset));
    db.pragma('wal_checkpoint(TRUNCATE)');
    const sampleIds = db
      .prepare<[number], { id: string }>(
        `SELECT id FROM payments WHERE merchant_transaction_id LIKE 'seed-%' ORDER BY random() LIMIT ?`,
      )
      .all(samples)
      .map((r) => r.id);
    return { count, seconds: (performance.now() - t0) / 1000, sampleIds };
  } finally {
    db.close();
  }
}

/**
 * The same on PostgreSQL (`--seed N --postgres`): the seeded gateway's own database, filled by
 * INSERT … SELECT over generate_series, each chunk with its deliveries in one transaction, then
 * VACUUM ANALYZE (the planner's statistics, as autovacuum would leave them).
 */
export async function seedPostgres(
  url: string,
  templateId: string,
  count: number,
  samples = 5_000,
): Promise<Seeded> {
  const t0 = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const spacing = Math.max(1, Math.floor(DAY_MS / count));
    const value = (column: string): string => {
      if (column === 'id' || column === 'ndc') return 'md5(random()::text || n.i)';
      if (column === 'created_at') return `p.created_at - n.i * ${spacing}`;
      if (column === 'merchant_transaction_id') return `'seed-' || n.i`;
      return `p.${column}`;
    };
    for (let offset = 0; offset < count; offset += CHUNK) {
      const rows = Math.min(CHUNK, count - offset);
      await client.query('BEGIN');
      const inserted = await client.query(
        `WITH seeded AS (
           INSERT INTO payments (${PAYMENT_COLUMNS.join(', ')})
           SELECT ${PAYMENT_COLUMNS.map(value).join(', ')}
           FROM generate_series($1::bigint, $2::bigint) AS n(i),
                (SELECT * FROM payments WHERE id = $3) AS p
           RETURNING id, merchant_id, created_at)
         INSERT INTO webhook_deliveries (merchant_id, webhook_id, callback_url, target, order_key, type,
           action, payload, status, attempts, next_attempt_at, created_at, retry_from, last_attempt_at,
           last_status, last_error, delivered_at)
         SELECT merchant_id, NULL, 'https://merchant.example/webhooks', 'seed', id, 'PAYMENT', 'CREATED',
           '{}', 'delivered', 1, NULL, created_at, created_at, created_at, 200, NULL, created_at
         FROM seeded`,
        [offset + 1, offset + rows, templateId],
      );
      if (inserted.rowCount !== rows)
        throw new Error(`seeding: ${inserted.rowCount} of ${rows} payments written`);
      await client.query('COMMIT');
    }
    await client.query('VACUUM ANALYZE payments');
    await client.query('VACUUM ANALYZE webhook_deliveries');
    const sampled = await client.query<{ id: string }>(
      `SELECT id FROM payments WHERE merchant_transaction_id LIKE 'seed-%' ORDER BY random() LIMIT $1`,
      [samples],
    );
    return { count, seconds: (performance.now() - t0) / 1000, sampleIds: sampled.rows.map((r) => r.id) };
  } finally {
    await client.end();
  }
}
