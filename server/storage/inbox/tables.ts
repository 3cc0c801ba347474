/** The webhook inbox (0014): what an inbox webhook received, decrypted, as a merchant's backend would hold it. */
import type { Generated, Kysely, Selectable } from 'kysely';
import { ascendingKey, type EpochMs, type JsonText } from '../core/columns';

export interface WebhookInboxTable {
  /** Ascending in the order notifications arrived: `after=` pages on it. */
  seq: Generated<number>;
  merchant_id: string;
  webhook_id: string;
  received_at: EpochMs;
  /** PAYMENT, REGISTRATION, SCHEDULE, RISK, or `test` (the registration's test notification). */
  type: string;
  action: string | null;
  /** The decrypted notification's payload as JSON, account numbers sealed like every stored document. */
  payload: JsonText;
}

export type InboxRow = Selectable<WebhookInboxTable>;

/** 0014 (its part): the webhook_inbox table, read per merchant in arrival order. */
export async function createInboxTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_inbox')
    .addColumn('seq', ...ascendingKey(db))
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_inbox_merchant')
    .on('webhook_inbox')
    .columns(['merchant_id', 'seq'])
    .execute();
}
