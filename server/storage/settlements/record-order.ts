/**
 * A settlement's records in the Reporting API's SettlementTxDate order, a page at a time. Every
 * record of a settlement has its settlement's date, so the order is the request time (a record
 * without one first, as if 0), then the stored order (seq: a FEE record after its transaction's);
 * DESC is the exact reverse. Index 0016 (settlement_id, request_time, seq) holds that order: the
 * records without a request time are one range (IS NULL) in seq order, the others one range from
 * a keyset cursor (request_time, seq) on, so each page costs the same and nothing is sorted.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../core/database';
import { int } from '../core/rows';

interface Cursor {
  readonly time: number | null;
  readonly seq: number;
}

interface OrderRow {
  readonly request_time: number | null;
  readonly seq: number;
  readonly record: string;
}

/** One page after `after` within one of the two ranges (no request time; a request time). */
async function page(
  db: Kysely<Database>,
  settlementId: string,
  timed: boolean,
  desc: boolean,
  after: Cursor | undefined,
  size: number,
): Promise<OrderRow[]> {
  const dir = desc ? 'desc' : 'asc';
  let query = db
    .selectFrom('settlement_records')
    .select(['request_time', 'seq', 'record'])
    .where('settlement_id', '=', settlementId);
  if (!timed) {
    query = query.where('request_time', 'is', null);
    if (after !== undefined) query = query.where('seq', desc ? '<' : '>', after.seq);
  } else {
    query = query.where('request_time', 'is not', null);
    const t = after?.time;
    if (after !== undefined && t !== null && t !== undefined) {
      // (request_time, seq) past the cursor, the index range starting at the cursor's time
      query = query
        .where('request_time', desc ? '<=' : '>=', t)
        .where((eb) =>
          eb.or([eb('request_time', desc ? '<' : '>', t), eb('seq', desc ? '<' : '>', after.seq)]),
        );
    }
    query = query.orderBy('request_time', dir);
  }
  const rows = await query.orderBy('seq', dir).limit(size).execute();
  return rows.map((r) => ({
    request_time: r.request_time === null ? null : int(r.request_time),
    seq: int(r.seq),
    record: r.record,
  }));
}

export async function* recordsByTime<T>(
  db: Kysely<Database>,
  settlementId: string,
  order: 'ASC' | 'DESC',
  size: number,
  map: (rows: OrderRow[]) => T[],
): AsyncGenerator<T[]> {
  const desc = order === 'DESC';
  // ASC: the records without a request time first; DESC: last
  for (const timed of desc ? [true, false] : [false, true]) {
    let after: Cursor | undefined;
    for (;;) {
      const rows = await page(db, settlementId, timed, desc, after, size);
      if (rows.length > 0) yield map(rows);
      if (rows.length < size) break;
      const last = rows[rows.length - 1]!;
      after = { time: last.request_time, seq: last.seq };
    }
  }
}
