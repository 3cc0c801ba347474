/**
 * The outbox rows a change leaves: one per target that wants it — each of the merchant's
 * webhooks that takes the notification's type (and, for payments, its payment type), and the
 * payment's own notificationUrl callback. Written by storage in the change's transaction, the
 * payload's account numbers sealed (server/security/account-data.ts): the store opens them when
 * the dispatcher reads the row.
 */
import type { Change } from '../../shared/engine/answers/notifications';
import type { AccountSealer } from '../security/account-data';
import type { NewWebhookDeliveryRow, WebhookRow } from '../storage/schema';

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
  webhooks: readonly Pick<WebhookRow, 'id' | 'merchant_id' | 'types' | 'payment_types'>[],
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
