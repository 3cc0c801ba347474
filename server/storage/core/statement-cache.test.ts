import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache';

describe('withStatementCache', () => {
  it('prepares each SQL text once and reuses the statement with new parameters', () => {
    const raw = new BetterSqlite3(':memory:');
    const db = withStatementCache(raw, 2);
    db.prepare('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)').run([]);
    const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
    expect(db.prepare('INSERT INTO t (id, v) VALUES (?, ?)')).toBe(insert);
    insert.run([1, 'a']);
    db.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run([2, 'b']);
    const select = 'SELECT v FROM t WHERE id = ?';
    expect(db.prepare(select).all([1])).toEqual([{ v: 'a' }]);
    expect(db.prepare(select).all([2])).toEqual([{ v: 'b' }]);
    // Past the bound the cache starts over; statements still work.
    db.prepare('SELECT 1').all([]);
    expect(db.prepare(select).all([2])).toEqual([{ v: 'b' }]);
    db.close();
    expect(raw.open).toBe(false);
  });
});
