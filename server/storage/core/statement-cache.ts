/**
 * better-sqlite3 as Kysely's SQLite database, with prepared statements kept by SQL text.
 *
 * Kysely prepares every query anew; for the gateway's few, fixed queries that is pure waste
 * (preparing was the largest single cost of a payment read). A prepared statement is reusable
 * because better-sqlite3 is synchronous: a statement finishes before the next one starts. The
 * one exception, a statement still being iterated, cannot happen: the store never streams.
 * SQLite itself re-prepares a cached statement after a schema change.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept; the store has a few dozen, plus one per multi-row INSERT size. */
const MAX_STATEMENTS = 512;

export function withStatementCache(raw: BetterSqlite3.Database, max = MAX_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => raw.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = raw.prepare(sql);
        // Simple bound: start over when full (rare, and only costs re-preparing).
        if (statements.size >= max) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
