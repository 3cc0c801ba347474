/** Risk events (the velocity history): the table and its migration (0007). */
import type { Generated, Kysely, Migration } from 'kysely';
import { ascendingKey, type EpochMs } from '../core/columns';

export interface RiskEventsTable {
  /** Ascending id (SQLite rowid alias, PostgreSQL bigserial). */
  seq: Generated<number>;
  merchant_id: string;
  channel_id: string;
  /** card, email or ip. */
  kind: string;
  /** A card fingerprint or the HMAC of an e-mail address or IP (hex). */
  value: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  created_at: EpochMs;
}

export const riskMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('risk_events')
      .addColumn('seq', ...ascendingKey(db))
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Velocity: the events of one key on one channel since a time.
    await db.schema
      .createIndex('risk_events_key')
      .on('risk_events')
      .columns(['kind', 'value', 'channel_id', 'created_at'])
      .execute();
  },
};
