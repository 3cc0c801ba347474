/**
 * Writing the outbox (server/webhooks): the notification rows a change leaves, inserted in the
 * transaction of the change. Every store module that writes a change a merchant is told about
 * (payments, registrations, schedules, risk) goes through here.
 */
import type { Kysely } from 'kysely';
import type { Change } from '../../shared/engine/notifications';
import { outboxRows } from '../webhooks/outbox';
import type { Database, NewWebhookDeliveryRow } from './schema';

/** Rows per INSERT statement: 17 columns × 1,000 stays far below both databases' parameter limits. */
const ROWS_PER_STATEMENT = 1000;

/** The merchants' live webhooks, as the outbox needs them. */
export async function webhooksOf(db: Kysely<Database>, merchantIds: readonly string[]) {
  if (merchantIds.length === 0) return [];
  return db
    .selectFrom('webhooks')
    .select(['id', 'merchant_id', 'types', 'payment_types'])
    .where('merchant_id', 'in', [...merchantIds])
    .where('deleted_at', 'is', null)
    .execute();
}

/** Outbox rows of some changes: for the merchants' webhooks as they are now, and callbacks. */
export async function outboxOf(
  db: Kysely<Database>,
  changes: readonly Change[],
): Promise<NewWebhookDeliveryRow[]> {
  const hooks = await webhooksOf(db, [...new Set(changes.map((c) => c.merchantId))]);
  return changes.flatMap((change) => outboxRows(change, hooks));
}

export async function insertOutbox(
  trx: Kysely<Database>,
  rows: readonly NewWebhookDeliveryRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    await trx
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + ROWS_PER_STATEMENT))
      .execute();
}

/** Outbox rows of some changes, in the caller's transaction. */
export async function writeOutbox(trx: Kysely<Database>, changes: readonly Change[]): Promise<void> {
  await insertOutbox(trx, await outboxOf(trx, changes));
}
