/**
 * What every store module maps rows with: epoch-millisecond dates, BIGINT columns, nullable
 * dates, JSON documents and stored cards; multi-row INSERTs kept below both databases'
 * parameter limits; hot queries compiled once.
 */
import { type Compilable, CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { StoredCard } from '../../../shared/engine/core/model';
import type { Database } from './database';

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export const ms = (date: Date): number => {
  const t = date.getTime();
  if (!Number.isFinite(t)) throw new RangeError('Invalid Date');
  return t;
};
export const msOrNull = (value: Date | null): number | null => (value === null ? null : ms(value));
/** BIGINT columns: numbers (SQLite, and PostgreSQL with the int8 parser of open.ts); strings tolerated. */
export const int = (value: number | string | bigint): number =>
  typeof value === 'number' ? value : Number(value);
export const date = (value: number | string | bigint): Date => new Date(int(value));
export const dateOrNull = (value: number | string | bigint | null): Date | null =>
  value === null ? null : date(value);

export function parseObject(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

/** Only the StoredCard fields: whatever else a caller's object carries never reaches the disk. */
export function cardToJson(card: StoredCard | undefined): string | null {
  if (card === undefined) return null;
  const stored: StoredCard = {
    bin: card.bin,
    last4Digits: card.last4Digits,
    ...(card.holder !== undefined ? { holder: card.holder } : {}),
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    encryptedNumber: card.encryptedNumber,
  };
  return JSON.stringify(stored);
}

/** Rows per INSERT statement: 20 columns × 1,000 stays far below both databases' parameter limits. */
export const ROWS_PER_STATEMENT = 1000;

/** Inserts the rows in as few statements as the parameter limits allow (in the caller's transaction). */
export async function insertAll<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    await db
      .insertInto(table)
      // the generic table's rows are its own Insertable; Kysely cannot see that through T
      .values(rows.slice(i, i + ROWS_PER_STATEMENT) as never)
      .execute();
}

/**
 * A hot query compiled once; Kysely would build and compile it on every call. The parameters
 * are given in the order the query's placeholders appear (the order of its `where`s).
 */
export function compiledOnce<Row>(db: Kysely<Database>, query: Compilable<Row>) {
  const { sql, parameters } = query.compile();
  return async (values: readonly unknown[]): Promise<Row[]> => {
    if (values.length !== parameters.length) throw new RangeError('wrong number of query parameters');
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, [...values]))).rows;
  };
}

/** Thrown inside a transaction to roll it back when a compare-and-set found nothing to change. */
export class NothingChanged extends Error {}
