/** Registrations (stored payment details): the table, its part of migration 0001, and 0021. */
import { type Kysely, type Selectable, sql } from 'kysely';
import { createIndex, createTable, type EpochMs, type JsonText } from '../core/columns';

export interface RegistrationsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  payment_brand: string;
  card: JsonText | null;
  details: JsonText;
  initial_transaction_id: string | null;
  agreement_id: string | null;
  /** 0021: the merchantTransactionId its request carried (the Query API's search). */
  merchant_transaction_id: string | null;
  deleted_at: EpochMs | null;
  created_at: EpochMs;
}

export type RegistrationRow = Selectable<RegistrationsTable>;

/** 0001: registrations. */
export async function createRegistrationsTable(db: Kysely<unknown>): Promise<void> {
  await createTable(db, 'registrations', {
    id: 'text primary key',
    merchant_id: 'text not null',
    channel_id: 'text not null',
    payment_brand: 'text not null',
    card: 'text',
    details: 'text not null',
    initial_transaction_id: 'text',
    agreement_id: 'text',
    deleted_at: 'bigint',
    created_at: 'bigint not null',
  }).execute();
}

/**
 * 0021: registrations.merchant_transaction_id, for the Query API to find a registration by the
 * merchantTransactionId its request carried (an upstream gateway asked about an uncertain one), and
 * its index: partial like payments_merchant_transaction (0015), so a registration without one
 * writes no entry there; (created_at, id) after the value, the search's order.
 */
export async function registrationsMerchantTransactionMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').addColumn('merchant_transaction_id', 'text').execute();
  await createIndex(db, 'registrations_merchant_transaction', 'registrations', [
    'merchant_id',
    'merchant_transaction_id',
    'created_at',
    'id',
  ])
    .where(sql.ref('merchant_transaction_id'), 'is not', null)
    .execute();
}
