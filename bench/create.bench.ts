/**
 * The CPU of a payment create's own steps, in process (issue 21): decoding and validating the
 * benchmark's body (`parseRequest`), deciding and recording it (`createPayment`: the simulator,
 * the sealed card, the record; the store's insert is a no-op here), and answering it (the
 * envelope's JSON). No HTTP: for quick iteration on these steps and for a CPU profile of them
 * alone; the server's own figures come from payments.bench.ts. The storage step apart: a batch of
 * BATCH payments written by the SQLite store's group commit (row mapping, the INSERTs, the COMMIT
 * with its WAL sync, in the OS's temporary folder), its time divided by BATCH: CPU and sync wait.
 *
 *   npx tsx bench/create.bench.ts
 *   node --cpu-prof --import tsx bench/create.bench.ts     # then /tmp/prof.js on the profile
 */
import os from 'node:os';
import type { Context } from 'hono';
import { Bench } from 'tinybench';
import { paymentAnswer } from '../server/http/middleware/envelope';
import { gatewayProcessors } from '../server/processors';
import { riskFingerprint } from '../server/security/risk-fingerprint';
import { openVault } from '../server/security/vault';
import { openStore } from '../server/storage/open';
import { channelOf, MERCHANT, testEnvelope } from '../server/test-kit/middleware';
import { tempFolderUntilExit } from '../server/test-kit/temp-folders';
import type { EngineDeps } from '../shared/engine/core/deps';
import { newId, newPaymentNdc } from '../shared/engine/core/ids';
import type { Payment } from '../shared/engine/core/model';
import { createPayment } from '../shared/engine/operations/initial-payment';
import { recordPayment } from '../shared/engine/steps/record';
import { parseRequest } from '../shared/params/requests';

/** The body payments.bench.ts sends (bench/README.md, "create"). */
const BODY =
  'entityId=8a8294174b7ecb28014b9699220015ca&amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB' +
  '&card.number=4200000000000000&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123';

// Deleted however the run ends (a refused body, an interrupted run), not only after the last step.
const dataDir = tempFolderUntilExit('create-bench-');
process.once('SIGINT', () => process.exit(130));
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

/** Payments per group-commit batch in the storage step: about what 50 connections make per turn. */
const BATCH = 25;
const store = await openStore({ dataDir, vault });

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
async function storeBatch(): Promise<void> {
  const batch: Promise<void>[] = [];
  for (let i = 0; i < BATCH; i++)
    batch.push(
      recordPayment(
        { store, processors },
        { ...payment, id: newId(), ndc: newPaymentNdc(payment.channelId) },
      ),
    );
  await Promise.all(batch);
}
bench.add(`store ×${BATCH} (one batch)`, storeBatch);
await bench.run();
console.log(`A payment create's steps in process. Node ${process.version}, ${os.cpus().length} CPUs.`);
console.table(
  bench.tasks.map((task) => {
    const r = task.result;
    if (r.state !== 'completed') return { step: task.name, 'p50 µs': r.state };
    // the batch's figures per payment
    const per = task.name.startsWith('store') ? BATCH : 1;
    return {
      step: per === 1 ? task.name : `${task.name} ÷ ${BATCH}`,
      'p50 µs': ((r.latency.p50 * 1000) / per).toFixed(2),
      'p99 µs': ((r.latency.p99 * 1000) / per).toFixed(2),
      samples: r.latency.samplesCount,
    };
  }),
);
// The storage step's CPU (user + system, the WAL sync's kernel work included) apart from its wait.
const STORE_ROUNDS = 400;
const cpu = process.cpuUsage();
for (let i = 0; i < STORE_ROUNDS; i++) await storeBatch();
const used = process.cpuUsage(cpu);
console.log(
  `store: ${((used.user + used.system) / (STORE_ROUNDS * BATCH)).toFixed(2)} µs of CPU per payment ` +
    `(${STORE_ROUNDS} batches of ${BATCH})`,
);
await store.close();
