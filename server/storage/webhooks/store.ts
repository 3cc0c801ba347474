/**
 * The WebhookStore port: a merchant's webhooks, and the outbox's deliveries as the dispatcher
 * claims and records them (compare-and-set per row) and the admin API lists and redelivers them.
 * The rows themselves are written by the changes' stores (outbox.ts).
 */
import type { NotificationAction, NotificationType } from '../../../shared/engine/core/notification';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { StoreContext } from '../core/context';
import { date, dateOrNull, int, type Mutable, ms, msOrNull, parseObject } from '../core/rows';
import type { Delivery, DeliveryStatus, Webhook, WebhookStore } from './model';
import type { WebhookDeliveryRow, WebhookRow } from './tables';

function rowToWebhook(r: WebhookRow): Webhook {
  const w: Mutable<Webhook> = {
    id: r.id,
    merchantId: r.merchant_id,
    url: r.url,
    secret: r.secret,
    encrypted: int(r.encrypted) === 1,
    types: JSON.parse(r.types) as NotificationType[],
    createdAt: date(r.created_at),
    deletedAt: dateOrNull(r.deleted_at),
  };
  if (r.payment_types !== null) w.paymentTypes = JSON.parse(r.payment_types) as string[];
  if (int(r.inbox) === 1) w.inbox = true;
  return w;
}

function rowToDelivery(r: WebhookDeliveryRow, sealer: AccountSealer): Delivery {
  const d: Mutable<Delivery> = {
    seq: int(r.seq),
    merchantId: r.merchant_id,
    orderKey: r.order_key,
    notification: {
      type: r.type as NotificationType,
      ...(r.action === null ? {} : { action: r.action as NotificationAction }),
      payload: sealer.open(parseObject(r.payload)),
    },
    status: r.status as DeliveryStatus,
    attempts: int(r.attempts),
    nextAttemptAt: dateOrNull(r.next_attempt_at),
    createdAt: date(r.created_at),
    retryFrom: date(r.retry_from),
    lastAttemptAt: dateOrNull(r.last_attempt_at),
    lastStatus: r.last_status === null ? null : int(r.last_status),
    lastError: r.last_error,
    deliveredAt: dateOrNull(r.delivered_at),
  };
  if (r.webhook_id !== null) d.webhookId = r.webhook_id;
  if (r.callback_url !== null) d.callbackUrl = r.callback_url;
  return d;
}

export function webhookStore(ctx: StoreContext): WebhookStore {
  return { ...webhookRegistry(ctx), ...deliveryQueue(ctx), ...deliveryLog(ctx) };
}

type WebhookRegistry = Pick<WebhookStore, 'insertWebhook' | 'getWebhook' | 'listWebhooks' | 'deleteWebhook'>;

function webhookRegistry({ db }: StoreContext): WebhookRegistry {
  return {
    async insertWebhook(w) {
      await db
        .insertInto('webhooks')
        .values({
          id: w.id,
          merchant_id: w.merchantId,
          url: w.url,
          secret: w.secret,
          encrypted: w.encrypted ? 1 : 0,
          types: JSON.stringify(w.types),
          payment_types: w.paymentTypes === undefined ? null : JSON.stringify(w.paymentTypes),
          created_at: ms(w.createdAt),
          deleted_at: msOrNull(w.deletedAt),
          inbox: w.inbox === true ? 1 : 0,
        })
        .execute();
    },

    async getWebhook(merchantId, id) {
      const row = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', id)
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return row && rowToWebhook(row);
    },

    async listWebhooks(merchantId) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('deleted_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(rowToWebhook);
    },

    async deleteWebhook(merchantId, id, at) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('webhooks')
          .set({ deleted_at: ms(at) })
          .where('id', '=', id)
          .where('merchant_id', '=', merchantId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        // Nowhere to send them any more; kept in the log, redeliverable if it comes back.
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'dead', next_attempt_at: null, last_error: 'webhook deleted' })
          .where('webhook_id', '=', id)
          .where('status', '=', 'pending')
          .execute();
        return true;
      });
    },
  };
}

