/**
 * The noisy neighbour (issue 30, hole 2): one merchant sending the largest bodies the limits
 * allow, as fast as four connections can, and what that does to another merchant's status reads
 * on the same gateway process. The gateway runs as its own process (server/main.ts through
 * test-kit/process.ts, SQLite in a temporary folder); the quiet merchant (the demo merchant)
 * reads one payment sequentially, alone (idle) and while the noise runs, in alternating rounds; the noisy one is
 * a second merchant with its own channel and token (made through the admin API), so that what is
 * charged to the sender (server/http/middleware/work-budget) is charged to it alone. Goal: p50
 * within 2× idle, p99 within 5×.
 *
 *   npx tsx bench/noisy-neighbour.bench.ts [reads=1500] [params=16384] [bytes=524288] [rounds=5]
 *   NOISE=valid npx tsx bench/noisy-neighbour.bench.ts    # the noise: the spec's largest valid request
 *
 * `params` and `bytes` shape the noisy body (parameters, total size); by default the body limit
 * and parameter limit the gateway enforces (server/http/middleware/body), so the noise is the
 * worst that passes them. Not a timed test: figures for bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VISA_CARD } from '../server/test-kit/fixtures/cards';
import { readDemo, spawnGateway } from '../server/test-kit/process';
import { encode, fullPayment } from './largest-request';

const [reads = 1_500, params = 16_384, bytes = 512 * 1024, rounds = 5] = process.argv.slice(2).map(Number);

/** A body of `params` custom parameters padded to about `bytes`. */
function noisyBody(entityId: string): string {
  const head = `entityId=${entityId}&amount=1.00&currency=EUR&paymentType=DB`;
  // each pair: `customParameters%5Bp<i>%5D=` and `&`, about 31 characters, then the value
  const each = Math.max(1, Math.floor((bytes - head.length) / params) - 31);
  const value = 'x'.repeat(each);
  const parts = [head];
  // `params` pairs in all, the head's four among them
  for (let i = 4; i < params; i++) parts.push(`customParameters%5Bp${i}%5D=${value}`);
  return parts.join('&');
}

/** The spec's largest valid request (bench/largest-request.ts), paid on the noisy merchant's channel. */
function largestValid(entityId: string): string {
  const pairs = fullPayment(1000)
    .filter(([name]) => !name.startsWith('authentication.'))
    .map(([name, value]): [string, string] =>
      name === 'entityId' ? [name, entityId] : name === 'testMode' ? [name, 'INTERNAL'] : [name, value],
    );
  return encode(pairs);
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function readLatencies(url: string, headers: Record<string, string>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`status read answered ${res.status}`);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

/** A second merchant, its channel and its token, through the admin API (the operator's token). */
async function noisyMerchant(
  baseUrl: string,
  adminToken: string,
): Promise<{ entityId: string; token: string }> {
  const admin = async (path: string, body: object) => {
    const res = await fetch(`${baseUrl}/admin/v1/${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const merchant = await admin('merchants', { name: 'Noisy neighbour' });
  // no per-minute throttle in the way: what is measured is the cost of the bodies themselves
  const channel = await admin(`merchants/${merchant.id}/channels`, {
    name: 'noisy',
    throttlePerMinute: 1_000_000,
  });
  const token = await admin(`merchants/${merchant.id}/tokens`, { channels: [channel.entityId] });
  return { entityId: channel.entityId!, token: token.accessToken! };
}

const dataDir = await mkdtemp(join(tmpdir(), 'noisy-neighbour-'));
const adminToken = randomBytes(32).toString('hex');
const gw = await spawnGateway({ dataDir, env: { LOG_LEVEL: 'error', GATEWAY_ADMIN_TOKEN: adminToken } });
try {
  const demo = await readDemo(dataDir);
  const auth = { Authorization: `Bearer ${demo.accessToken}` };
  const form = { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' };
  const other = await noisyMerchant(gw.baseUrl, adminToken);
  const noisyForm = { ...form, Authorization: `Bearer ${other.token}` };
  const created = await fetch(`${gw.baseUrl}/v1/payments`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({
      entityId: demo.entityId,
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'PA',
      ...VISA_CARD,
      'customParameters[3DS2_enrolled]': 'false',
    }).toString(),
  });
  const id = ((await created.json()) as { id: string }).id;
  const statusUrl = `${gw.baseUrl}/v1/payments/${id}?entityId=${demo.entityId}`;
  await readLatencies(statusUrl, auth, 200); // warm-up

  // Idle and noisy phases alternate (`rounds` of each, the reads shared among them): on a machine
  // others load too, a single idle phase then a single noisy one measures their load as much as ours.
  const body = process.env.NOISE === 'valid' ? largestValid(other.entityId) : noisyBody(other.entityId);
  const idle: number[] = [];
  const busy: number[] = [];
  let noisy = 0;
  let noiseSeconds = 0;
  const statuses = new Map<number, number>();
  const perRound = Math.ceil(reads / rounds);
  for (let round = 0; round < rounds; round++) {
    idle.push(...(await readLatencies(statusUrl, auth, perRound)));
    let stop = false;
    const sender = async () => {
      while (!stop) {
        // a refused body may be answered (413) and the connection closed before it is all sent
        const status = await fetch(`${gw.baseUrl}/v1/payments`, { method: 'POST', headers: noisyForm, body })
          .then(async (res) => {
            await res.arrayBuffer();
            return res.status;
          })
          .catch(() => 0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        noisy++;
      }
    };
    const started = performance.now();
    const senders = Array.from({ length: 4 }, sender);
    await new Promise((r) => setTimeout(r, 500));
    busy.push(...(await readLatencies(statusUrl, auth, perRound)));
    stop = true;
    await Promise.all(senders);
    noiseSeconds += (performance.now() - started) / 1000;
    console.error(`round ${round + 1} of ${rounds} done`);
  }
  idle.sort((a, b) => a - b);
  busy.sort((a, b) => a - b);

  const row = (name: string, sorted: readonly number[]) =>
    `${name.padEnd(6)} p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms`;
  console.log(
    `noisy body: ${process.env.NOISE === 'valid' ? 'the largest valid request' : `${params} parameters`}, ${(body.length / 1024).toFixed(0)} KiB; ${idle.length} reads each, in ${rounds} rounds`,
  );
  console.log(row('idle', idle));
  console.log(row('noisy', busy));
  console.log(
    `ratio  p50 ${(percentile(busy, 50) / percentile(idle, 50)).toFixed(1)}×  p99 ${(percentile(busy, 99) / percentile(idle, 99)).toFixed(1)}×` +
      `  (goal 2× and 5×); noisy requests ${noisy}, answered ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  console.log(
    `noisy merchant: ${(noisy / noiseSeconds).toFixed(1)} requests/s over ${noiseSeconds.toFixed(1)} s ` +
      `(${((noisy * body.length) / 1024 / 1024 / noiseSeconds).toFixed(2)} MiB/s of bodies)`,
  );
} finally {
  await gw.stop();
  await rm(dataDir, { recursive: true, force: true });
}
