/**
 * Writing the outbox (server/webhooks): the notification rows a change leaves, inserted in the
 * transaction of the change. Every store module that writes a change a merchant is told about
 * (payments, registrations, schedules, risk) goes through here.
 */
import type { Kysely } from 'kysely';
import type { Change } from '../../shared/engine/answers/notifications';
import type { AccountSealer } from '../security/account-data';
import { outboxRows } from '../webhooks/outbox';
import { insertAll } from './rows';
import type { Database, NewWebhookDeliveryRow } from './schema';

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

/**
 * Outbox rows of some changes: for the merchants' webhooks as they are now, and callbacks. The
 * payloads' account numbers are sealed (the dispatcher's store opens them).
 */
export async function outboxOf(
  db: Kysely<Database>,
  changes: readonly Change[],
  sealer: Pick<AccountSealer, 'seal'>,
): Promise<NewWebhookDeliveryRow[]> {
  const hooks = await webhooksOf(db, [...new Set(changes.map((c) => c.merchantId))]);
  return changes.flatMap((change) => outboxRows(change, hooks, sealer));
}

/** Outbox rows of some changes, in the caller's transaction. */
export async function writeOutbox(
  trx: Kysely<Database>,
  changes: readonly Change[],
  sealer: Pick<AccountSealer, 'seal'>,
): Promise<void> {
  await insertAll(trx, 'webhook_deliveries', await outboxOf(trx, changes, sealer));
}
