/**
 * What every table definition shares: the column representations (see database.ts) and the
 * ascending id column both databases understand. Imports nothing of storage, so every
 * aggregate's tables.ts can use it.
 */
import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

/** Milliseconds since the epoch (BIGINT). */
export type EpochMs = number;
/** A JSON document (TEXT). */
export type JsonText = string;

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
