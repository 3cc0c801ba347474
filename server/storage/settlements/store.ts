/**
 * Storage of settlement runs, their records and reconciliation files: migration 0006 and the
 * SettlementStore, over the same Kysely database as the rest of the store.
 *
 * - `settlement_runs`: one row per merchant account (channel) and day that has been settled,
 *   primary key (channel_id, date). It is what makes a run idempotent: the run row and the day's
 *   settlements are written in one transaction, and a second run of the same day finds the row and
 *   writes nothing (an INSERT … ON CONFLICT DO NOTHING decides between concurrent runs).
 * - `settlements`: one per merchant account, day and settlement currency (an "aggregation" of the
 *   reporting API): id (32 hex), status, counts and totals in minor units of its currency.
 * - `settlement_records`: the reconciliation records of a settlement, in their order (`seq`), each
 *   as JSON (`SettlementRecord`, the request time as epoch ms) with the merchant's reference.
 *
 * Days are `yyyy-MM-dd` text: they compare and sort as text in both databases.
 */
import type { Kysely } from 'kysely';
import type { Payment } from '../../../shared/engine/core/model';
import type { Minor } from '../../../shared/money';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { SettlementRecord, SettlementStatus } from '../../../shared/settlement';
import type { Database } from '../core/database';
import { date, insertAll, int } from '../core/rows';
import { type DayPaymentsQuery, dayPaymentsPage } from './day-payments';
import { recordsByTime } from './record-order';
import type { StagedRecords } from './staged';
import type { SettlementRecordsTable, SettlementRunsTable, SettlementsTable } from './tables';

/** Records read or copied at once: a day of any size is moved a page at a time. */
const RECORD_PAGE = 1000;

// ---------------------------------------------------------------------------------------------
// Records

/** A settlement run: a merchant account's day, settled once. */
export interface SettlementRun {
  readonly channelId: string;
  readonly date: string;
  readonly merchantId: string;
  readonly settlementCount: number;
  readonly recordCount: number;
  readonly fileName?: string;
  readonly createdAt: Date;
}

/** One settlement (an aggregation): a merchant account's day in one settlement currency. */
export interface Settlement {
  /** 32 lowercase hex. */
  readonly id: string;
  readonly merchantId: string;
  readonly channelId: string;
  readonly date: string;
  readonly currency: string;
  readonly status: SettlementStatus;
  readonly recordCount: number;
  readonly counts: {
    readonly settled: number;
    readonly chargebacks: number;
    readonly chargebackReversals: number;
    readonly fees: number;
  };
  /** Minor units of `currency`; net = positive − negative (may be below zero). */
  readonly totals: { readonly positive: Minor; readonly negative: Minor; readonly fees: Minor };
  readonly createdAt: Date;
}

/** A record as stored: the reconciliation record and the merchant's reference of its transaction. */
export interface StoredSettlementRecord {
  readonly record: SettlementRecord;
  /** TransactionId of the spec's table (merchantTransactionId), when the transaction had one. */
  readonly merchantTransactionId?: string;
  /** InvoiceId of the spec's table (merchantInvoiceId), when the transaction had one. */
  readonly merchantInvoiceId?: string;
}

export interface SettlementListQuery {
  readonly merchantId: string;
  /** Only these merchant accounts; all of the merchant's when undefined (none when empty). */
  readonly channelIds?: readonly string[];
  /** Days from and to, both included, `yyyy-MM-dd`. */
  readonly from: string;
  readonly to: string;
  readonly currency?: string;
}

