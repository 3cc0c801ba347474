/**
 * The InboxStore port: the gateway's own webhook inbox. An inbox webhook's deliveries go through
 * the outbox and the dispatcher like any other, encrypted with the webhook's key; the dispatcher
 * decrypts them on receipt (server/webhooks/inbox.ts) and keeps them here, so the inbox holds
 * what a merchant's backend would have after decrypting. Test channels only (registration.ts).
 */
import type { StoreContext } from '../core/context';
import { date, int, ms, parseObject } from '../core/rows';

/** One received notification, decrypted: `{type, action?, payload}` as a receiver reads it. */
export interface InboxNotification {
  readonly seq: number;
  readonly merchantId: string;
  readonly webhookId: string;
  readonly receivedAt: Date;
  readonly type: string;
  readonly action?: string;
  readonly payload: Record<string, unknown>;
}

export interface InboxFilter {
  /** Only notifications of this type (PAYMENT, REGISTRATION, SCHEDULE, RISK, test). */
  readonly type?: string;
  /** Only notifications received after this one (its seq): the next page, or the next new ones. */
  readonly afterSeq?: number;
  readonly limit: number;
}

export interface InboxStore {
  receiveInInbox(notification: Omit<InboxNotification, 'seq'>): Promise<InboxNotification>;
  /** The merchant's inbox, oldest first. */
  listInbox(merchantId: string, filter: InboxFilter): Promise<InboxNotification[]>;
  /** Empties the merchant's inbox; resolves with how many notifications it held. */
  clearInbox(merchantId: string): Promise<number>;
}

export function inboxStore({ db, sealer }: StoreContext): InboxStore {
  return {
    async receiveInInbox(n) {
      const row = await db
        .insertInto('webhook_inbox')
        .values({
          merchant_id: n.merchantId,
          webhook_id: n.webhookId,
          received_at: ms(n.receivedAt),
          type: n.type,
          action: n.action ?? null,
          payload: JSON.stringify(sealer.seal(n.payload)),
        })
        .returning('seq')
        .executeTakeFirstOrThrow();
      return { ...n, seq: int(row.seq) };
    },

    async listInbox(merchantId, filter) {
      let query = db.selectFrom('webhook_inbox').selectAll().where('merchant_id', '=', merchantId);
      if (filter.type !== undefined) query = query.where('type', '=', filter.type);
      if (filter.afterSeq !== undefined) query = query.where('seq', '>', filter.afterSeq);
      const rows = await query.orderBy('seq').limit(filter.limit).execute();
      return rows.map((r) => ({
        seq: int(r.seq),
        merchantId: r.merchant_id,
        webhookId: r.webhook_id,
        receivedAt: date(r.received_at),
        type: r.type,
        ...(r.action === null ? {} : { action: r.action }),
        payload: sealer.open(parseObject(r.payload)),
      }));
    },

    async clearInbox(merchantId) {
      const result = await db
        .deleteFrom('webhook_inbox')
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
