/** Pending payments' sessions: the table and its migration (0003). */
import { type Kysely, type Migration, type Selectable, sql } from 'kysely';
import type { EpochMs, JsonText } from '../core/columns';

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
    await db.schema
      .createTable('payment_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('payment_id', 'text', (c) => c.notNull())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('checkout_id', 'text')
      .addColumn('return_url', 'text')
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('due_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      .addColumn('outcome', 'text')
      .execute();
    await db.schema
      .createIndex('payment_sessions_payment')
      .on('payment_sessions')
      .column('payment_id')
      .execute();
    // The worker's poll: only open sessions, so the index stays small however many have finished.
    await db.schema
      .createIndex('payment_sessions_due')
      .on('payment_sessions')
      .column('due_at')
      .where(sql.ref('finished_at'), 'is', null)
      .execute();
  },
};
