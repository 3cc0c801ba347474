/**
 * Latency of decode + validate (`parseRequest('payment', body)`) for a typical card payment and for
 * a payment with every parameter group filled and 1000 cart items. See bench/README.md.
 *
 *   npx tsx bench/params.bench.ts            # or: npm run bench
 *   npx tsx bench/params.bench.ts --strict   # exit 1 when a goal is missed
 */
import os from 'node:os';
import { Bench, type Task } from 'tinybench';
import { parseRequest } from '../shared/params/requests';
import { CARD_PAYMENT, encode, fullPayment, type Pairs } from './largest-request';

/** (a) A typical card payment: the card, a reference, the customer, the billing address. */
const TYPICAL: Pairs = [
  ...CARD_PAYMENT,
  ['merchantTransactionId', 'order-2024-000471'],
  ['customer.givenName', 'Jane'],
  ['customer.surname', 'Jones'],
  ['customer.email', 'jane.jones@example.com'],
  ['billing.street1', 'Hauptstrasse 12'],
  ['billing.city', 'Berlin'],
  ['billing.postcode', '10115'],
  ['billing.country', 'DE'],
  ['shopperResultUrl', 'https://shop.example.com/result'],
];

interface Case {
  readonly name: string;
  readonly body: string;
  readonly params: number;
  /** Goal for the median latency, in milliseconds. */
  readonly goalMs: number;
  /** Sampling budget: at least this long, and at least this many calls. */
  readonly timeMs: number;
  readonly iterations: number;
}

const fullPairs = fullPayment(1000);
const CASES: Case[] = [
  {
    name: '(a) typical card payment',
    body: encode(TYPICAL),
    params: TYPICAL.length,
    goalMs: 0.05,
    timeMs: 3000,
    iterations: 2000,
  },
  {
    name: '(b) every group + 1000 cart items',
    body: encode(fullPairs),
    params: fullPairs.length,
    goalMs: 20,
    timeMs: 6000,
    iterations: 50,
  },
];

// Both bodies must be valid, or the benchmark would time the error path.
for (const c of CASES) {
  const result = parseRequest('payment', c.body);
  if (!result.ok) {
    console.error(`${c.name}: the body is not valid:`);
    console.error(JSON.stringify(result.errors.slice(0, 10), null, 2));
    process.exit(1);
  }
}

const formatMs = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const formatBytes = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);

console.log(
  `parseRequest('payment', body): decode + validate. Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}).\n`,
);

const rows: Record<string, string | number>[] = [];
let missed = 0;
for (const c of CASES) {
  const bench = new Bench({
    name: c.name,
    time: c.timeMs,
    iterations: c.iterations,
    warmupTime: Math.min(1000, c.timeMs / 3),
    warmupIterations: Math.min(200, c.iterations),
  });
  bench.add(c.name, () => {
    parseRequest('payment', c.body);
  });
  await bench.run();
  const task = bench.tasks[0] as Task;
  const r = task.result;
  if (r.state !== 'completed') {
    console.error(`${c.name}: ${r.state}${r.state === 'errored' ? `: ${r.error.message}` : ''}`);
    process.exit(1);
  }
  const pass = r.latency.p50 < c.goalMs;
  if (!pass) missed++;
  rows.push({
    case: c.name,
    params: c.params,
    body: formatBytes(Buffer.byteLength(c.body)),
    p50: `${formatMs(r.latency.p50)} ${pass ? 'PASS' : 'FAIL'}`,
    p75: formatMs(r.latency.p75),
    p99: formatMs(r.latency.p99),
    'ops/s': Math.round(1000 / r.latency.mean),
    goal: `p50 < ${formatMs(c.goalMs)}`,
    samples: r.latency.samplesCount,
  });
}

console.table(rows);
console.log(missed === 0 ? 'All goals met.' : `${missed} goal(s) missed.`);
if (missed > 0 && process.argv.includes('--strict')) process.exit(1);
