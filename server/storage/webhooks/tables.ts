/** Webhooks and the outbox (webhook_deliveries): the tables, and their part of migration 0004. */
import { type Generated, type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { ascendingKey, type EpochMs, type JsonText } from '../core/columns';

/** A merchant's webhook (0004): where notifications go, and how. */
export interface WebhooksTable {
  id: string;
  merchant_id: string;
  url: string;
  /** The 64-hex key, sealed by the vault (it must be read back to encrypt with it). */
  secret: string;
  /** 1: AES-256-GCM (the default); 0: plain JSON. */
  encrypted: number;
  /** NotificationType[] as JSON. */
  types: JsonText;
  /** string[] as JSON, or null for every payment type. */
  payment_types: JsonText | null;
  created_at: EpochMs;
  deleted_at: EpochMs | null;
}

/**
 * The transactional outbox (0004): one row per notification and target, written in the
 * transaction of the change it tells; the dispatcher's delivery state lives on the same row.
 */
export interface WebhookDeliveriesTable {
  /** Ascending in the order the changes were committed (for changes that depend on each other). */
  seq: Generated<number>;
  merchant_id: string;
  /** The webhook, or null for a notificationUrl callback. */
  webhook_id: string | null;
  /** The GET of a notificationUrl callback (null for webhooks). */
  callback_url: string | null;
  /** Webhook id, or `callback`: deliveries are ordered per target and order_key. */
  target: string;
  order_key: string;
  type: string;
  action: string | null;
  /** The notification's payload as JSON, account numbers sealed (the store opens them for the dispatcher). */
  payload: JsonText;
  /** pending, delivered or dead. */
  status: string;
  attempts: number;
  /** Due time while pending (a claim moves it to the end of its lease); null otherwise. */
  next_attempt_at: EpochMs | null;
  created_at: EpochMs;
  /** Start of the retry schedule: created_at, or the last redelivery. */
  retry_from: EpochMs;
  last_attempt_at: EpochMs | null;
  /** HTTP status of the last attempt, when one came back. */
  last_status: number | null;
  last_error: string | null;
  delivered_at: EpochMs | null;
}

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDeliveryRow = Insertable<WebhookDeliveriesTable>;

/** 0004 (second part): webhooks and webhook_deliveries, with the indexes of the dispatcher and the log. */
export async function createWebhookTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('encrypted', 'integer', (c) => c.notNull())
    .addColumn('types', 'text', (c) => c.notNull())
    .addColumn('payment_types', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('webhooks_merchant')
    .on('webhooks')
    .columns(['merchant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('seq', ...ascendingKey(db))
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('order_key', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retry_from', 'bigint', (c) => c.notNull())
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .execute();
  // The dispatcher's poll and its in-order check see pending rows only.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_order')
    .on('webhook_deliveries')
    .columns(['target', 'order_key', 'seq'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // The delivery log.
  await db.schema
    .createIndex('webhook_deliveries_merchant')
    .on('webhook_deliveries')
    .columns(['merchant_id', 'seq'])
    .execute();
}

/** 0013 (part): a payment's deliveries for the administration's payment page. */
export async function addDeliveriesByOrderKeyIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_order_key')
    .on('webhook_deliveries')
    .columns(['merchant_id', 'order_key', 'seq'])
    .execute();
}
