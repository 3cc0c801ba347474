/** Settlement runs, settlements and their records: the tables and their migrations (0006, 0016). */
import type { Kysely, Migration } from 'kysely';
import { createIndex, createTable } from '../core/columns';

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
    await createTable(db, 'settlement_runs', {
      channel_id: 'text not null',
      date: 'text not null',
      merchant_id: 'text not null',
      settlement_count: 'integer not null',
      record_count: 'integer not null',
      file_name: 'text',
      created_at: 'bigint not null',
    })
      .addPrimaryKeyConstraint('settlement_runs_pk', ['channel_id', 'date'])
      .execute();

    await createTable(db, 'settlements', {
      id: 'text primary key',
      merchant_id: 'text not null',
      channel_id: 'text not null',
      date: 'text not null',
      currency: 'text not null',
      status: 'text not null',
      record_count: 'integer not null',
      settled_count: 'integer not null',
      chargeback_count: 'integer not null',
      reversal_count: 'integer not null',
      fee_count: 'integer not null',
      positive_amount: 'bigint not null',
      negative_amount: 'bigint not null',
      fee_amount: 'bigint not null',
      created_at: 'bigint not null',
    }).execute();
    // One settlement per merchant account, day and currency; the reporting API lists by day.
    await createIndex(db, 'settlements_channel_day', 'settlements', ['channel_id', 'date', 'currency'])
      .unique()
      .execute();
    await createIndex(db, 'settlements_merchant_day', 'settlements', ['merchant_id', 'date']).execute();

    await createTable(db, 'settlement_records', {
      settlement_id: 'text not null',
      seq: 'integer not null',
      payment_id: 'text',
      record_type: 'text not null',
      request_time: 'bigint',
      record: 'text not null',
    })
      .addPrimaryKeyConstraint('settlement_records_pk', ['settlement_id', 'seq'])
      .execute();
  },
};

/**
 * 0016: the records of a settlement in the Reporting API's SettlementTxDate order (request time,
 * then the stored order), read a page at a time from a cursor: a detail answer streams a
 * settlement of any size without sorting it in memory.
 */
export async function settlementRecordsTimeIndex(db: Kysely<unknown>): Promise<void> {
  await createIndex(db, 'settlement_records_time', 'settlement_records', [
    'settlement_id',
    'request_time',
    'seq',
  ]).execute();
}
