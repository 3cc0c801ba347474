/**
 * The simulated acquirer's records of a day (server/storage/acquirer-records/), laid over the
 * gateway's own transactions before they are settled: a payment whose transfer the acquirer
 * reports failed settles FAILED; a record the acquirer holds without a gateway payment becomes a
 * transaction of `origin: 'acquirer'`, which matching leaves NOT_MATCHED unless its reference
 * finds a payment of the day.
 */
import {
  compareTransactions,
  type SettlementPaymentType,
  type SettlementTransaction,
} from '../../../shared/settlement';
import type { AcquirerRecord } from '../../storage/acquirer-records';
import { type DayTransaction, recordBrand } from './model';

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

/** What the acquirer's records of a day change: the payments whose transfer failed, and its own transactions. */
export interface AcquirerDay {
  /** Ids of the gateway's payments the acquirer reports FAILED: they settle FAILED. */
  readonly failed: ReadonlySet<string>;
  /** The records without a payment, as transactions of `origin: 'acquirer'`, in the day's order. */
  readonly own: readonly DayTransaction[];
}

export function acquirerDay(records: readonly AcquirerRecord[]): AcquirerDay {
  const failed = new Set<string>();
  const own: DayTransaction[] = [];
  for (const r of records) {
    if (r.paymentId === undefined)
      own.push({
        tx: acquirerTransaction(r),
        references:
          r.merchantTransactionId === undefined ? {} : { merchantTransactionId: r.merchantTransactionId },
        // the acquirer's own records match the merchant's payments, they are none of them
        candidates: [],
      });
    else if (r.status === 'FAILED') failed.add(r.paymentId);
  }
  own.sort((a, b) => compareTransactions(a.tx, b.tx));
  return { failed, own };
}
