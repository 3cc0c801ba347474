/** Payments: the table, and its part of migrations 0001 and 0004 (the list is migrations.ts). */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { EpochMs, JsonText } from '../core/columns';

export interface PaymentsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  payment_type: string;
  payment_brand: string | null;
  /** Minor units; null for requests without an amount. */
  amount: number | null;
  currency: string | null;
  result_code: string;
  result_description: string;
  referenced_id: string | null;
  registration_id: string | null;
  merchant_transaction_id: string | null;
  short_id: string;
  descriptor: string | null;
  ndc: string;
  test_mode: string | null;
  /** StoredCard as JSON (the number only encrypted). */
  card: JsonText | null;
  /** The answer's other fields as JSON, account numbers sealed (shared/sealing/account-data.ts). */
  details: JsonText;
  created_at: EpochMs;
  /** The checkout whose submission made the payment (0004). */
  checkout_id?: string | null;
}

export type PaymentRow = Selectable<PaymentsTable>;
export type NewPaymentRow = Insertable<PaymentsTable>;

/** 0001: payments and the indexes of references, merchantTransactionId and the query API. */
export async function createPaymentsTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('payment_type', 'text', (c) => c.notNull())
    .addColumn('payment_brand', 'text')
    .addColumn('amount', 'bigint')
    .addColumn('currency', 'text')
    .addColumn('result_code', 'text', (c) => c.notNull())
    .addColumn('result_description', 'text', (c) => c.notNull())
    .addColumn('referenced_id', 'text')
    .addColumn('registration_id', 'text')
    .addColumn('merchant_transaction_id', 'text')
    .addColumn('short_id', 'text', (c) => c.notNull())
    .addColumn('descriptor', 'text')
    .addColumn('ndc', 'text', (c) => c.notNull())
    .addColumn('test_mode', 'text')
    .addColumn('card', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payments_referenced')
    .on('payments')
    .columns(['merchant_id', 'referenced_id'])
    .execute();
  await db.schema
    .createIndex('payments_merchant_transaction')
    .on('payments')
    .columns(['merchant_id', 'merchant_transaction_id'])
    .execute();
  await db.schema
    .createIndex('payments_created')
    .on('payments')
    .columns(['merchant_id', 'created_at'])
    .execute();
}

/** 0004 (first part): the checkout whose submission made a payment. */
export async function addPaymentsCheckoutColumn(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('checkout_id', 'text').execute();
}

/**
 * 0013 (part): the administration's payments list, newest first per merchant and channel (the
 * environment is a set of channels), after a (created_at, id) cursor: one range scan per channel.
 */
export async function addPaymentsListIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('payments_channel_created')
    .on('payments')
    .columns(['merchant_id', 'channel_id', 'created_at', 'id'])
    .execute();
}
