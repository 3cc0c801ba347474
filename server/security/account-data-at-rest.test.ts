/**
 * Bank account data at rest: IBANs and account numbers (bankAccount.iban, bankAccount.number,
 * sender.accountNumber, recipient.accountNumber) are sealed by the vault wherever
 * they rest, like card numbers: payments, registrations, checkouts' parameters, pending payments'
 * sessions, the webhook outbox, the reconciliation files. Everything goes through the public
 * HTTP API (SEPA payments, a refund, a registration and a payment with it, a checkout with a SEPA
 * submission, a pending 3-D Secure payment that times out, webhooks delivered, a day settled);
 * then every file of the data folder (SQLite database, WAL, CSV, JSON) is searched for each
 * number in several spellings, and, on PostgreSQL, every text column of every table. Reads must
 * still work: the merchant's answers, status reads, the query API and a payment with the stored
 * SEPA registration all see the account as it was sent; plain-JSON webhooks see it masked.
 *
 * No request here carries an Idempotency-Key: the stored idempotent responses are sealed
 * separately (server/http/middleware/idempotency); keyed requests belong here once they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskAccount } from '../../shared/params/errors';
import { type FakeClock, fakeClock } from '../test-kit/clock';
import { SEPA_WITH_MANDATE } from '../test-kit/fixtures/bank-accounts';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { BROWSER } from '../test-kit/fixtures/three-d-secure';
import { ADMIN_TOKEN } from '../test-kit/fixtures/tokens';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { type Receiver, startReceiver } from '../test-kit/receiver';
import { WEBHOOKS_DRIVEN } from '../test-kit/webhooks';
import { createLogger, type Logger } from './logger';

const MINUTE = 60_000;

/** Valid IBANs, one per place they come in by. */
const IBAN = {
  payment: 'DE89370400440532013000',
  registration: 'DE23100000001234567890',
  registeredAlong: 'ES9121000418450200051332',
  checkout: 'GB29NWBK60161331926819',
  sender: 'NL91ABNA0417164300',
  recipient: 'FR1420041010050500013M02606',
  /** A checkout's creation parameters. */
  merchant: 'BE68539007547034',
  pending: 'AT611904300234573201',
  /** Only in refused requests (parameter errors): never stored, never answered in full. */
  refused: 'CH9300762011623852957',
  refusedToo: 'IT60X0542811101000000123456',
} as const;
const ACCOUNT_NUMBER = 'KTO99887766554433';

/** How a number might be found: as sent, lower case, in groups of four, and its part after the check digits. */
function spellings(value: string): string[] {
  const out = new Set([value, value.toLowerCase(), value.replace(/(.{4})(?!$)/g, '$1 ')]);
  if (/^[A-Z]{2}\d{2}/.test(value)) out.add(value.slice(4));
  return [...out];
}
const SECRETS = [...Object.values(IBAN), ACCOUNT_NUMBER];

const sepa = (iban: string, extra: Record<string, string> = {}) => ({
  ...SEPA_WITH_MANDATE,
  'bankAccount.iban': iban,
  ...extra,
});

/** A card the simulated issuer always challenges (without a 3DS method), with 3-D Secure v2's fields. */
const CHALLENGE_CARD = {
  ...VISA_CARD,
  'card.number': '4200000000000018',
  ...BROWSER,
  'customer.browser.acceptHeader': 'text/html',
};

// biome-ignore lint/suspicious/noExplicitAny: notifications are read field by field
type Json = any;

interface World {
  gw: TestGateway;
  clock: FakeClock;
  receiver: Receiver;
  /** The gateway's logger, and what it wrote. */
  logger: Logger;
  log: string[];
}

async function world(databaseUrl?: string): Promise<World> {
  const clock = fakeClock('2026-03-10T09:00:00.000Z');
  const receiver = await startReceiver();
  const log: string[] = [];
  const logger = createLogger({ level: 'debug', stream: { write: (line: string) => log.push(line) } });
  const gw = await testGateway({
    clock,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    logger,
    ...WEBHOOKS_DRIVEN,
    scheduler: { autoStart: false },
    settlement: { autoStart: false },
  });
  return { gw, clock, receiver, logger, log };
}

