/**
 * A merchant account's payments of a settlement day, a page at a time, for the settlement run:
 * the same rows and order as the payments store's queryPayments with a keyset cursor, but the
 * index range starts at the cursor. queryPayments ranges from the day's start and filters the
 * cursor out (`created_at > t OR (created_at = t AND id > x)`), so each page scanned every row
 * before it: a day of a million payments took 0.4 s a page at its end, quadratic in the day.
 */
import type { Kysely } from 'kysely';
import type { Payment } from '../../../shared/engine/core/model';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { Database } from '../core/database';
import { rowToPayment } from '../payments/rows';

export interface DayPaymentsQuery {
  readonly merchantId: string;
  readonly channelId: string;
  /** From (included) and until (excluded): the day. */
  readonly from: Date;
  readonly until: Date;
  readonly paymentTypes: readonly string[];
  /** The last payment of the previous page: the page starts after it in (createdAt, id) order. */
  readonly after?: { readonly createdAt: Date; readonly id: string };
  readonly limit: number;
}

export function dayPaymentsPage(
  db: Kysely<Database>,
  sealer: AccountSealer,
): (q: DayPaymentsQuery) => Promise<Payment[]> {
  return async (q) => {
    if (q.paymentTypes.length === 0) return [];
    const after = q.after;
    // (created_at, id) > (t, x) as a range from t: the index (merchant_id, channel_id, created_at,
    // id) is read from the cursor on, whatever the page's place in the day
    const from =
      after === undefined ? q.from.getTime() : Math.max(q.from.getTime(), after.createdAt.getTime());
    let query = db
      .selectFrom('payments')
      .selectAll()
      .where('merchant_id', '=', q.merchantId)
      .where('channel_id', '=', q.channelId)
      .where('created_at', '>=', from)
      .where('created_at', '<', q.until.getTime())
      .where('payment_type', 'in', [...q.paymentTypes]);
    if (after !== undefined) {
      const t = after.createdAt.getTime();
      query = query.where((eb) => eb.or([eb('created_at', '>', t), eb('id', '>', after.id)]));
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(q.limit).execute();
    return rows.map((r) => rowToPayment(r, sealer));
  };
}