export interface SettlementStore {
  /** The run of a merchant account's day, if it has been settled. */
  getSettlementRun(channelId: string, date: string): Promise<SettlementRun | undefined>;
  /**
   * Writes a day's run with its settlements (their counts and totals) and their records, staged in
   * a file by the run and copied a page at a time, in one transaction. False, and nothing written,
   * when the day of that merchant account has a run already (another process or an earlier run won).
   */
  saveStagedSettlementRun(
    run: SettlementRun,
    settlements: readonly Settlement[],
    records: StagedRecords,
  ): Promise<boolean>;
  /** A page of a merchant account's payments of a day, in (createdAt, id) order (day-payments.ts). */
  dayPaymentsPage(query: DayPaymentsQuery): Promise<Payment[]>;
  /** The settlements of a merchant account's day, by currency. */
  listDaySettlements(channelId: string, date: string): Promise<Settlement[]>;
  /** Settlements in a range of days, ordered by day, merchant account, currency. */
  listSettlements(query: SettlementListQuery): Promise<Settlement[]>;
  /** By id within the merchant's (undefined for other merchants' ids). */
  getSettlement(merchantId: string, id: string): Promise<Settlement | undefined>;
  /** A settlement's records in their stored order, a page at a time (keyset on seq). */
  settlementRecordPages(settlementId: string): AsyncGenerator<StoredSettlementRecord[]>;
  /**
   * The records a page at a time in the Reporting API's SettlementTxDate order: request time (none
   * first, as 0), then stored order; DESC the exact reverse (record-order.ts).
   */
  settlementRecordPagesByTime(
    settlementId: string,
    order: 'ASC' | 'DESC',
  ): AsyncGenerator<StoredSettlementRecord[]>;
}

// ---------------------------------------------------------------------------------------------
// Row mapping

type SettlementRow = SettlementsTable;

/** The JSON of a record: the request time as epoch ms. */
interface StoredRecordJson {
  readonly record: Omit<SettlementRecord, 'payment'> & {
    readonly payment: Omit<SettlementRecord['payment'], 'requestTime'> & { readonly requestTime?: number };
  };
  readonly merchantTransactionId?: string;
  readonly merchantInvoiceId?: string;
}

function recordToJson(stored: StoredSettlementRecord): string {
  const { requestTime, ...payment } = stored.record.payment;
  const json: StoredRecordJson = {
    record: {
      ...stored.record,
      payment: { ...payment, ...(requestTime === undefined ? {} : { requestTime: requestTime.getTime() }) },
    },
    ...(stored.merchantTransactionId === undefined
      ? {}
      : { merchantTransactionId: stored.merchantTransactionId }),
    ...(stored.merchantInvoiceId === undefined ? {} : { merchantInvoiceId: stored.merchantInvoiceId }),
  };
  return JSON.stringify(json);
}

function jsonToRecord(text: string): StoredSettlementRecord {
  const json = JSON.parse(text) as StoredRecordJson;
  const { requestTime, ...payment } = json.record.payment;
  const record = {
    ...json.record,
    payment: { ...payment, ...(requestTime === undefined ? {} : { requestTime: new Date(requestTime) }) },
  } as SettlementRecord;
  return {
    record,
    ...(json.merchantTransactionId === undefined
      ? {}
      : { merchantTransactionId: json.merchantTransactionId }),
    ...(json.merchantInvoiceId === undefined ? {} : { merchantInvoiceId: json.merchantInvoiceId }),
  };
}

/** The row of a settlement's record at its place (`seq`). */
export function recordRow(
  settlementId: string,
  seq: number,
  stored: StoredSettlementRecord,
): SettlementRecordsTable {
  return {
    settlement_id: settlementId,
    seq,
    payment_id: stored.record.payment.id ?? null,
    record_type: stored.record.recordType,
    request_time: stored.record.payment.requestTime?.getTime() ?? null,
    record: recordToJson(stored),
  };
}

function settlementToRow(s: Settlement): SettlementRow {
  return {
    id: s.id,
    merchant_id: s.merchantId,
    channel_id: s.channelId,
    date: s.date,
    currency: s.currency,
    status: s.status,
    record_count: s.recordCount,
    settled_count: s.counts.settled,
    chargeback_count: s.counts.chargebacks,
    reversal_count: s.counts.chargebackReversals,
    fee_count: s.counts.fees,
    positive_amount: s.totals.positive,
    negative_amount: s.totals.negative,
    fee_amount: s.totals.fees,
    created_at: s.createdAt.getTime(),
  };
}

