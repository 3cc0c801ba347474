/**
 * Which driver errors say the store cannot write now (a temporary system error, 503) and which
 * are faults (500): the errors are the drivers' own, raised for real where it is cheap (SQLite's
 * SQLITE_FULL from a database capped by max_page_count) and built with node-postgres's own class
 * for the SQLSTATEs a full or read-only PostgreSQL answers.
 */
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { cannotWrite } from './write-errors';

/** What `run` throws (undefined when it does not). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const postgresError = (code: string): pg.DatabaseError => {
  const error = new pg.DatabaseError('refused', 0, 'error');
  error.code = code;
  return error;
};

describe('cannotWrite', () => {
  it('SQLite: a full database (SQLITE_FULL) cannot write; a constraint or a syntax error is a fault', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + 1}`);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const full = thrown(() => {
      for (let i = 0; i < 10_000; i++) insert.run('x'.repeat(1_000));
    });
    expect((full as { code?: string }).code).toBe('SQLITE_FULL');
    expect(cannotWrite(full)).toBe(true);
    db.pragma('max_page_count = 1000000');
    insert.run('y');
    const duplicate = thrown(() => db.prepare('INSERT INTO t (id, v) VALUES (1, ?)').run('z'));
    expect((duplicate as { code?: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(cannotWrite(duplicate)).toBe(false);
    expect(cannotWrite(thrown(() => db.exec('SELEC 1')))).toBe(false);
    db.close();
  });

  it('PostgreSQL: disk full (53100), read-only (25006), shutting down (57P03); not a unique violation (23505)', () => {
    expect(
      ['53100', '25006', '57P03', '23505', '22P02'].map((code) => cannotWrite(postgresError(code))),
    ).toEqual([true, true, true, false, false]);
  });

  it('looks through a wrapping error to its cause; anything else is a fault', () => {
    expect(cannotWrite(new Error('batch failed', { cause: postgresError('53100') }))).toBe(true);
    expect([new Error('boom'), undefined, null, 'SQLITE_FULL', { code: 42 }].map(cannotWrite)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