/** Everything that may leave bank account data at rest, through the API; checks the answers on the way. */
async function scenario({ gw, clock, receiver, logger }: World): Promise<void> {
  const m: TestMerchant = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
  const auth = { token: m.token };
  const hook = await gw.send(
    'POST',
    `/admin/v1/merchants/${m.merchantId}/webhooks`,
    JSON.stringify({ url: `${receiver.url}/hooks`, encrypted: false }),
    { headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' } },
  );
  expect(hook.status, hook.text).toBe(201);
  const pay = (params: Record<string, string>) =>
    gw.post('/v1/payments', { entityId: m.entityId, currency: 'EUR', ...params }, auth);

  // A SEPA debit with every bank account field the catalogue has, and a registration along.
  const db = await pay({
    amount: '92.00',
    paymentType: 'DB',
    ...sepa(IBAN.payment, { 'bankAccount.number': ACCOUNT_NUMBER, 'bankAccount.bankCode': '37040044' }),
    'sender.accountNumber': IBAN.sender,
    'sender.accountNumberType': 'IBAN',
    'recipient.accountNumber': IBAN.recipient,
  });
  expect(db.status, db.text).toBe(200);
  expect(db.body.result.code).toBe('000.100.110');
  // The merchant sent it: the answer echoes it, as the family does.
  expect(db.body.bankAccount).toMatchObject({ iban: IBAN.payment, number: ACCOUNT_NUMBER });
  expect(db.body.sender.accountNumber).toBe(IBAN.sender);

  const along = await pay({
    amount: '10.00',
    paymentType: 'DB',
    ...sepa(IBAN.registeredAlong),
    createRegistration: 'true',
  });
  expect(along.status, along.text).toBe(200);
  expect(along.body.registrationId).toMatch(/^[0-9a-f]{32}$/);

  clock.advance(MINUTE);
  const rf = await gw.post(
    `/v1/payments/${db.body.id}`,
    { entityId: m.entityId, paymentType: 'RF', amount: '2.00', currency: 'EUR' },
    auth,
  );
  expect(rf.status, rf.text).toBe(200);

  // Reads open what was sealed.
  const status = await gw.get(`/v1/payments/${db.body.id}`, { entityId: m.entityId }, auth);
  expect(status.body.bankAccount).toMatchObject({ iban: IBAN.payment, number: ACCOUNT_NUMBER });
  expect(status.body.sender.accountNumber).toBe(IBAN.sender);
  expect(status.body.recipient.accountNumber).toBe(IBAN.recipient);
  const query = await gw.get(`/v1/query/${db.body.id}`, { entityId: m.entityId }, auth);
  expect(query.body.bankAccount.iban).toBe(IBAN.payment);

  // A SEPA registration, read back and paid with (the IBAN opened from its sealed form).
  const reg = await gw.post('/v1/registrations', { entityId: m.entityId, ...sepa(IBAN.registration) }, auth);
  expect(reg.status, reg.text).toBe(200);
  const regRead = await gw.get(`/v1/registrations/${reg.body.id}`, { entityId: m.entityId }, auth);
  expect(regRead.body.bankAccount.iban).toBe(IBAN.registration);
  for (const id of [reg.body.id, along.body.registrationId]) {
    const again = await gw.post(
      `/v1/registrations/${id}/payments`,
      { entityId: m.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
      auth,
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body.result.code).toBe('000.100.110');
    expect(again.body.paymentBrand).toBe('DIRECTDEBIT_SEPA');
  }

  // A checkout with the merchant's account, paid by a SEPA submission.
  const checkout = await gw.post(
    '/v1/checkouts',
    {
      entityId: m.entityId,
      amount: '12.50',
      currency: 'EUR',
      paymentType: 'DB',
      'sender.accountNumber': IBAN.merchant,
      'recipient.accountNumber': IBAN.recipient,
    },
    auth,
  );
  expect(checkout.status, checkout.text).toBe(200);
  const submitted = await gw.post(`/v1/checkouts/${checkout.body.id}/payment`, sepa(IBAN.checkout));
  expect(submitted.status, submitted.text).toBe(200);
  expect(submitted.body.result.code).toBe('000.100.110');
  const checkoutStatus = await gw.get(
    `/v1/checkouts/${checkout.body.id}/payment`,
    { entityId: m.entityId },
    auth,
  );
  expect(checkoutStatus.body.bankAccount.iban).toBe(IBAN.checkout);

  // A pending payment (3-D Secure challenge) with a sender's account, ended by the clock.
  const pending = await pay({
    amount: '7.00',
    paymentType: 'DB',
    ...CHALLENGE_CARD,
    'sender.accountNumber': IBAN.pending,
    shopperResultUrl: 'https://shop.example/return',
  });
  expect(pending.status, pending.text).toBe(200);
  expect(pending.body.result.code).toBe('000.200.000');
  clock.advance(31 * MINUTE);
  expect(await gw.pending.runOnce()).toBeGreaterThan(0);
  const timedOut = await gw.get(`/v1/payments/${pending.body.id}`, { entityId: m.entityId }, auth);
  expect(timedOut.body.result.code).toBe('100.396.103');
  expect(timedOut.body.sender.accountNumber).toBe(IBAN.pending);

  // Refused requests: the values are masked in parameterErrors.
  const refused = await pay({
    amount: '1.00',
    paymentType: 'DB',
    ...sepa(`${IBAN.refused}!`),
    'bankAccount.number': `${IBAN.refusedToo}-x`,
  });
  expect(refused.status).toBe(400);
  const unknownName = await pay({
    amount: '1.00',
    paymentType: 'DB',
    ...sepa(IBAN.payment),
    'bankAccount.ibn': IBAN.refused,
    'sender.acountNumber': IBAN.refusedToo,
  });
  expect(unknownName.status).toBe(400);
  for (const res of [refused, unknownName]) {
    expect(res.body.result.parameterErrors.length).toBeGreaterThan(0);
    for (const secret of [IBAN.refused, IBAN.refusedToo])
      for (const s of spellings(secret)) expect(res.text, `${s} in ${res.text}`).not.toContain(s);
  }

  // Webhooks delivered: plain JSON, so with the accounts masked (server/webhooks/plain-payload.ts).
  for (let i = 0; i < 10; i++) {
    await gw.webhooks.runOnce();
    const left = await gw.store.listDeliveries(m.merchantId, { status: 'pending', limit: 1 });
    if (left.length === 0) break;
    clock.advance(MINUTE);
  }
  const bodies: Json[] = receiver.received
    .filter((r) => r.url === '/hooks' && r.method === 'POST')
    .map((r) => JSON.parse(r.body));
  const ofPayment = bodies.find((b) => b.type === 'PAYMENT' && b.payload.id === db.body.id);
  expect(ofPayment?.payload.bankAccount).toMatchObject({
    iban: maskAccount(IBAN.payment),
    number: maskAccount(ACCOUNT_NUMBER),
  });
  expect(ofPayment?.payload.sender.accountNumber).toBe(maskAccount(IBAN.sender));
  const ofRegistration = bodies.find((b) => b.type === 'REGISTRATION' && b.payload.id === reg.body.id);
  expect(ofRegistration?.payload.bankAccount.iban).toBe(maskAccount(IBAN.registration));
  const ofCheckout = bodies.find((b) => b.type === 'PAYMENT' && b.payload.id === submitted.body.id);
  expect(ofCheckout?.payload.bankAccount.iban).toBe(maskAccount(IBAN.checkout));
  const ofPending = bodies.filter((b) => b.type === 'PAYMENT' && b.payload.id === pending.body.id);
  expect(ofPending.map((b) => b.payload.sender.accountNumber)).toEqual([
    maskAccount(IBAN.pending),
    maskAccount(IBAN.pending),
  ]);

  // The day settled: the reconciliation file shows the account's last four only.
  clock.advance(Date.parse('2026-03-11T03:00:00.000Z') - clock.now().getTime());
  await gw.settlement.runOnce();
  const csv = (await gw.dataFiles()).filter((f) => f.path.endsWith('.csv'));
  expect(csv.length).toBeGreaterThan(0);
  expect(csv.some((f) => f.bytes.toString('utf8').includes(';3000;'))).toBe(true);

  // The gateway's logger masks an account number even in free text (an acquirer's message).
  logger.error('connector refused the account', {
    error: new Error(`IBAN ${IBAN.sender} unknown, account ${IBAN.recipient.toLowerCase()}`),
    detail: `refused: ${IBAN.checkout.replace(/(.{4})(?!$)/g, '$1 ')}`,
  });
}

/** Where each secret was found, as `secret (spelling) in place`. */
function findings(places: readonly { where: string; text: Buffer | string }[]): string[] {
  const out: string[] = [];
  for (const secret of SECRETS)
    for (const s of spellings(secret))
      for (const p of places) {
        const hay = typeof p.text === 'string' ? Buffer.from(p.text) : p.text;
        if (hay.includes(Buffer.from(s)) || hay.includes(Buffer.from(s, 'utf16le')))
          out.push(`${secret} (${s}) in ${p.where}`);
      }
  return out;
}

describe('bank account data at rest (SQLite)', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });
  afterAll(async () => {
    await w?.gw.cleanup();
    await w?.receiver.close();
  });

  it('seals IBANs and account numbers in every file of the data folder, and logs none', async () => {
    await scenario(w);
    const files = async () =>
      (await w.gw.dataFiles()).map((f) => ({ where: f.path.slice(w.gw.dataDir.length + 1), text: f.bytes }));
    const before = await files();
    expect(before.some((f) => f.where === 'gateway.db')).toBe(true);
    expect(findings(before)).toEqual([]); // with the WAL present
    await w.gw.close();
    expect(findings(await files())).toEqual([]); // after the checkpoint on close
    expect(w.log.length).toBeGreaterThan(0);
    expect(findings(w.log.map((line, i) => ({ where: `log line ${i}: ${line}`, text: line })))).toEqual([]);
  });
});

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)('bank account data at rest (PostgreSQL)', () => {
  let cluster: PostgresCluster | undefined;
  let w: World;
  beforeAll(async () => {
    cluster = await startPostgres();
    w = await world(cluster.url);
  }, 120_000);
  afterAll(async () => {
    await w?.gw.cleanup();
    await w?.receiver.close();
    await cluster?.stop();
  }, 60_000);

  it('seals IBANs and account numbers in every text column of every table', async () => {
    await scenario(w);
    await w.gw.close();
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: cluster!.url });
    await client.connect();
    try {
      const columns = await client.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb')`,
      );
      expect(columns.rows.some((c) => c.table_name === 'payments' && c.column_name === 'details')).toBe(true);
      const places: { where: string; text: string }[] = [];
      for (const { table_name: t, column_name: c } of columns.rows) {
        const rows = await client.query<{ v: string | null }>(`SELECT "${c}"::text AS v FROM "${t}"`);
        for (const [i, r] of rows.rows.entries())
          if (r.v !== null) places.push({ where: `${t}.${c} row ${i}`, text: r.v });
      }
      expect(places.length).toBeGreaterThan(0);
      expect(findings(places)).toEqual([]);
    } finally {
      await client.end();
    }
    // the reconciliation files are written to the data folder on PostgreSQL too
    const files = (await w.gw.dataFiles()).map((f) => ({ where: f.path, text: f.bytes }));
    expect(findings(files)).toEqual([]);
  });
});
