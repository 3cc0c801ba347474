/**
 * The Query API's search as one SELECT: every filter given, in (created_at, id) order, a page
 * after a keyset cursor read from the cursor on (keyset.ts), so a search paging through a long
 * time frame costs the same per page.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { PaymentQuery } from '../../../shared/engine/core/ports';
import type { Database } from '../core/database';
import { pastCursor, rangeStart } from './keyset';
import type { PaymentRow } from './tables';

/** The search's SELECT; undefined when an empty list leaves nothing to find. */
export function paymentQuery(
  db: Kysely<Database>,
  q: PaymentQuery,
): SelectQueryBuilder<Database, 'payments', PaymentRow> | undefined {
  if (q.channelIds?.length === 0 || q.paymentBrands?.length === 0 || q.paymentTypes?.length === 0) {
    return undefined;
  }
  let query = db.selectFrom('payments').selectAll().where('merchant_id', '=', q.merchantId);
  if (q.channelIds !== undefined) query = query.where('channel_id', 'in', [...q.channelIds]);
  if (q.merchantTransactionId !== undefined) {
    query = query.where('merchant_transaction_id', '=', q.merchantTransactionId);
  }
  const after = q.after;
  const from = rangeStart(q.from?.getTime(), after);
  if (from !== undefined) query = query.where('created_at', '>=', from);
  if (q.until !== undefined) query = query.where('created_at', '<', q.until.getTime());
  if (q.shortId !== undefined) query = query.where('short_id', '=', q.shortId);
  if (q.paymentTypes !== undefined) query = query.where('payment_type', 'in', [...q.paymentTypes]);
  if (q.paymentBrands !== undefined) query = query.where('payment_brand', 'in', [...q.paymentBrands]);
  if (after !== undefined) query = query.where((eb) => pastCursor(eb, after));
  return query.orderBy('created_at').orderBy('id').limit(q.limit);
}
