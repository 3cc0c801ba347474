/** Pending payments' sessions: the table and its migration (0003). */
import { type Kysely, type Migration, type Selectable, sql } from 'kysely';
import { createIndex, createTable, type EpochMs, type JsonText } from '../core/columns';

export interface PaymentSessionsTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  /** PaymentSessionKind: challenge, app, decoupled or redirect. */
  kind: string;
  checkout_id: string | null;
  return_url: string | null;
  /** PendingPlan as JSON (never card data). */
  plan: JsonText;
  created_at: EpochMs;
  expires_at: EpochMs;
  due_at: EpochMs | null;
  finished_at: EpochMs | null;
  /** SessionOutcome once finished. */
  outcome: string | null;
}

export type PaymentSessionRow = Selectable<PaymentSessionsTable>;

/** 0003: payment_sessions. */
export const paymentSessionsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createTable(db, 'payment_sessions', {
      id: 'text primary key',
      payment_id: 'text not null',
      merchant_id: 'text not null',
      kind: 'text not null',
      checkout_id: 'text',
      return_url: 'text',
      plan: 'text not null',
      created_at: 'bigint not null',
      expires_at: 'bigint not null',
      due_at: 'bigint',
      finished_at: 'bigint',
      outcome: 'text',
    }).execute();
    await createIndex(db, 'payment_sessions_payment', 'payment_sessions', ['payment_id']).execute();
    // The worker's poll: only open sessions, so the index stays small however many have finished.
    await createIndex(db, 'payment_sessions_due', 'payment_sessions', ['due_at'])
      .where(sql.ref('finished_at'), 'is', null)
      .execute();
  },
};
