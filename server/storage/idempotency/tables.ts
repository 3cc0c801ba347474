/** Idempotency-Key responses and claims: the table, its part of 0001, and 0008. */
import type { Insertable, Kysely, Migration, Selectable } from 'kysely';
import { createTable, type EpochMs } from '../core/columns';

export interface IdempotentResponsesTable {
  merchant_id: string;
  key: string;
  request_hash: string;
  /** 0 (CLAIMED): the key is taken by payment_id, the response is not stored yet. */
  status: number;
  /** The response sealed by the vault (plain JSON in rows written before 0008); '' while claimed. */
  body: string;
  created_at: EpochMs;
  /** The payment that took the key, written in its transaction (0008). */
  payment_id: string | null;
  /** The schedule that took the key, written in its transaction (0008). */
  schedule_id: string | null;
}

export type IdempotentResponseRow = Selectable<IdempotentResponsesTable>;
export type NewIdempotentResponseRow = Insertable<IdempotentResponsesTable>;

/** 0001: idempotent_responses. */
export async function createIdempotencyTable(db: Kysely<unknown>): Promise<void> {
  await createTable(db, 'idempotent_responses', {
    merchant_id: 'text not null',
    key: 'text not null',
    request_hash: 'text not null',
    status: 'integer not null',
    body: 'text not null',
    created_at: 'bigint not null',
  })
    .addPrimaryKeyConstraint('idempotent_responses_pk', ['merchant_id', 'key'])
    .execute();
}

/**
 * Idempotency-Key claims (claims.ts): the payment or schedule that took a key, written
 * in its own transaction; its response (status, body) follows once answered.
 */
export const idempotencyClaimsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('idempotent_responses').addColumn('payment_id', 'text').execute();
    await db.schema.alterTable('idempotent_responses').addColumn('schedule_id', 'text').execute();
  },
};
