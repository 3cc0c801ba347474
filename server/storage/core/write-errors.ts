/**
 * Whether an error says the store cannot write now (a full disk, a database that refuses
 * writes), as opposed to a fault in the gateway: the first is a temporary system error the
 * caller may retry (HTTP 503, server/http/middleware/envelope/unavailable.ts), the second a 500.
 * Read from the drivers' own codes: better-sqlite3's `code` (SQLITE_FULL, SQLITE_READONLY_…,
 * SQLITE_IOERR_…: SQLite maps ENOSPC to SQLITE_FULL, a failed write or sync to an IOERR;
 * SQLITE_BUSY/LOCKED: another process held the write lock past the busy timeout) and
 * node-postgres's SQLSTATE (class 53, insufficient resources: disk full, out of memory, too
 * many connections; 25006 read-only transaction, as a hot standby or
 * default_transaction_read_only answers; 57P03 cannot connect now, a server starting or
 * shutting down). A wrapped error is looked at through its `cause`.
 */

const SQLITE_CANNOT_WRITE = /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED)/;
const POSTGRES_CANNOT_WRITE = /^(53...|25006|57P03)$/;

const codeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

export function cannotWrite(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = codeOf(e);
    if (typeof code === 'string' && (SQLITE_CANNOT_WRITE.test(code) || POSTGRES_CANNOT_WRITE.test(code)))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
