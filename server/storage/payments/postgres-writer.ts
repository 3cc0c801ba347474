/**
 * PostgreSQL batch writer: a batch of payments in ONE statement, so one round trip (and one
 * commit) in the usual case, where the default writer (writers.ts) needs two to five: read the
 * merchants' webhooks, BEGIN, the payments, their outbox rows, the Idempotency-Keys, COMMIT. On
 * a busy gateway every round trip also waits for a turn of the event loop, and the batches
 * behind it wait for all of them.
 *
 * The statement inserts the payments, their outbox rows and their keys as data-modifying CTEs,
 * the outbox built for the webhooks the previous batches of these merchants found (a hint), and
 * checks in the same snapshot that the merchants' webhooks are still those, and that every key
 * was taken. When either check fails it divides by zero: the statement fails as a whole (nothing
 * written) and the batch is written the default way, which reads the webhooks again (and
 * refreshes the hint) and names a key that is taken. A single statement is atomic and, in
 * autocommit, committed (WAL flushed, synchronous_commit on) before its answer arrives.
 */
import { type Kysely, sql } from 'kysely';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { Database } from '../core/database';
import { CLAIM_COLUMNS, claimInsert } from '../idempotency/claims';
import { DELIVERY_COLUMNS, outboxRows, type WebhookHookRow } from '../webhooks/outbox';
import { PAYMENT_COLUMNS } from './rows';
import { kyselyPaymentWriter, type PaymentBatchWriter, type PaymentWrite } from './writers';

/** PostgreSQL's limit of parameters per statement is 65,535: bigger batches take the default way. */
const MAX_PARAMETERS = 60_000;
/** Separators of the webhooks' fingerprint: control characters no id or JSON list holds unescaped. */
const FIELD = '\u001f';
const ROW = '\u001d';
const NULL = '\u001e';

/** The webhooks of some merchants as one string, the same in SQL (hooksFingerprintSql) and here. */
function fingerprint(hooks: readonly WebhookHookRow[]): string {
  return [...hooks]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((h) => [h.id, h.merchant_id, h.types, h.payment_types ?? NULL].join(FIELD))
    .join(ROW);
}

function hooksFingerprintSql(merchantIds: readonly string[]) {
  const field = (name: string) => sql.ref(name);
  return sql<string>`(select coalesce(string_agg(${field('id')} || ${FIELD} || ${field('merchant_id')} || ${FIELD} || ${field('types')} || ${FIELD} || coalesce(${field('payment_types')}, ${NULL}), ${ROW} order by ${field('id')} collate "C"), '') from ${sql.table('webhooks')} where ${field('merchant_id')} in (${sql.join([...merchantIds])}) and ${field('deleted_at')} is null)`;
}

export function postgresPaymentWriter(db: Kysely<Database>, sealer: AccountSealer): PaymentBatchWriter {
  /** Each merchant's webhooks as last read: only a guess, checked by the statement that uses it. */
  const hints = new Map<string, WebhookHookRow[]>();
  const fallback = kyselyPaymentWriter(db, sealer, (merchantIds, hooks) => {
    for (const id of merchantIds) hints.set(id, []);
    for (const hook of hooks) hints.get(hook.merchant_id)?.push(hook);
  });
  return async (writes) => {
    const merchantIds = [...new Set(writes.flatMap((w) => w.changes.map((c) => c.merchantId)))];
    const known = merchantIds.every((id) => hints.has(id));
    if (!known || !(await inOneStatement(db, sealer, writes, merchantIds, hints))) await fallback(writes);
  };
}

/** Writes the batch in one statement; false when it was not written (the hint was stale, a key taken, too big). */
async function inOneStatement(
  db: Kysely<Database>,
  sealer: AccountSealer,
  writes: readonly PaymentWrite[],
  merchantIds: readonly string[],
  hints: ReadonlyMap<string, readonly WebhookHookRow[]>,
): Promise<boolean> {
  const hooks = merchantIds.flatMap((id) => hints.get(id) ?? []);
  const outbox = writes.flatMap((w) => w.changes.flatMap((change) => outboxRows(change, hooks, sealer)));
  const claims = writes.flatMap((w) => (w.claim === undefined ? [] : [w.claim]));
  const parameters =
    writes.length * PAYMENT_COLUMNS.length +
    outbox.length * DELIVERY_COLUMNS.length +
    claims.length * (CLAIM_COLUMNS.length + 1) +
    merchantIds.length +
    8;
  if (parameters > MAX_PARAMETERS) return false;
  const rows = writes.map((w) => w.row);
  let query = db.with('p', (qb) => qb.insertInto('payments').values(rows));
  if (outbox.length > 0)
    query = query.with('d', (qb) => qb.insertInto('webhook_deliveries').values(outbox)) as never;
  if (claims.length > 0) {
    const replaceBefore = Math.min(...claims.map((c) => c.replaceBefore));
    const insert = claimInsert(
      db,
      claims.map((c) => c.row),
      replaceBefore,
    ).returning('key');
    query = query.with('c', () => insert as never) as never;
  }
  const hooksUnchanged =
    merchantIds.length > 0 ? sql`${hooksFingerprintSql(merchantIds)} = ${fingerprint(hooks)}` : sql`true`;
  const keysTaken = claims.length > 0 ? sql`(select count(*) from c) = ${claims.length}` : sql`true`;
  const check = sql<number>`1 / ((${hooksUnchanged}) and (${keysTaken}))::int`;
  try {
    await query.selectNoFrom(check.as('ok')).execute();
    return true;
  } catch {
    // Nothing was written. A failed check (22012, division_by_zero) or anything else: the
    // default way writes the batch or meets the same error again, and reports it precisely.
    return false;
  }
}
