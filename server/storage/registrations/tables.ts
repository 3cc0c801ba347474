/** Registrations (stored payment details): the table and its part of migration 0001. */
import type { Kysely, Selectable } from 'kysely';
import { createTable, type EpochMs, type JsonText } from '../core/columns';

export interface RegistrationsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  payment_brand: string;
  card: JsonText | null;
  details: JsonText;
  initial_transaction_id: string | null;
  agreement_id: string | null;
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
