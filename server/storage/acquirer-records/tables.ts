/** The simulated acquirer's records: the table and its migration (0012). */
import type { Kysely, Migration } from 'kysely';
import type { EpochMs } from '../core/columns';

/**
 * What the acquirer reports for a merchant account's day beyond the gateway's own payments: a
 * payment whose transfer failed (payment_id set, status FAILED), or a transaction the acquirer
 * holds that no payment of the gateway is known for (payment_id null).
 */
export interface AcquirerRecordsTable {
  /** 32 lowercase hex: the acquirer's own reference of the record. */
  id: string;
  merchant_id: string;
  channel_id: string;
  /** The settlement day the acquirer reports it on, `yyyy-MM-dd` (UTC). */
  date: string;
  /** The gateway payment the record is about; null when the acquirer knows of none. */
  payment_id: string | null;
  /** SUCCESS or FAILED, as the acquirer settled it. */
  status: string;
  /** The gateway's two-letter payment type the record books (DB, CD, RF …). */
  payment_type: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  brand: string | null;
  merchant_transaction_id: string | null;
  /** When the acquirer took the transaction (TxRequestTime of a record without a payment). */
  created_at: EpochMs;
}

export const acquirerRecordsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('acquirer_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('payment_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('payment_type', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('brand', 'text')
      .addColumn('merchant_transaction_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('acquirer_records_day')
      .on('acquirer_records')
      .columns(['channel_id', 'date'])
      .execute();
    // one report per payment: a transfer fails once
    await db.schema
      .createIndex('acquirer_records_payment')
      .on('acquirer_records')
      .column('payment_id')
      .unique()
      .execute();
  },
};