function rowToSettlement(r: SettlementRow): Settlement {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    date: r.date,
    currency: r.currency,
    status: r.status as SettlementStatus,
    recordCount: int(r.record_count),
    counts: {
      settled: int(r.settled_count),
      chargebacks: int(r.chargeback_count),
      chargebackReversals: int(r.reversal_count),
      fees: int(r.fee_count),
    },
    totals: {
      positive: int(r.positive_amount) as Minor,
      negative: int(r.negative_amount) as Minor,
      fees: int(r.fee_amount) as Minor,
    },
    createdAt: date(r.created_at),
  };
}

function rowToRun(r: SettlementRunsTable): SettlementRun {
  return {
    channelId: r.channel_id,
    date: r.date,
    merchantId: r.merchant_id,
    settlementCount: int(r.settlement_count),
    recordCount: int(r.record_count),
    ...(r.file_name === null ? {} : { fileName: r.file_name }),
    createdAt: date(r.created_at),
  };
}

export function settlementStore(db: Kysely<Database>, sealer: AccountSealer): SettlementStore {
  return {
    dayPaymentsPage: dayPaymentsPage(db, sealer),

    async getSettlementRun(channelId, date) {
      const row = await db
        .selectFrom('settlement_runs')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('date', '=', date)
        .executeTakeFirst();
      return row && rowToRun(row);
    },

    async saveStagedSettlementRun(run, settlements, records) {
      return db.transaction().execute(async (trx) => {
        if (!(await claimRun(trx, run))) return false;
        for (const settlement of settlements)
          await trx.insertInto('settlements').values(settlementToRow(settlement)).execute();
        for await (const rows of records.rows(RECORD_PAGE)) await insertAll(trx, 'settlement_records', rows);
        return true;
      });
    },

    async listDaySettlements(channelId, date) {
      const rows = await db
        .selectFrom('settlements')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('date', '=', date)
        .orderBy('currency')
        .execute();
      return rows.map(rowToSettlement);
    },

    async listSettlements(q) {
      if (q.channelIds?.length === 0) return [];
      let query = db
        .selectFrom('settlements')
        .selectAll()
        .where('merchant_id', '=', q.merchantId)
        .where('date', '>=', q.from)
        .where('date', '<=', q.to);
      if (q.channelIds !== undefined) query = query.where('channel_id', 'in', [...q.channelIds]);
      if (q.currency !== undefined) query = query.where('currency', '=', q.currency);
      const rows = await query.orderBy('date').orderBy('channel_id').orderBy('currency').execute();
      return rows.map(rowToSettlement);
    },

    async getSettlement(merchantId, id) {
      const row = await db
        .selectFrom('settlements')
        .selectAll()
        .where('id', '=', id)
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return row && rowToSettlement(row);
    },

    settlementRecordPagesByTime: (settlementId, order) =>
      recordsByTime(db, settlementId, order, RECORD_PAGE, (rows) => rows.map((r) => jsonToRecord(r.record))),

    async *settlementRecordPages(settlementId) {
      for (let from = 0; ; from += RECORD_PAGE) {
        const rows = await db
          .selectFrom('settlement_records')
          .select('record')
          .where('settlement_id', '=', settlementId)
          .where('seq', '>=', from)
          .where('seq', '<', from + RECORD_PAGE)
          .orderBy('seq')
          .execute();
        if (rows.length === 0) return;
        yield rows.map((r) => jsonToRecord(r.record));
      }
    },
  };
}

/** Writes the run's row unless the day has one: whether this run is the one that settles it. */
async function claimRun(trx: Kysely<Database>, run: SettlementRun): Promise<boolean> {
  const claimed = await trx
    .insertInto('settlement_runs')
    .values({
      channel_id: run.channelId,
      date: run.date,
      merchant_id: run.merchantId,
      settlement_count: run.settlementCount,
      record_count: run.recordCount,
      file_name: run.fileName ?? null,
      created_at: run.createdAt.getTime(),
    })
    .onConflict((oc) => oc.columns(['channel_id', 'date']).doNothing())
    .returning('channel_id')
    .executeTakeFirst();
  return claimed !== undefined;
}
