/** Registrations (stored payment details): the table and its part of migration 0001. */
import type { Kysely, Selectable } from 'kysely';
import type { EpochMs, JsonText } from '../core/columns';

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
  await db.schema
    .createTable('registrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('payment_brand', 'text', (c) => c.notNull())
    .addColumn('card', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('initial_transaction_id', 'text')
    .addColumn('agreement_id', 'text')
    .addColumn('deleted_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
