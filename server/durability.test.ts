/**
 * Durability of the real server process (`node --import tsx server/main.ts`), over sockets:
 *
 * - a crash (SIGKILL) in the middle of a burst of payments loses none that was answered: every
 *   payment a client received is there, unchanged, after a restart on the same data;
 * - no card number in any file of the data folder, neither in the crash state nor after the restart;
 * - two gateway processes on one PostgreSQL database see and act on the same payments, and race
 *   neither on captures of one payment nor on retries of one Idempotency-Key (PostgreSQL advisory
 *   locks through Store.exclusive).
 */

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE } from './storage/open';
import { PAN, VISA_CARD_WITHOUT_HOLDER } from './test-kit/fixtures/cards';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from './test-kit/postgres';
import {
  type DemoMerchantFile,
  readDemo,
  type SpawnedGateway,
  spawnGateway,
  stopAll,
} from './test-kit/process';

const SUCCESS = '000.100.110';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
type Json = any;

interface Answer {
  readonly status: number;
  readonly body: Json;
  readonly text: string;
}

const dirs: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await stopAll();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}, 30_000);

const authorization = (demo: DemoMerchantFile) => ({ Authorization: `Bearer ${demo.accessToken}` });

async function post(
  gw: SpawnedGateway,
  demo: DemoMerchantFile,
  path: string,
  params: Record<string, string>,
): Promise<Answer> {
  const res = await fetch(`${gw.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...authorization(demo), 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entityId: demo.entityId, ...params }).toString(),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

async function getPayment(gw: SpawnedGateway, demo: DemoMerchantFile, id: string): Promise<Answer> {
  const query = new URLSearchParams({ entityId: demo.entityId });
  const res = await fetch(`${gw.baseUrl}/v1/payments/${id}?${query}`, { headers: authorization(demo) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

/** A payment response without what belongs to the answer rather than the payment. */
function stored(body: Json): Json {
  const { timestamp: _timestamp, buildNumber: _buildNumber, ...rest } = body;
  return rest;
}

/** The fields a merchant relies on, to name them in a failure. */
const keyFields = (body: Json) => ({
  id: body.id,
  paymentType: body.paymentType,
  amount: body.amount,
  currency: body.currency,
  resultCode: body.result?.code,
  card: body.card,
  descriptor: body.descriptor,
  ndc: body.ndc,
});

/** Runs `task` over `items` with at most `limit` at a time. */
async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Every file under `dir`, recursively, with its bytes. */
async function filesOf(dir: string): Promise<{ path: string; bytes: Buffer }[]> {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(path)));
    else if (entry.isFile()) out.push({ path, bytes: await readFile(path) });
  }
  return out;
}

const PAN_FORMS: readonly { name: string; bytes: Buffer }[] = [
  { name: 'ASCII', bytes: Buffer.from(PAN, 'latin1') },
  { name: 'UTF-16LE', bytes: Buffer.from(PAN, 'utf16le') },
  { name: 'UTF-16BE', bytes: Buffer.from(PAN, 'utf16le').swap16() },
];

describe('a crash in the middle of a burst of payments (SQLite)', () => {
  const TOTAL = 400;
  const IN_FLIGHT = 50;
  const KILL_AFTER = 150;

  let dataDir: string;
  /** The data folder as the crash left it, before anything touched it again. */
  let crashFiles: { path: string; bytes: Buffer }[] = [];
  /** Ids of the payments that were answered before the crash. */
  let answeredIds: string[] = [];

  afterEach(async () => {
    await stopAll();
  }, 30_000);

  it('keeps every payment that was answered, unchanged, across SIGKILL and restart', async () => {
    dataDir = await tempDir('gateway-crash-');
    const started = performance.now();
    const first = await spawnGateway({ dataDir });
    const demo = await readDemo(dataDir);
    const body = new URLSearchParams({
      entityId: demo.entityId,
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...VISA_CARD_WITHOUT_HOLDER,
    }).toString();
    const headers = { ...authorization(demo), 'Content-Type': 'application/x-www-form-urlencoded' };

    const answered: Answer[] = [];
    let sent = 0;
    let cut = 0; // requests that got no complete answer
    let answeredAfterKill = 0;
    let killAt: number | undefined;
    let exit: ReturnType<SpawnedGateway['kill']> | undefined;

    const worker = async () => {
      while (exit === undefined && sent < TOTAL) {
        sent++;
        let text: string;
        let status: number;
        try {
          const res = await fetch(`${first.baseUrl}/v1/payments`, { method: 'POST', headers, body });
          status = res.status;
          text = await res.text();
        } catch {
          cut++;
          continue;
        }
        // A body that arrived complete (fetch checks it against Content-Length) must be JSON.
        answered.push({ status, text, body: JSON.parse(text) });
        if (exit !== undefined) answeredAfterKill++;
        if (exit === undefined && answered.length >= KILL_AFTER) {
          killAt = performance.now();
          exit = first.kill('SIGKILL');
        }
      }
    };
    const burstStart = performance.now();
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(exit, 'the burst ended before the kill').toBeDefined();
    expect(await exit).toEqual({ code: null, signal: 'SIGKILL' });
    const burstMs = (killAt ?? burstStart) - burstStart;

    // The kill really was in the middle: some requests were cut off, not all were sent.
    expect(cut).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(TOTAL);
    for (const a of answered) {
      expect(a.status, a.text).toBe(200);
      expect(a.body.result.code, a.text).toBe(SUCCESS);
      expect(a.text).not.toContain(PAN);
    }
    answeredIds = answered.map((a) => a.body.id as string);
    expect(new Set(answeredIds).size).toBe(answered.length);

    crashFiles = await filesOf(dataDir);

    // Restart on the same data: the demo merchant is not created again, the answered payments are there.
    const restartAt = performance.now();
    const second = await spawnGateway({ dataDir });
    const restartMs = performance.now() - restartAt;
    expect(await readDemo(dataDir)).toEqual(demo);
    expect(second.output()).not.toContain('Demo merchant created');

    const verifyAt = performance.now();
    const reread = await pool(answered, 20, (a) => getPayment(second, demo, a.body.id));
    let verified = 0;
    for (const [i, a] of answered.entries()) {
      const got = reread[i]!;
      expect(got.status, `${a.body.id}: ${got.text}`).toBe(200);
      expect(keyFields(got.body)).toEqual(keyFields(a.body));
      expect(stored(got.body)).toEqual(stored(a.body));
      verified++;
    }
    const verifyMs = performance.now() - verifyAt;

    // A graceful stop, then the database file itself: intact, and holding at least what was answered.
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    const db = new BetterSqlite3(join(dataDir, SQLITE_FILE), { readonly: true });
    let rows: number;
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      rows = (db.prepare('SELECT count(*) AS n FROM payments').get() as { n: number }).n;
    } finally {
      db.close();
    }
    expect(rows).toBeGreaterThanOrEqual(verified);
    expect(rows).toBeLessThanOrEqual(sent);

    console.info(
      `crash test: ${sent} sent, ${answered.length} answered before the crash ` +
        `(${answeredAfterKill} of them completed after SIGKILL was sent), ${cut} cut off; ` +
        `${rows} payments in the database after restart, ${verified} answered ones verified; ` +
        `burst to kill ${burstMs.toFixed(0)} ms, restart ${restartMs.toFixed(0)} ms, ` +
        `verify ${verifyMs.toFixed(0)} ms, total ${(performance.now() - started).toFixed(0)} ms`,
    );
  }, 60_000);

  it('leaves no card number in any file of the data folder, crashed or restarted', async () => {
    expect(crashFiles.length, 'the crash test did not run').toBeGreaterThan(0);
    const after = await filesOf(dataDir);
    const names = (files: { path: string }[]) => files.map((f) => f.path.slice(dataDir.length + 1)).sort();
    // The crash left the WAL behind; the scan must cover it.
    expect(names(crashFiles)).toEqual(expect.arrayContaining([SQLITE_FILE, `${SQLITE_FILE}-wal`]));

    for (const [when, files] of [
      ['after the crash', crashFiles],
      ['after the restart', after],
    ] as const) {
      for (const f of files) {
        for (const form of PAN_FORMS) {
          expect(f.bytes.includes(form.bytes), `${form.name} card number in ${f.path} ${when}`).toBe(false);
        }
      }
      // The scan reads the payments themselves: their ids are there in plain text.
      const all = Buffer.concat(files.map((f) => f.bytes));
      for (const id of answeredIds) expect(all.includes(Buffer.from(id)), `${id} ${when}`).toBe(true);
    }
  });
});

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)('two gateway processes on one PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  let a: SpawnedGateway;
  let b: SpawnedGateway;
  let demo: DemoMerchantFile;
  let dirB: string;

  beforeAll(async () => {
    cluster = await startPostgres();
    const dirA = await tempDir('gateway-pg-a-');
    dirB = await tempDir('gateway-pg-b-');
    // One after the other: A migrates the empty database and creates the demo merchant, B finds it.
    a = await spawnGateway({ dataDir: dirA, databaseUrl: cluster.url });
    b = await spawnGateway({ dataDir: dirB, databaseUrl: cluster.url });
    demo = await readDemo(dirA);
  }, 120_000);
  afterAll(async () => {
    try {
      await stopAll();
    } finally {
      await cluster?.stop();
    }
  }, 60_000);

  const authorize = async (gw: SpawnedGateway, extra: Record<string, string> = {}): Promise<Answer> => {
    const pa = await post(gw, demo, '/v1/payments', {
      amount: '100.00',
      currency: 'EUR',
      paymentType: 'PA',
      ...VISA_CARD_WITHOUT_HOLDER,
      ...extra,
    });
    expect(pa.status, pa.text).toBe(200);
    return pa;
  };
  const reference = (gw: SpawnedGateway, id: string, paymentType: string, amount: string) =>
    post(gw, demo, `/v1/payments/${id}`, { paymentType, amount, currency: 'EUR' });

  it('authorizes through one, captures and refunds through both, and both read the same payments', async () => {
    expect(existsSync(join(dirB, 'demo-merchant.json'))).toBe(false);

    const pa = await authorize(a);
    expect(pa.body).toMatchObject({ paymentType: 'PA', amount: '100.00', currency: 'EUR' });
    expect(pa.body.result.code).toBe(SUCCESS);

    const cp1 = await reference(b, pa.body.id, 'CP', '60.00');
    expect(cp1.status, cp1.text).toBe(200);
    expect(cp1.body).toMatchObject({ paymentType: 'CP', amount: '60.00', referencedId: pa.body.id });
    expect(cp1.body.result.code).toBe(SUCCESS);

    const cp2 = await reference(a, pa.body.id, 'CP', '40.00');
    expect(cp2.status, cp2.text).toBe(200);
    expect(cp2.body).toMatchObject({ paymentType: 'CP', amount: '40.00', referencedId: pa.body.id });
    expect(cp2.body.result.code).toBe(SUCCESS);

    // B sees A's capture: nothing is left to capture.
    const over = await reference(b, pa.body.id, 'CP', '0.01');
    expect(over.status, over.text).toBe(400);
    expect(over.body.result.code).toBe('700.400.100');

    const rf = await reference(b, cp1.body.id, 'RF', '60.00');
    expect(rf.status, rf.text).toBe(200);
    expect(rf.body).toMatchObject({ paymentType: 'RF', amount: '60.00', referencedId: cp1.body.id });
    expect(rf.body.result.code).toBe(SUCCESS);

    // A sees B's refund: the first capture is refunded in full.
    const again = await reference(a, cp1.body.id, 'RF', '0.01');
    expect(again.status, again.text).toBe(400);
    expect(again.body.result.code).toMatch(/^700\./);

    for (const made of [pa, cp1, cp2, over, rf, again]) {
      const viaA = await getPayment(a, demo, made.body.id);
      const viaB = await getPayment(b, demo, made.body.id);
      expect(viaA.status, viaA.text).toBe(made.status);
      expect(viaB.status, viaB.text).toBe(made.status);
      expect(stored(viaA.body)).toEqual(stored(made.body));
      expect(stored(viaB.body)).toEqual(stored(made.body));
    }
  });

  const ROUNDS = 20;

  // Regression: two processes each capturing 60.00 of 100.00 at once captured 120.00.
  it('never captures more than was authorized when A and B capture at the same moment', async () => {
    const overCaptured: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const pa = await authorize(a);
      const both = await Promise.all([a, b].map((gw) => reference(gw, pa.body.id, 'CP', '60.00')));
      if (both.every((cp) => cp.body.result.code === SUCCESS)) overCaptured.push(pa.body.id);
    }
    expect(overCaptured, 'PAs of 100.00 with two successful captures of 60.00').toEqual([]);
  });

  // Regression: the same Idempotency-Key at two processes at once created two payments.
  it('runs a payment once when A and B get the same Idempotency-Key at the same moment', async () => {
    const tag = Math.random().toString(36).slice(2, 10);
    const duplicated: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const key = `race-${tag}-${round}`;
      const params = new URLSearchParams({
        entityId: demo.entityId,
        amount: '5.00',
        currency: 'EUR',
        paymentType: 'DB',
        merchantTransactionId: key,
        ...VISA_CARD_WITHOUT_HOLDER,
      }).toString();
      const answers = await Promise.all(
        [a, b].map(async (gw) => {
          const res = await fetch(`${gw.baseUrl}/v1/payments`, {
            method: 'POST',
            headers: {
              ...authorization(demo),
              'Content-Type': 'application/x-www-form-urlencoded',
              'Idempotency-Key': key,
            },
            body: params,
          });
          return (await res.json()) as Json;
        }),
      );
      expect(answers[0].id).toBe(answers[1].id);
      const rows = await countPayments(cluster!.url, key);
      if (rows !== 1) duplicated.push(`${key}: ${rows} payments`);
    }
    expect(duplicated, 'Idempotency-Keys that recorded more than one payment').toEqual([]);
  });

  it('shuts both down cleanly on SIGTERM', async () => {
    expect(await a.stop()).toEqual({ code: 0, signal: null });
    expect(await b.stop()).toEqual({ code: 0, signal: null });
  });
});

/** Payments with this merchantTransactionId, counted in the database itself. */
async function countPayments(databaseUrl: string, merchantTransactionId: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM payments WHERE merchant_transaction_id = $1',
      [merchantTransactionId],
    );
    return result.rows[0]!.n;
  } finally {
    await client.end();
  }
}
