/**
 * The payments' batch writers behind group commit (core/group-commit.ts): each writes one batch
 * of payments atomically (all or none), durably, before it settles — the payment rows, their
 * outbox rows (notifications for the merchant's webhooks at that time) and the Idempotency-Keys
 * they take.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Change } from '../../../shared/engine/core/notification';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { Database } from '../core/database';
import { insertAll, ROWS_PER_STATEMENT } from '../core/rows';
import { CLAIM_COLUMNS, type ClaimWrite, claimInsert, KeyTaken } from '../idempotency/claims';
import type { NewIdempotentResponseRow } from '../idempotency/tables';
import { DELIVERY_COLUMNS, outboxRows, type WebhookHookRow, webhooksOf } from '../webhooks/outbox';
import type { NewWebhookDeliveryRow } from '../webhooks/tables';
import { PAYMENT_COLUMNS } from './rows';
import type { NewPaymentRow } from './tables';

/**
 * A payment row and the changes it notifies (the payment, and RISK for some), and the
 * Idempotency-Key it takes when its request sent one: written together, in one transaction.
 */
export interface PaymentWrite {
  readonly row: NewPaymentRow;
  readonly changes: readonly Change[];
  readonly claim?: ClaimWrite;
}

/**
 * Writes one batch of payments atomically (all or none), durably, before it settles: the
 * payment rows and their outbox rows (notifications for the merchant's webhooks at that time).
 */
export type PaymentBatchWriter = (writes: readonly PaymentWrite[]) => void | Promise<void>;

/**
 * Default batch writer: multi-row INSERTs of the payments and their outbox rows, in one
 * transaction. The webhooks are read first: a webhook registered while the batch commits may
 * or may not get its notifications, as it would if read inside the transaction (read committed).
 */
export function kyselyPaymentWriter(
  db: Kysely<Database>,
  sealer: AccountSealer,
  /** Told the webhooks read for a batch's merchants (the PostgreSQL writer's hint). */
  onHooks?: (merchantIds: readonly string[], hooks: readonly WebhookHookRow[]) => void,
): PaymentBatchWriter {
  return async (writes) => {
    const changes = writes.flatMap((w) => w.changes);
    const merchantIds = [...new Set(changes.map((c) => c.merchantId))];
    const hooks = await webhooksOf(db, merchantIds);
    onHooks?.(merchantIds, hooks);
    const outbox = changes.flatMap((change) => outboxRows(change, hooks, sealer));
    const rows = writes.map((w) => w.row);
    const claims = writes.flatMap((w) => (w.claim === undefined ? [] : [w.claim]));
    if (outbox.length === 0 && claims.length === 0 && rows.length <= ROWS_PER_STATEMENT) {
      // One statement is one transaction.
      await db.insertInto('payments').values(rows).execute();
      return;
    }
    await db.transaction().execute(async (trx) => {
      await insertAll(trx, 'payments', rows);
      await insertAll(trx, 'webhook_deliveries', outbox);
      // The keys the payments took, in their transaction; an expired row of a key is replaced only
      // if expired for every claim of the batch (keys are unique within it: one request per key).
      for (let i = 0; i < claims.length; i += ROWS_PER_STATEMENT) {
        const chunk = claims.slice(i, i + ROWS_PER_STATEMENT);
        const replaceBefore = Math.min(...chunk.map((c) => c.replaceBefore));
        const taken = await claimInsert(
          trx,
          chunk.map((c) => c.row),
          replaceBefore,
        )
          .returning('key')
          .execute();
        if (taken.length !== chunk.length) {
          const held = new Set(taken.map((t) => t.key));
          throw new KeyTaken(chunk.find((c) => !held.has(c.row.key))?.row.key ?? '');
        }
      }
    });
  };
}

/**
 * SQLite hot path: one better-sqlite3 transaction of prepared single-row INSERTs, on the handle
 * Kysely itself uses. The SQL is generated once by Kysely from the same table definition. It
 * runs synchronously: nothing else can interleave on the connection while it runs.
 */
export function sqlitePaymentWriter(
  db: Kysely<Database>,
  raw: BetterSqlite3.Database,
  sealer: AccountSealer,
  /** Told after each batch has committed (the WAL's checkpointer: core/checkpointer.ts). */
  committed?: () => void,
): PaymentBatchWriter {
  const template = Object.fromEntries(PAYMENT_COLUMNS.map((c) => [c, null])) as unknown as NewPaymentRow;
  const compiled = db.insertInto('payments').values(template).compile();
  const insert = raw.prepare(compiled.sql);
  const hooks = raw.prepare(
    db
      .selectFrom('webhooks')
      .select(['id', 'merchant_id', 'types', 'payment_types'])
      .where('merchant_id', '=', '')
      .where('deleted_at', 'is', null)
      .compile().sql,
  );
  const deliveryTemplate = Object.fromEntries(
    DELIVERY_COLUMNS.map((c) => [c, null]),
  ) as unknown as NewWebhookDeliveryRow;
  const insertDelivery = raw.prepare(
    db.insertInto('webhook_deliveries').values(deliveryTemplate).compile().sql,
  );
  const claimTemplate = Object.fromEntries(
    CLAIM_COLUMNS.map((c) => [c, null]),
  ) as unknown as NewIdempotentResponseRow;
  // Parameters: the claim's columns in CLAIM_COLUMNS order, then replaceBefore.
  const insertClaim = raw.prepare(claimInsert(db, [claimTemplate], 0).compile().sql);
  const insertAll = raw.transaction((writes: readonly PaymentWrite[]) => {
    const hooksOf = new Map<string, WebhookHookRow[]>();
    for (const { row, changes, claim } of writes) {
      insert.run(PAYMENT_COLUMNS.map((c) => row[c] ?? null));
      if (claim !== undefined) {
        const taken = insertClaim.run([
          ...CLAIM_COLUMNS.map((c) => claim.row[c] ?? null),
          claim.replaceBefore,
        ]);
        if (taken.changes === 0) throw new KeyTaken(claim.row.key);
      }
      for (const change of changes) {
        let merchantHooks = hooksOf.get(change.merchantId);
        if (merchantHooks === undefined) {
          merchantHooks = hooks.all(change.merchantId) as WebhookHookRow[];
          hooksOf.set(change.merchantId, merchantHooks);
        }
        for (const delivery of outboxRows(change, merchantHooks, sealer))
          insertDelivery.run(DELIVERY_COLUMNS.map((c) => delivery[c] ?? null));
      }
    }
  });
  return async (writes) => {
    // Never nest into a transaction someone else has open on this connection (it would only
    // become a savepoint, committed with theirs): wait until it has ended.
    while (raw.inTransaction) await new Promise((resolve) => setImmediate(resolve));
    insertAll(writes);
    committed?.();
  };
}

/** Told each batch a writer wrote: how many payments, in how many seconds, and whether it failed. */
export type BatchObserver = (size: number, seconds: number, failed: boolean) => void;

/** The writer, timing each batch for `observe` (the metrics' group-commit batch sizes and latency). */
export function observedWriter(write: PaymentBatchWriter, observe?: BatchObserver): PaymentBatchWriter {
  if (observe === undefined) return write;
  return async (writes) => {
    const started = performance.now();
    let failed = true;
    try {
      await write(writes);
      failed = false;
    } finally {
      observe(writes.length, (performance.now() - started) / 1000, failed);
    }
  };
}
