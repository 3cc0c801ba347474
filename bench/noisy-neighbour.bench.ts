/**
 * The noisy neighbour (issue 30, hole 2): one merchant sending the largest bodies the limits
 * allow, as fast as four connections can, and what that does to another merchant's status reads
 * on the same gateway process. The gateway runs as its own process (server/main.ts through
 * test-kit/process.ts, SQLite in a temporary folder); the quiet merchant reads one payment
 * sequentially, first alone (idle), then while the noise runs. Goal: p50 within 2× idle, p99
 * within 5×.
 *
 *   npx tsx bench/noisy-neighbour.bench.ts [reads=1500] [params=16384] [bytes=524288]
 *
 * `params` and `bytes` shape the noisy body (parameters, total size); by default the body limit
 * and parameter limit the gateway enforces (server/http/middleware/body), so the noise is the
 * worst that passes them. Not a timed test: figures for bench/README.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VISA_CARD } from '../server/test-kit/fixtures/cards';
import { readDemo, spawnGateway } from '../server/test-kit/process';

const [reads = 1_500, params = 16_384, bytes = 512 * 1024] = process.argv.slice(2).map(Number);

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

const dataDir = await mkdtemp(join(tmpdir(), 'noisy-neighbour-'));
const gw = await spawnGateway({ dataDir, env: { LOG_LEVEL: 'error' } });
try {
  const demo = await readDemo(dataDir);
  const auth = { Authorization: `Bearer ${demo.accessToken}` };
  const form = { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' };
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

  const idle = await readLatencies(statusUrl, auth, reads);
  console.error(`idle reads done (p50 ${percentile(idle, 50).toFixed(2)} ms); noise starting`);

  const body = noisyBody(demo.entityId);
  let noisy = 0;
  const statuses = new Map<number, number>();
  let stop = false;
  const sender = async () => {
    while (!stop) {
      // a refused body may be answered (413) and the connection closed before it is all sent
      const status = await fetch(`${gw.baseUrl}/v1/payments`, { method: 'POST', headers: form, body })
        .then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        })
        .catch(() => 0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      noisy++;
    }
  };
  const senders = Array.from({ length: 4 }, sender);
  await new Promise((r) => setTimeout(r, 500));
  const busy = await readLatencies(statusUrl, auth, reads);
  stop = true;
  await Promise.all(senders);

  const row = (name: string, sorted: readonly number[]) =>
    `${name.padEnd(6)} p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms`;
  console.log(
    `noisy body: ${params} parameters, ${(body.length / 1024).toFixed(0)} KiB; ${reads} reads each`,
  );
  console.log(row('idle', idle));
  console.log(row('noisy', busy));
  console.log(
    `ratio  p50 ${(percentile(busy, 50) / percentile(idle, 50)).toFixed(1)}×  p99 ${(percentile(busy, 99) / percentile(idle, 99)).toFixed(1)}×` +
      `  (goal 2× and 5×); noisy requests ${noisy}, answered ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
} finally {
  await gw.stop();
  await rm(dataDir, { recursive: true, force: true });
}
