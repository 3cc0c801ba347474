/**
 * What every store module maps rows with: epoch-millisecond dates, BIGINT columns, nullable
 * dates; the ascending id column both databases understand; and multi-row INSERTs kept below
 * both databases' parameter limits.
 */
import { type ColumnDefinitionBuilder, type Insertable, type Kysely, PostgresAdapter } from 'kysely';
import type { Database } from './schema';

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

/**
 * An ascending integer primary key, for tables read in the order rows were written: SQLite's
 * rowid alias, PostgreSQL's bigserial. Returns the column's type and its builder.
 */
export function ascendingKey(
  db: Kysely<unknown>,
): ['bigserial' | 'integer', (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? ['bigserial', (c) => c.primaryKey()]
    : ['integer', (c) => c.primaryKey().autoIncrement()];
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
