/**
 * A keyset page of payments in (created_at, id) order, after a cursor (the previous page's last
 * row). `(created_at, id) > (t, x)` is written as `created_at >= t AND (created_at > t OR id > x)`:
 * the index range (…, created_at, id) then starts at the cursor, so every page costs the same
 * wherever it lies. Written as `created_at >= from AND (created_at > t OR (created_at = t AND id >
 * x))` the range starts at the time frame's start and each page re-reads every row before it:
 * paging through a day of a million payments was quadratic (the settlement run's day, the Query
 * API's search with linked transactions).
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../core/database';

export interface PaymentCursor {
  readonly createdAt: Date;
  readonly id: string;
}

/** Where the index range starts (epoch ms): the later of the time frame's start and the cursor's. */
export function rangeStart(from: number, after: PaymentCursor | undefined): number;
export function rangeStart(from: number | undefined, after: PaymentCursor | undefined): number | undefined;
export function rangeStart(from: number | undefined, after: PaymentCursor | undefined): number | undefined {
  if (after === undefined) return from;
  const t = after.createdAt.getTime();
  return from === undefined ? t : Math.max(from, t);
}

/** Past the cursor, given `created_at >= cursor's instant` (rangeStart) in the same WHERE. */
export const pastCursor = (eb: ExpressionBuilder<Database, 'payments'>, after: PaymentCursor) =>
  eb.or([eb('created_at', '>', after.createdAt.getTime()), eb('id', '>', after.id)]);
