/**
 * The simulated acquirer's records of a day (server/storage/acquirer-records/), laid over the
 * gateway's own transactions before they are settled: a payment whose transfer the acquirer
 * reports failed settles FAILED; a record the acquirer holds without a gateway payment becomes a
 * transaction of `origin: 'acquirer'`, which matching leaves NOT_MATCHED unless its reference
 * finds a payment of the day.
 */
import type { SettlementPaymentType, SettlementTransaction } from '../../../shared/settlement';
import type { AcquirerRecord } from '../../storage/acquirer-records';
import { type DayTransactions, recordBrand } from './transactions';

const optionalBrand = (brand: string | undefined) => (brand === undefined ? {} : { brand });

/** A record without a payment, as settle() takes it: its id is the acquirer's reference. */
function acquirerTransaction(record: AcquirerRecord): SettlementTransaction {
  return {
    id: record.id,
    shortId: '',
    origin: 'acquirer',
    paymentType: record.paymentType as SettlementPaymentType,
    amount: record.amount,
    currency: record.currency,
    createdAt: record.createdAt,
    status: record.status,
    ...optionalBrand(recordBrand(record.brand)),
    ...(record.merchantTransactionId === undefined
      ? {}
      : { merchantTransactionId: record.merchantTransactionId }),
  };
}

/** The day's transactions with the acquirer's records applied (a new value; `day` is left as it is). */
export function withAcquirerRecords(
  day: DayTransactions,
  records: readonly AcquirerRecord[],
): DayTransactions {
  if (records.length === 0) return day;
  const failed = new Set(
    records.filter((r) => r.paymentId !== undefined && r.status === 'FAILED').map((r) => r.paymentId),
  );
  const own = records.filter((r) => r.paymentId === undefined);
  const references = new Map(day.references);
  for (const r of own)
    references.set(
      r.id,
      r.merchantTransactionId === undefined ? {} : { merchantTransactionId: r.merchantTransactionId },
    );
  return {
    transactions: [
      ...day.transactions.map((tx) => (failed.has(tx.id) ? { ...tx, status: 'FAILED' as const } : tx)),
      ...own.map(acquirerTransaction),
    ],
    references,
    candidates: day.candidates,
  };
}
