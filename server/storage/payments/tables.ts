/** Payments: the table, and its part of migrations 0001, 0004, 0013 and 0015 (the list is migrations.ts). */
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { createIndex, createTable, type EpochMs, type JsonText } from '../core/columns';

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
  await createTable(db, 'payments', {
    id: 'text primary key',
    merchant_id: 'text not null',
    channel_id: 'text not null',
    payment_type: 'text not null',
    payment_brand: 'text',
    amount: 'bigint',
    currency: 'text',
    result_code: 'text not null',
    result_description: 'text not null',
    referenced_id: 'text',
    registration_id: 'text',
    merchant_transaction_id: 'text',
    short_id: 'text not null',
    descriptor: 'text',
    ndc: 'text not null',
    test_mode: 'text',
    card: 'text',
    details: 'text not null',
    created_at: 'bigint not null',
  }).execute();
  await createIndex(db, 'payments_referenced', 'payments', ['merchant_id', 'referenced_id']).execute();
  await createIndex(db, 'payments_merchant_transaction', 'payments', [
    'merchant_id',
    'merchant_transaction_id',
  ]).execute();
  await createIndex(db, 'payments_created', 'payments', ['merchant_id', 'created_at']).execute();
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

/**
 * 0015: the indexes of references and of merchantTransactionId hold only the payments that have
 * one. Most payments have neither (every initial payment lacks a referenced_id), and each index
 * entry is written, and its page synced, in the create's transaction. Their readers all ask for
 * a value (`= ?`, `IN (…)`), which implies NOT NULL: both databases use a partial index for that.
 * They end in (created_at, id), the readers' order: without it SQLite's planner (no statistics)
 * preferred payments_created, scanning every payment of the merchant and sorting.
 */
export async function partialPaymentIndexes(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of [
    ['payments_referenced', 'referenced_id'],
    ['payments_merchant_transaction', 'merchant_transaction_id'],
  ] as const) {
    await db.schema.dropIndex(name).execute();
    await createIndex(db, name, 'payments', ['merchant_id', column, 'created_at', 'id'])
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
}
