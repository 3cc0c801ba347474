/**
 * One serving gateway per SQLite store. What serialises a payment's references, an
 * Idempotency-Key's retries and a card's velocity count on SQLite is in the process
 * (engine/core/keyed-lock.ts; PostgreSQL adds advisory locks across processes): two gateways on
 * one `gateway.db` would each check alone, and let through what one must refuse (a velocity limit
 * of 5 let 6 payments through in `server/sqlite-one-gateway.test.ts` before this lock).
 *
 * The serving gateway therefore holds an exclusive lock on `<dataDir>/gateway.lock`, an empty
 * SQLite database kept in an open `BEGIN EXCLUSIVE` for as long as the store is open: SQLite's own
 * file locks, which the operating system drops when the process ends, however it ends (SIGKILL
 * too), so no stale lock outlives a crash. A second gateway on the folder refuses to start. The
 * CLI's commands (server/cli/) open the store without it: they run beside the gateway, each
 * write waiting for the other's (`busy_timeout`).
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export const LOCK_FILE = 'gateway.lock';

/** Another gateway process serves the store in this folder (main.ts refuses to start with it). */
export class StoreInUse extends Error {
  override readonly name = 'StoreInUse';
}

/**
 * Takes the folder's lock, or throws StoreInUse at once (no waiting) when another process (or
 * another open store of this process) holds it. Returns what lets it go.
 */
export function lockStoreFolder(dataDir: string, privateFile: (path: string) => void): () => void {
  const file = join(dataDir, LOCK_FILE);
  privateFile(file);
  const lock = new BetterSqlite3(file, { timeout: 0 });
  try {
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new StoreInUse(
      `another gateway process serves the SQLite store in ${dataDir} (it holds ${LOCK_FILE}). ` +
        'SQLite serves one gateway process: stop the other, give this one its own GATEWAY_DATA_DIR, ' +
        'or use PostgreSQL (DATABASE_URL) for several processes on one database',
    );
  }
  return () => {
    if (lock.open) lock.close();
  };
}
