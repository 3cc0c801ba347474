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
 * HOST (default 127.0.0.1) and BASELINE_DATA_DIR (the folder of its database; it must exist).
 * Prints one JSON line `{"msg":"baseline listening",…}` once it accepts connections.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import BetterSqlite3 from 'better-sqlite3';
import { Hono } from 'hono';

const dataDir = process.env.BASELINE_DATA_DIR;
if (dataDir === undefined) throw new Error('BASELINE_DATA_DIR is required');
const port = Number(process.env.PORT ?? 8090);
const hostname = process.env.HOST ?? '127.0.0.1';

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
const select = db.prepare<[string], { id: string; amount: string; currency: string; body: string }>(
  'SELECT id, amount, currency, body FROM payments WHERE id = ?',
);

const app = new Hono();

app.post('/payments', async (c) => {
  const params = new URLSearchParams(await c.req.text());
  const amount = params.get('amount');
  const currency = params.get('currency');
  if (amount === null || currency === null) return c.json({ error: 'amount and currency are required' }, 400);
  const id = randomBytes(16).toString('hex');
  // Autocommit: each INSERT is its own transaction, synced to the WAL before it returns.
  insert.run(id, amount, currency, JSON.stringify(Object.fromEntries(params)));
  return c.json({ id, amount, currency, result: { code: '000.100.110' } });
});

/**
 * The group-commit floor: rows queued during one event-loop turn are inserted by one
 * transaction (one fsync) in the next turn's check phase; each request waits for its commit.
 */
type Row = readonly [id: string, amount: string, currency: string, body: string];
let queue: { row: Row; done: (error?: unknown) => void }[] = [];
const insertMany = db.transaction((rows: readonly Row[]) => {
  for (const row of rows) insert.run(...row);
});
function commitQueued(): void {
  const batch = queue;
  queue = [];
  try {
    insertMany(batch.map((q) => q.row));
    for (const q of batch) q.done();
  } catch (error) {
    for (const q of batch) q.done(error);
  }
}
const committed = (row: Row) =>
  new Promise<void>((resolve, reject) => {
    if (queue.length === 0) setImmediate(commitQueued);
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

app.get('/payments/:id', (c) => {
  const row = select.get(c.req.param('id'));
  if (row === undefined) return c.json({ error: 'not found' }, 404);
  return c.json({ id: row.id, amount: row.amount, currency: row.currency, result: { code: '000.100.110' } });
});

const server = serve({ fetch: app.fetch, port, hostname }, (info) =>
  console.log(JSON.stringify({ level: 'info', msg: 'baseline listening', port: info.port })),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => {
      db.close();
      process.exit(0);
    });
  });
}
