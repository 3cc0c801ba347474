/**
 * The naive baseline for `payments.bench.ts`: a bare Hono endpoint on @hono/node-server with the
 * same kind of durable store as the gateway (better-sqlite3, WAL, `synchronous=FULL`), but none
 * of the gateway's work: no authentication, no validation, no simulator, no encryption, no
 * envelope; and no group commit on `POST /payments` (`POST /group/payments` has one).
 *
 *   POST /payments      parses the form body (URLSearchParams), one INSERT in its own transaction
 *                       (one WAL sync per request), answers a small JSON
 *   POST /group/payments  the group-commit floor: the same parsing, but the INSERTs of one
 *                       event-loop turn share one transaction (one WAL sync per turn), and each
 *                       request is answered after that commit, as the gateway's group commit does
 *   GET  /payments/:id  one SELECT by primary key (rows of either POST)
 *
 * Started as a child process by the benchmark: `node --import tsx bench/baseline.ts` with PORT,
 * HOST (default 127.0.0.1) and BASELINE_DATA_DIR (the folder of its database; it must exist), or
 * BASELINE_DATABASE_URL: the same on PostgreSQL (table baseline_payments, synchronous_commit on,
 * a pool of 10 like the gateway's; the group commit is one multi-row INSERT).
 * Prints one JSON line `{"msg":"baseline listening",…}` once it accepts connections.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import BetterSqlite3 from 'better-sqlite3';
import { Hono } from 'hono';
import pg from 'pg';

type Row = readonly [id: string, amount: string, currency: string, body: string];
type Stored = { id: string; amount: string; currency: string };

/** The baseline's table: one INSERT per request, one multi-row INSERT per batch, a read by primary key. */
interface BaselineStore {
  insert(row: Row): void | Promise<void>;
  insertMany(rows: readonly Row[]): void | Promise<void>;
  get(id: string): Stored | undefined | Promise<Stored | undefined>;
  close(): void | Promise<void>;
}

function sqliteStore(dataDir: string): BaselineStore {
  const db = new BetterSqlite3(join(dataDir, 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    `CREATE TABLE IF NOT EXISTS payments (
       id TEXT PRIMARY KEY,
       amount TEXT NOT NULL,
       currency TEXT NOT NULL,
       body TEXT NOT NULL
     )`,
  );
  const insert = db.prepare('INSERT INTO payments (id, amount, currency, body) VALUES (?, ?, ?, ?)');
  const select = db.prepare<[string], Stored>('SELECT id, amount, currency FROM payments WHERE id = ?');
  const insertMany = db.transaction((rows: readonly Row[]) => {
    for (const row of rows) insert.run(...row);
  });
  return {
    // Autocommit: each INSERT is its own transaction, synced to the WAL before it returns.
    insert: (row) => void insert.run(...row),
    insertMany,
    get: (id) => select.get(id),
    close: () => void db.close(),
  };
}

/** PostgreSQL (BASELINE_DATABASE_URL): the same table as `baseline_payments`, a pool as large as the gateway's. */
async function postgresStore(url: string): Promise<BaselineStore> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS baseline_payments (
       id text PRIMARY KEY, amount text NOT NULL, currency text NOT NULL, body text NOT NULL)`,
  );
  return {
    // Autocommit with synchronous_commit on: each INSERT waits for its WAL flush.
    insert: async (row) => {
      await pool.query({
        name: 'insert',
        text: 'INSERT INTO baseline_payments (id, amount, currency, body) VALUES ($1, $2, $3, $4)',
        values: [...row],
      });
    },
    insertMany: async (rows) => {
      const values = rows.flatMap((r) => [...r]);
      const tuples = rows.map((_, i) => `($${4 * i + 1}, $${4 * i + 2}, $${4 * i + 3}, $${4 * i + 4})`);
      await pool.query(
        `INSERT INTO baseline_payments (id, amount, currency, body) VALUES ${tuples.join(', ')}`,
        values,
      );
    },
    get: async (id) =>
      (
        await pool.query<Stored>({
          name: 'select',
          text: 'SELECT id, amount, currency FROM baseline_payments WHERE id = $1',
          values: [id],
        })
      ).rows[0],
    close: () => pool.end(),
  };
}

const port = Number(process.env.PORT ?? 8090);
const hostname = process.env.HOST ?? '127.0.0.1';
const databaseUrl = process.env.BASELINE_DATABASE_URL;
const dataDir = process.env.BASELINE_DATA_DIR;
if (databaseUrl === undefined && dataDir === undefined)
  throw new Error('BASELINE_DATA_DIR or BASELINE_DATABASE_URL is required');
const store = databaseUrl !== undefined ? await postgresStore(databaseUrl) : sqliteStore(dataDir!);

const app = new Hono();

app.post('/payments', async (c) => {
  const params = new URLSearchParams(await c.req.text());
  const amount = params.get('amount');
  const currency = params.get('currency');
  if (amount === null || currency === null) return c.json({ error: 'amount and currency are required' }, 400);
  const id = randomBytes(16).toString('hex');
  // Autocommit: each INSERT is its own transaction, synced to the WAL before it returns.
  await store.insert([id, amount, currency, JSON.stringify(Object.fromEntries(params))]);
  return c.json({ id, amount, currency, result: { code: '000.100.110' } });
});

/**
 * The group-commit floor: rows queued during one event-loop turn are inserted by one
 * transaction (one fsync) in the next turn's check phase; each request waits for its commit.
 */
let queue: { row: Row; done: (error?: unknown) => void }[] = [];
async function commitQueued(): Promise<void> {
  const batch = queue;
  queue = [];
  try {
    await store.insertMany(batch.map((q) => q.row));
    for (const q of batch) q.done();
  } catch (error) {
    for (const q of batch) q.done(error);
  }
}
const committed = (row: Row) =>
  new Promise<void>((resolve, reject) => {
    if (queue.length === 0) setImmediate(() => void commitQueued());
    queue.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) });
  });

app.post('/group/payments', async (c) => {
  const params = new URLSearchParams(await c.req.text());
  const amount = params.get('amount');
  const currency = params.get('currency');
  if (amount === null || currency === null) return c.json({ error: 'amount and currency are required' }, 400);
  const id = randomBytes(16).toString('hex');
  await committed([id, amount, currency, JSON.stringify(Object.fromEntries(params))]);
  return c.json({ id, amount, currency, result: { code: '000.100.110' } });
});

app.get('/payments/:id', async (c) => {
  const row = await store.get(c.req.param('id'));
  if (row === undefined) return c.json({ error: 'not found' }, 404);
  return c.json({ id: row.id, amount: row.amount, currency: row.currency, result: { code: '000.100.110' } });
});

const server = serve({ fetch: app.fetch, port, hostname }, (info) =>
  console.log(JSON.stringify({ level: 'info', msg: 'baseline listening', port: info.port })),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => {
      void Promise.resolve(store.close()).finally(() => process.exit(0));
    });
  });
}
