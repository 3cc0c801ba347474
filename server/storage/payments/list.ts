/**
 * The administration's payments list: a merchant's payments on some channels (an environment),
 * newest first, filtered, after a keyset cursor (created_at, id). Each channel is one range scan
 * of the `payments_channel_created` index (0013); the channels' pages are merged here, so no
 * query sorts or skips rows (no OFFSET) however deep the page.
 */
import { type ExpressionBuilder, sql } from 'kysely';
import type { Payment } from '../../../shared/engine/core/model';
import type { StoreContext } from '../core/context';
import type { Database } from '../core/database';
import { int } from '../core/rows';
import { rowToPayment } from './rows';

export interface PaymentListQuery {
  readonly merchantId: string;
  /** The channels listed (those of the address's environment, or one). */
  readonly channelIds: readonly string[];
  /** Rows to return at most. */
  readonly limit: number;
  /** Strictly older than this position (the previous page's last row). */
  readonly before?: { readonly at: number; readonly id: string };
  /** created_at ≥ from and < to (epoch ms). */
  readonly from?: number;
  readonly to?: number;
  readonly id?: string;
  readonly merchantTransactionId?: string;
  readonly shortId?: string;
  readonly brand?: string;
  /** Any of these minor amounts, each in these currencies (a decimal amount is exact per currency). */
  readonly amounts?: readonly { readonly minor: number; readonly currencies: readonly string[] }[];
  /** result_code in these codes … */
  readonly codes?: readonly string[];
  /** … or, when `exceptCodes`, none of them. */
  readonly exceptCodes?: boolean;
}

export interface PaymentListStore {
  listPaymentsPage(query: PaymentListQuery): Promise<Payment[]>;
}

type Where = ExpressionBuilder<Database, 'payments'>;

/** Catalogue codes only (ddd.ddd.ddd): safe to inline, and hundreds of them bind no parameters. */
const codeList = (codes: readonly string[]) =>
  sql.raw(
    codes
      .filter((c) => /^[0-9]{3}\.[0-9]{3}\.[0-9]{3}$/.test(c))
      .map((c) => `'${c}'`)
      .join(','),
  );

function filters(eb: Where, q: PaymentListQuery) {
  const all = [];
  if (q.before !== undefined) all.push(sql<boolean>`(created_at, id) < (${q.before.at}, ${q.before.id})`);
  if (q.from !== undefined) all.push(eb('created_at', '>=', q.from));
  if (q.to !== undefined) all.push(eb('created_at', '<', q.to));
  if (q.id !== undefined) all.push(eb('id', '=', q.id));
  if (q.merchantTransactionId !== undefined)
    all.push(eb('merchant_transaction_id', '=', q.merchantTransactionId));
  if (q.shortId !== undefined) all.push(eb('short_id', '=', q.shortId));
  if (q.brand !== undefined) all.push(eb('payment_brand', '=', q.brand));
  if (q.amounts !== undefined)
    all.push(
      eb.or(
        q.amounts
          .filter((a) => a.currencies.length > 0)
          .map((a) => eb.and([eb('amount', '=', a.minor), eb('currency', 'in', [...a.currencies])])),
      ),
    );
  if (q.codes !== undefined && q.codes.length > 0)
    all.push(
      q.exceptCodes === true
        ? sql<boolean>`result_code NOT IN (${codeList(q.codes)})`
        : sql<boolean>`result_code IN (${codeList(q.codes)})`,
    );
  return eb.and(all);
}

export function paymentListStore({ db, sealer }: StoreContext): PaymentListStore {
  return {
    async listPaymentsPage(q) {
      const pages = await Promise.all(
        q.channelIds.map((channelId) =>
          db
            .selectFrom('payments')
            .selectAll()
            .where('merchant_id', '=', q.merchantId)
            .where('channel_id', '=', channelId)
            .where((eb) => filters(eb, q))
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(q.limit)
            .execute(),
        ),
      );
      return pages
        .flat()
        .sort((a, b) => int(b.created_at) - int(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .slice(0, q.limit)
        .map((r) => rowToPayment(r, sealer));
    },
  };
}
