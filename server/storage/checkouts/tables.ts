/** Checkouts: the table and its migration (0002). */
import { type Generated, type Kysely, type Migration, type Selectable, sql } from 'kysely';
import { createIndex, createTable, type EpochMs, type JsonText } from '../core/columns';

export interface CheckoutsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  /** CheckoutKind: 'payment' or 'registration'. */
  kind: string;
  /** The validated creation parameters as JSON (no credentials, no instrument; account numbers sealed). */
  parameters: JsonText;
  /** Minor units. */
  amount: number;
  currency: string;
  shopper_result_url: string | null;
  created_at: EpochMs;
  expires_at: EpochMs;
  payment_id: string | null;
  registration_id: string | null;
  result_code: string | null;
  submitted_at: EpochMs | null;
  completed_at: EpochMs | null;
  status_fetched_at: EpochMs | null;
  notify_due_at: EpochMs | null;
  notify_attempts: Generated<number>;
  notified_at: EpochMs | null;
}

export type CheckoutRow = Selectable<CheckoutsTable>;

/**
 * Checkouts (issue 4): the merchant's parameters waiting for the widget's submission, and the
 * state of the shopperResultUrl notification, kept here so that a restart (or another process
 * on the same PostgreSQL) picks it up.
 */
export const checkoutsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createTable(db, 'checkouts', {
      id: 'text primary key',
      merchant_id: 'text not null',
      channel_id: 'text not null',
      kind: 'text not null',
      parameters: 'text not null',
      amount: 'bigint not null',
      currency: 'text not null',
      shopper_result_url: 'text',
      created_at: 'bigint not null',
      expires_at: 'bigint not null',
      payment_id: 'text',
      registration_id: 'text',
      result_code: 'text',
      submitted_at: 'bigint',
      completed_at: 'bigint',
      status_fetched_at: 'bigint',
      notify_due_at: 'bigint',
    })
      .addColumn('notify_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('notified_at', 'bigint')
      .execute();
    // The notifier's poll: only checkouts still to notify, so the index stays small however many
    // checkouts were notified or never submitted (both databases support partial indexes).
    await createIndex(db, 'checkouts_notify_due', 'checkouts', ['notify_due_at'])
      .where(sql.ref('notified_at'), 'is', null)
      .execute();
    await createIndex(db, 'checkouts_merchant', 'checkouts', ['merchant_id', 'created_at']).execute();
  },
};
