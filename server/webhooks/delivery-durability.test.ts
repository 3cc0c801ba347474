/**
 * The outbox survives a crash: the real gateway process is killed (SIGKILL) with notifications
 * pending — some in flight (the receiver holds its answers), some not yet attempted (waiting
 * behind an earlier one of the same payment) — and restarted on the same data. Every change is
 * then delivered, in order per payment, and nothing is received twice except an attempt the
 * receiver never got to acknowledge.
 *
 * Then two processes on one PostgreSQL dispatch the same outbox: no attempt goes out twice.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VISA_CARD_WITHOUT_HOLDER } from '../test-kit/fixtures/cards';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { readDemo, type SpawnedGateway, spawnGateway, stopAll } from '../test-kit/process';
import { type Received, type Receiver, startReceiver } from '../test-kit/receiver';

const ADMIN = 'admin-token-for-the-durability-test-0001';
const ENV = {
  GATEWAY_ADMIN_TOKEN: ADMIN,
  GATEWAY_WEBHOOK_INTERVAL_MS: '100',
  // 3 s: no held attempt times out before the crash, and the leases of the dead process (the
  // timeout and 5 s) end soon after the restart
  GATEWAY_WEBHOOK_TIMEOUT_MS: '3000',
};

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
type Json = any;

const dirs: string[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  await stopAll();
  await Promise.all(receivers.map((r) => r.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}, 30_000);

async function call(
  gateway: SpawnedGateway,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string>,
) {
  const res = await fetch(`${gateway.baseUrl}${path}`, { method, headers, ...(body === '' ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Json };
}

async function until(what: string, done: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The payment (or test notification) a plain-JSON notification is about, and its result. */
const about = (r: Received): { id: string; type: string; code?: string } => {
  const n = JSON.parse(r.body) as Json;
  return {
    id: n.payload.id ?? n.payload.webhookId,
    type: n.payload.paymentType ?? n.type,
    code: n.payload.result?.code,
  };
};