/** What the dispatcher does with the outbox: claim due deliveries, record their attempts. */
function deliveryQueue({
  db,
  sealer,
}: StoreContext): Pick<WebhookStore, 'claimDeliveries' | 'recordAttempt' | 'releaseDelivery'> {
  const toDelivery = (r: WebhookDeliveryRow) => rowToDelivery(r, sealer);
  return {
    async claimDeliveries(now, leaseUntil, limit) {
      const due = await db
        .selectFrom('webhook_deliveries as d')
        .selectAll('d')
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', ms(now))
        // in order: only the oldest pending delivery of its target and key may go
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as e')
                .select('e.seq')
                .where('e.status', '=', 'pending')
                .whereRef('e.target', '=', 'd.target')
                .whereRef('e.order_key', '=', 'd.order_key')
                .whereRef('e.seq', '<', 'd.seq'),
            ),
          ),
        )
        .orderBy('d.next_attempt_at')
        .orderBy('d.seq')
        .limit(limit)
        .execute();
      const claimed: Delivery[] = [];
      for (const row of due) {
        // Compare-and-set on the due time just read: exactly one of several dispatchers wins it.
        const result = await db
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: ms(leaseUntil), attempts: int(row.attempts) + 1, last_attempt_at: ms(now) })
          .where('seq', '=', row.seq)
          .where('status', '=', 'pending')
          .where('next_attempt_at', '=', row.next_attempt_at)
          .where('attempts', '=', row.attempts)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n)
          claimed.push(
            toDelivery({
              ...row,
              next_attempt_at: ms(leaseUntil),
              attempts: int(row.attempts) + 1,
              last_attempt_at: ms(now),
            }),
          );
      }
      return claimed;
    },

    async recordAttempt(claimed, result) {
      const outcome = result.delivered
        ? {
            status: 'delivered',
            next_attempt_at: null,
            delivered_at: ms(result.at),
            last_status: result.status,
            last_error: null,
          }
        : {
            status: result.retryAt === undefined ? 'dead' : 'pending',
            next_attempt_at: result.retryAt === undefined ? null : ms(result.retryAt),
            last_status: result.status ?? null,
            last_error: result.error.slice(0, 500),
          };
      const updated = await db
        .updateTable('webhook_deliveries')
        .set(outcome)
        .where('seq', '=', claimed.seq)
        .where('status', '=', 'pending')
        .where('attempts', '=', claimed.attempts)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },
    async releaseDelivery(claimed, at) {
      const released = await db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: ms(at), attempts: claimed.attempts - 1 })
        .where('seq', '=', claimed.seq)
        .where('status', '=', 'pending')
        .where('attempts', '=', claimed.attempts)
        .executeTakeFirst();
      return released.numUpdatedRows > 0n;
    },
  };
}

/** The delivery log of the admin API and the CLI. */
function deliveryLog({
  db,
  sealer,
}: StoreContext): Pick<WebhookStore, 'getDelivery' | 'listDeliveries' | 'redeliver'> {
  const toDelivery = (r: WebhookDeliveryRow) => rowToDelivery(r, sealer);
  return {
    async getDelivery(merchantId, seq) {
      const row = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('seq', '=', seq)
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return row && toDelivery(row);
    },

    async listDeliveries(merchantId, filter) {
      let query = db.selectFrom('webhook_deliveries').selectAll().where('merchant_id', '=', merchantId);
      if (filter.webhookId !== undefined) query = query.where('webhook_id', '=', filter.webhookId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
      if (filter.orderKey !== undefined) query = query.where('order_key', '=', filter.orderKey);
      if (filter.type !== undefined) query = query.where('type', '=', filter.type);
      const rows = await query.orderBy('seq', 'desc').limit(filter.limit).execute();
      return rows.map(toDelivery);
    },

    async redeliver(merchantId, seq, now) {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: ms(now), retry_from: ms(now) })
        .where('seq', '=', seq)
        .where('merchant_id', '=', merchantId)
        // a pending one is in the dispatcher's hands already
        .where('status', '!=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
