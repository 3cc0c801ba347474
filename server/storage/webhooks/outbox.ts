/**
 * The outbox: the notification rows a change leaves, built and inserted in the transaction of the
 * change. One row per target that wants it — each of the merchant's webhooks that takes the
 * notification's type (and, for payments, its payment type), and the payment's own
 * notificationUrl callback. The payload is rendered now, by the Change the engine handed in with
 * the change (shared/engine/answers/notifications.ts), and its account numbers sealed: the store
 * opens them when the dispatcher reads the row. Every store module that writes a change a merchant is told about (payments, sessions, registrations,
 * schedules) goes through here; server/webhooks only delivers what is written.
 */
import type { Kysely } from 'kysely';
import type { Change } from '../../../shared/engine/core/notification';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { Database } from '../core/database';
import { insertAll } from '../core/rows';
import type { NewWebhookDeliveryRow, WebhookRow } from './tables';

/** The outbox columns the SQLite hot path binds, in a fixed order (seq is assigned by the database). */
export const DELIVERY_COLUMNS = [
  'merchant_id',
  'webhook_id',
  'callback_url',
  'target',
  'order_key',
  'type',
  'action',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'created_at',
  'retry_from',
  'last_attempt_at',
  'last_status',
  'last_error',
  'delivered_at',
] as const satisfies readonly (keyof NewWebhookDeliveryRow)[];

/** A webhook as the outbox reads it. */
export type WebhookHookRow = Pick<WebhookRow, 'id' | 'merchant_id' | 'types' | 'payment_types'>;

/** The target of notificationUrl callbacks in the in-order check (webhooks use their id). */
export const CALLBACK_TARGET = 'callback';

/** Does the webhook take this change? */
export function wants(webhook: Pick<WebhookRow, 'types' | 'payment_types'>, change: Change): boolean {
  const types = JSON.parse(webhook.types) as string[];
  if (!types.includes(change.type)) return false;
  if (webhook.payment_types === null || change.paymentType === undefined) return true;
  return (JSON.parse(webhook.payment_types) as string[]).includes(change.paymentType);
}

export function outboxRows(
  change: Change,
  webhooks: readonly WebhookHookRow[],
  sealer: Pick<AccountSealer, 'seal'>,
): NewWebhookDeliveryRow[] {
  const targets: [target: string, webhookId: string | null, callbackUrl: string | null][] = webhooks
    .filter((w) => w.merchant_id === change.merchantId && wants(w, change))
    .map((w) => [w.id, w.id, null]);
  if (change.callbackUrl !== undefined) targets.push([CALLBACK_TARGET, null, change.callbackUrl]);
  if (targets.length === 0) return [];
  const at = change.at.getTime();
  const { type, action, payload } = change.notification();
  const json = JSON.stringify(sealer.seal(payload));
  return targets.map(([target, webhookId, callbackUrl]) => ({
    merchant_id: change.merchantId,
    webhook_id: webhookId,
    callback_url: callbackUrl,
    target,
    order_key: change.orderKey,
    type,
    action: action ?? null,
    payload: json,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
    retry_from: at,
    last_attempt_at: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
  }));
}

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