async function setUp(gateway: SpawnedGateway, dataDir: string, receiver: Receiver) {
  const demo = await readDemo(dataDir);
  const registered = await call(
    gateway,
    'POST',
    `/admin/v1/merchants/${demo.merchantId}/webhooks`,
    JSON.stringify({ url: receiver.url, encrypted: false, types: ['PAYMENT'] }),
    { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
  );
  expect(registered.status).toBe(201);
  const auth = {
    Authorization: `Bearer ${demo.accessToken}`,
    'Content-Type': 'application/x-www-form-urlencoded',
  };
  const pay = (params: Record<string, string>, path = '/v1/payments') =>
    call(
      gateway,
      'POST',
      path,
      new URLSearchParams({ entityId: demo.entityId, currency: 'EUR', ...params }).toString(),
      auth,
    );
  return { demo, pay };
}

describe('webhook delivery across a crash (real processes, SQLite)', () => {
  it('delivers every pending notification after a restart, once unless unacknowledged', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-webhook-crash-'));
    dirs.push(dataDir);
    const receiver = await startReceiver();
    receivers.push(receiver);
    // the changes are made while no dispatcher runs: then the gateway is killed with all pending
    const first = await spawnGateway({ dataDir, env: { ...ENV, GATEWAY_WEBHOOK_INTERVAL_MS: '3600000' } });
    const { pay } = await setUp(first, dataDir, receiver);
    const registrationTest = receiver.received.length;
    const debits: string[] = [];
    for (let i = 0; i < 8; i++)
      debits.push(
        (await pay({ amount: `${i + 1}.00`, paymentType: 'DB', ...VISA_CARD_WITHOUT_HOLDER })).body.id,
      );
    // a PA and its captures: the captures wait, in order, behind the PA's own notification
    const pa = (await pay({ amount: '40.00', paymentType: 'PA', ...VISA_CARD_WITHOUT_HOLDER })).body
      .id as string;
    const captures: string[] = [];
    for (let i = 0; i < 4; i++)
      captures.push((await pay({ amount: '10.00', paymentType: 'CP' }, `/v1/payments/${pa}`)).body.id);
    await first.kill('SIGKILL');
    expect(receiver.received.length).toBe(registrationTest);

    // a dispatcher takes the first of each payment's queue; the receiver holds its answers; the
    // gateway is killed with them in flight
    receiver.hold(true);
    const second = await spawnGateway({ dataDir, env: ENV });
    await until('the first attempts to be in flight', () => receiver.received.length >= registrationTest + 9);
    await second.kill('SIGKILL');
    const inFlight = receiver.received
      .slice(registrationTest)
      .map(about)
      .map((n) => n.id);
    expect([...inFlight].sort()).toEqual([...debits, pa].sort());
    // let the receiver see the dead sender's connections close: their answers never reach it
    await new Promise((resolve) => setTimeout(resolve, 500));
    receiver.hold(false);
    const unacknowledged = new Set(
      receiver.received
        .slice(registrationTest)
        .filter((r) => r.answered === 0)
        .map((r) => about(r).id),
    );
    expect(unacknowledged.size).toBe(9);

    // the third process delivers everything once the dead one's leases have ended
    await spawnGateway({ dataDir, env: ENV });
    const everything = [...debits, pa, ...captures];
    const delivered = () =>
      receiver.received
        .slice(registrationTest)
        .filter((r) => r.answered >= 200 && r.answered < 300)
        .map(about);
    await until(
      'every notification to be delivered',
      () => new Set(delivered().map((n) => n.id)).size === everything.length,
      45_000,
    );
    // nothing more comes: ten of the dispatcher's rounds (every 100 ms) with nothing sent again
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const got = delivered();
    expect(got.map((n) => n.id).sort()).toEqual([...everything].sort());
    // the PA first, then its captures in the order they were made
    expect(got.filter((n) => n.id === pa || captures.includes(n.id)).map((n) => n.id)).toEqual([
      pa,
      ...captures,
    ]);
    // received twice only when the first one was never acknowledged
    const receipts = receiver.received.slice(registrationTest).map(about);
    for (const id of everything) {
      const count = receipts.filter((n) => n.id === id).length;
      expect(count, `${id} received ${count} times`).toBe(unacknowledged.has(id) ? 2 : 1);
    }
  }, 90_000);
});

const pgSkip = postgresUnavailableReason();

describe.skipIf(pgSkip !== undefined)('two dispatchers on one PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  afterAll(async () => {
    await stopAll();
    await cluster?.stop();
  }, 60_000);

  it('never send one attempt twice', async () => {
    cluster = await startPostgres();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const dirA = await mkdtemp(join(tmpdir(), 'gateway-webhook-pg-a-'));
    const dirB = await mkdtemp(join(tmpdir(), 'gateway-webhook-pg-b-'));
    dirs.push(dirA, dirB);
    // A alone first (it creates the demo merchant), with its dispatcher effectively off
    const a = await spawnGateway({
      dataDir: dirA,
      databaseUrl: cluster.url,
      env: { ...ENV, GATEWAY_WEBHOOK_INTERVAL_MS: '3600000' },
    });
    const { pay } = await setUp(a, dirA, receiver);
    const start = receiver.received.length;
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(
        (await pay({ amount: `${i + 1}.00`, paymentType: 'DB', ...VISA_CARD_WITHOUT_HOLDER })).body.id,
      );
    await a.stop();
    // now two dispatchers polling every 10 ms race for the same 40 deliveries
    const fast = { ...ENV, GATEWAY_WEBHOOK_INTERVAL_MS: '10' };
    await Promise.all([
      spawnGateway({ dataDir: dirA, databaseUrl: cluster.url, env: fast }),
      spawnGateway({ dataDir: dirB, databaseUrl: cluster.url, env: fast }),
    ]);
    await until('all 40 to be delivered', () => receiver.received.length - start >= 40);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const got = receiver.received
      .slice(start)
      .map(about)
      .map((n) => n.id);
    expect(got.sort()).toEqual([...ids].sort());
  }, 120_000);
});
