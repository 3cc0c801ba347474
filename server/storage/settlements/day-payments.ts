/**
 * A merchant account's payments of a settlement day, a page at a time, for the settlement run:
 * one channel's, of some payment types, in (created_at, id) order after a keyset cursor whose
 * index range starts at the cursor (payments/keyset.ts): every page of the day costs the same.
 */
import type { Kysely } from 'kysely';
import type { Payment } from '../../../shared/engine/core/model';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { Database } from '../core/database';
import { type PaymentCursor, pastCursor, rangeStart } from '../payments/keyset';
import { rowToPayment } from '../payments/rows';

export interface DayPaymentsQuery {
  readonly merchantId: string;
  readonly channelId: string;
  /** From (included) and until (excluded): the day. */
  readonly from: Date;
  readonly until: Date;
  readonly paymentTypes: readonly string[];
  /** The last payment of the previous page: the page starts after it in (createdAt, id) order. */
  readonly after?: PaymentCursor;
  readonly limit: number;
}

export function dayPaymentsPage(
  db: Kysely<Database>,
  sealer: AccountSealer,
): (q: DayPaymentsQuery) => Promise<Payment[]> {
  return async (q) => {
    if (q.paymentTypes.length === 0) return [];
    const after = q.after;
    // the index (merchant_id, channel_id, created_at, id) is read from the cursor on
    let query = db
      .selectFrom('payments')
      .selectAll()
      .where('merchant_id', '=', q.merchantId)
      .where('channel_id', '=', q.channelId)
      .where('created_at', '>=', rangeStart(q.from.getTime(), after))
      .where('created_at', '<', q.until.getTime())
      .where('payment_type', 'in', [...q.paymentTypes]);
    if (after !== undefined) query = query.where((eb) => pastCursor(eb, after));
    const rows = await query.orderBy('created_at').orderBy('id').limit(q.limit).execute();
    return rows.map((r) => rowToPayment(r, sealer));
  };
}
