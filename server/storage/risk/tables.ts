/** Risk events (the velocity history): the table and its migration (0007). */
import type { Generated, Kysely, Migration } from 'kysely';
import { createIndex, createTable, type EpochMs } from '../core/columns';

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
    await createTable(db, 'risk_events', {
      seq: 'ascending key',
      merchant_id: 'text not null',
      channel_id: 'text not null',
      kind: 'text not null',
      value: 'text not null',
      amount: 'bigint not null',
      currency: 'text not null',
      created_at: 'bigint not null',
    }).execute();
    // Velocity: the events of one key on one channel since a time.
    await createIndex(db, 'risk_events_key', 'risk_events', [
      'kind',
      'value',
      'channel_id',
      'created_at',
    ]).execute();
  },
};
