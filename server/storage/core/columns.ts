/**
 * What every table definition shares: the column representations (see database.ts), the
 * ascending id column both databases understand, and the CREATE TABLE / CREATE INDEX builders
 * the migrations write their tables with (a column in SQL's own words, once per column).
 * Imports nothing of storage, so every aggregate's tables.ts can use it.
 */
import {
  type ColumnDefinitionBuilder,
  type CreateIndexBuilder,
  type CreateTableBuilder,
  type Kysely,
  PostgresAdapter,
} from 'kysely';

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

/** The types both databases understand alike (migrations.ts). */
type ColumnType = 'text' | 'integer' | 'bigint';
type Constraint = 'not null' | 'primary key';

/**
 * A column as a migration declares it, in SQL's words: its type, then `not null` or `primary key`
 * when it has one; `ascending key` for the ascendingKey() column.
 */
export type ColumnSql = ColumnType | `${ColumnType} ${Constraint}` | 'ascending key';

const CONSTRAINTS: Record<Constraint, (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder> = {
  'not null': (c) => c.notNull(),
  'primary key': (c) => c.primaryKey(),
};

/**
 * CREATE TABLE `table` with `columns` in the order given (name → ColumnSql), for the caller to add
 * a composite key and execute.
 */
export function createTable(
  db: Kysely<unknown>,
  table: string,
  columns: Readonly<Record<string, ColumnSql>>,
): CreateTableBuilder<string, string> {
  let builder: CreateTableBuilder<string, string> = db.schema.createTable(table);
  for (const [name, column] of Object.entries(columns)) {
    if (column === 'ascending key') {
      builder = builder.addColumn(name, ...ascendingKey(db));
      continue;
    }
    const space = column.indexOf(' ');
    builder =
      space < 0
        ? builder.addColumn(name, column as ColumnType)
        : builder.addColumn(
            name,
            column.slice(0, space) as ColumnType,
            CONSTRAINTS[column.slice(space + 1) as Constraint],
          );
  }
  return builder;
}

/** CREATE INDEX `name` ON `table` (`columns`), for the caller to make unique or partial and execute. */
export function createIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: string[],
): CreateIndexBuilder {
  return db.schema.createIndex(name).on(table).columns(columns);
}
