/** Settlement runs, settlements and their records: the tables and their migration (0006). */
import type { Kysely, Migration } from 'kysely';

export interface SettlementRunsTable {
  channel_id: string;
  /** The settled day, `yyyy-MM-dd` (UTC). */
  date: string;
  merchant_id: string;
  /** How many settlements (currencies) the day produced; 0 for a day without transactions. */
  settlement_count: number;
  record_count: number;
  /** The reconciliation file's name in the merchant's folder, null when the day had no records. */
  file_name: string | null;
  created_at: number;
}

export interface SettlementsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  date: string;
  currency: string;
  /** SUCCESS when every record settled, else FAILED. */
  status: string;
  record_count: number;
  settled_count: number;
  chargeback_count: number;
  reversal_count: number;
  fee_count: number;
  /** Σ settlement amounts of POS records, minor units of `currency`. */
  positive_amount: number;
  /** Σ settlement amounts of NEG records (FEE records included). */
  negative_amount: number;
  /** Σ settlement amounts of FEE records (a part of negative_amount). */
  fee_amount: number;
  created_at: number;
}

export interface SettlementRecordsTable {
  settlement_id: string;
  /** 0, 1, … in the order settle() gave them (request time, then payment id; a FEE after its record). */
  seq: number;
  payment_id: string | null;
  record_type: string;
  /** The payment's request time, epoch ms (null when unknown). */
  request_time: number | null;
  /** StoredRecordJson. */
  record: string;
}

export const settlementsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('settlement_runs')
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('settlement_count', 'integer', (c) => c.notNull())
      .addColumn('record_count', 'integer', (c) => c.notNull())
      .addColumn('file_name', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('settlement_runs_pk', ['channel_id', 'date'])
      .execute();

    await db.schema
      .createTable('settlements')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('record_count', 'integer', (c) => c.notNull())
      .addColumn('settled_count', 'integer', (c) => c.notNull())
      .addColumn('chargeback_count', 'integer', (c) => c.notNull())
      .addColumn('reversal_count', 'integer', (c) => c.notNull())
      .addColumn('fee_count', 'integer', (c) => c.notNull())
      .addColumn('positive_amount', 'bigint', (c) => c.notNull())
      .addColumn('negative_amount', 'bigint', (c) => c.notNull())
      .addColumn('fee_amount', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // One settlement per merchant account, day and currency; the reporting API lists by day.
    await db.schema
      .createIndex('settlements_channel_day')
      .on('settlements')
      .columns(['channel_id', 'date', 'currency'])
      .unique()
      .execute();
    await db.schema
      .createIndex('settlements_merchant_day')
      .on('settlements')
      .columns(['merchant_id', 'date'])
      .execute();

    await db.schema
      .createTable('settlement_records')
      .addColumn('settlement_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('payment_id', 'text')
      .addColumn('record_type', 'text', (c) => c.notNull())
      .addColumn('request_time', 'bigint')
      .addColumn('record', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('settlement_records_pk', ['settlement_id', 'seq'])
      .execute();
  },
};
