/**
 * The CPU of a payment create's own steps, in process (issue 21): decoding and validating the
 * benchmark's body (`parseRequest`), deciding and recording it (`createPayment`: the simulator,
 * the sealed card, the record; the store's insert is a no-op here), and answering it (the
 * envelope's JSON). No HTTP, no storage: for quick iteration on these steps and for a CPU profile
 * of them alone; the server's own figures come from payments.bench.ts.
 *
 *   npx tsx bench/create.bench.ts
 *   node --cpu-prof --import tsx bench/create.bench.ts     # then /tmp/prof.js on the profile
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Context } from 'hono';
import { Bench } from 'tinybench';
import { paymentAnswer } from '../server/http/middleware/envelope';
import { gatewayProcessors } from '../server/processors';
import { riskFingerprint } from '../server/security/risk-fingerprint';
import { openVault } from '../server/security/vault';
import { channelOf, MERCHANT, testEnvelope } from '../server/test-kit/middleware';
import type { EngineDeps } from '../shared/engine/core/deps';
import type { Payment } from '../shared/engine/core/model';
import { createPayment } from '../shared/engine/operations/initial-payment';
import { parseRequest } from '../shared/params/requests';

/** The body payments.bench.ts sends (bench/README.md, "create"). */
const BODY =
  'entityId=8a8294174b7ecb28014b9699220015ca&amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB' +
  '&card.number=4200000000000000&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123';

const dataDir = mkdtempSync(join(os.tmpdir(), 'create-bench-'));
const vault = openVault({ dataDir, env: { GATEWAY_DATA_KEY: '0f'.repeat(32) } });
const processors = gatewayProcessors(undefined);
const deps = {
  store: { insertPayment: async () => undefined },
  clock: { now: () => new Date() },
  seal: (plain: string) => vault.encrypt(plain),
  processors,
  fingerprint: riskFingerprint(vault),
} as unknown as EngineDeps;
const caller = { merchantId: MERCHANT, channel: channelOf('8a8294174b7ecb28014b9699220015ca') };
const answer = paymentAnswer(testEnvelope(), processors);
/** What answer() needs of a Hono context: c.body(). */
const context = { body: (text: string) => text } as unknown as Context;

const parsed = parseRequest('payment', BODY);
if (!parsed.ok) throw new Error(`the benchmark's body is refused: ${JSON.stringify(parsed.errors)}`);
const first = await createPayment(deps, caller, parsed.value);
if (first.kind !== 'payment') throw new Error(`the benchmark's payment is refused: ${JSON.stringify(first)}`);
const payment: Payment = first.payment;

const bench = new Bench({ time: 1500 });
bench.add('parseRequest', () => {
  parseRequest('payment', BODY);
});
bench.add('createPayment', async () => {
  await createPayment(deps, caller, parsed.value);
});
bench.add('answer', () => {
  answer(context, payment);
});
await bench.run();
console.log(`A payment create's steps in process. Node ${process.version}, ${os.cpus().length} CPUs.`);
console.table(
  bench.tasks.map((task) => {
    const r = task.result;
    if (r.state !== 'completed') return { step: task.name, 'p50 µs': r.state };
    return {
      step: task.name,
      'p50 µs': (r.latency.p50 * 1000).toFixed(2),
      'p99 µs': (r.latency.p99 * 1000).toFixed(2),
      samples: r.latency.samplesCount,
    };
  }),
);
rmSync(dataDir, { recursive: true, force: true });
