/**
 * The simulated acquirer's records (migration 0012): what the acquirer reports for a merchant
 * account's day beyond the gateway's payments, which the settlement run reconciles against
 * (server/reporting/settlement-run/): a failed transfer settles FAILED, a record no payment
 * matches is NOT_MATCHED. Written by the acquirer simulator's routes
 * (server/http/routes/simulators/acquirer-records.ts).
 */
import type { Kysely } from 'kysely';
import type { Minor } from '../../../shared/money';
import type { Database } from '../core/database';
import { date, int } from '../core/rows';
import type { AcquirerRecordsTable } from './tables';

export type AcquirerRecordStatus = 'SUCCESS' | 'FAILED';

export interface AcquirerRecord {
  /** 32 lowercase hex: the acquirer's reference. */
  readonly id: string;
  readonly merchantId: string;
  readonly channelId: string;
  /** The settlement day, `yyyy-MM-dd`. */
  readonly date: string;
  /** The gateway payment it reports on; absent when the acquirer knows of none. */
  readonly paymentId?: string;
  readonly status: AcquirerRecordStatus;
  readonly paymentType: string;
  readonly amount: Minor;
  readonly currency: string;
  readonly brand?: string;
  readonly merchantTransactionId?: string;
  readonly createdAt: Date;
}

export interface AcquirerRecordStore {
  /**
   * Stores a record; false, and nothing written, when the payment has a record already (the
   * acquirer reports a payment once).
   */
  insertAcquirerRecord(record: AcquirerRecord): Promise<boolean>;
  /** The record of a payment, if the acquirer reported one. */
  getAcquirerRecordOfPayment(paymentId: string): Promise<AcquirerRecord | undefined>;
  /** A merchant account's records of a day, oldest first. */
  listAcquirerRecords(channelId: string, date: string): Promise<AcquirerRecord[]>;
}

function toRow(r: AcquirerRecord): AcquirerRecordsTable {
  return {
    id: r.id,
    merchant_id: r.merchantId,
    channel_id: r.channelId,
    date: r.date,
    payment_id: r.paymentId ?? null,
    status: r.status,
    payment_type: r.paymentType,
    amount: r.amount,
    currency: r.currency,
    brand: r.brand ?? null,
    merchant_transaction_id: r.merchantTransactionId ?? null,
    created_at: r.createdAt.getTime(),
  };
}

function fromRow(r: AcquirerRecordsTable): AcquirerRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    date: r.date,
    ...(r.payment_id === null ? {} : { paymentId: r.payment_id }),
    status: r.status as AcquirerRecordStatus,
    paymentType: r.payment_type,
    amount: int(r.amount) as Minor,
    currency: r.currency,
    ...(r.brand === null ? {} : { brand: r.brand }),
    ...(r.merchant_transaction_id === null ? {} : { merchantTransactionId: r.merchant_transaction_id }),
    createdAt: date(r.created_at),
  };
}

export function acquirerRecordStore(db: Kysely<Database>): AcquirerRecordStore {
  return {
    async insertAcquirerRecord(record) {
      const inserted = await db
        .insertInto('acquirer_records')
        .values(toRow(record))
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async getAcquirerRecordOfPayment(paymentId) {
      const row = await db
        .selectFrom('acquirer_records')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .executeTakeFirst();
      return row && fromRow(row);
    },

    async listAcquirerRecords(channelId, day) {
      const rows = await db
        .selectFrom('acquirer_records')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('date', '=', day)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(fromRow);
    },
  };
}
