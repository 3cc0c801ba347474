/**
 * Opens the gateway's store: PostgreSQL when given a `postgres://` or `postgresql://` URL,
 * otherwise SQLite in `<dataDir>/gateway.db`. Migrations are applied before the store is returned.
 * The vault seals bank account numbers in what the store writes, and opens them in what it reads.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { accountSealer, type SealingVault } from '../../shared/sealing/account-data';
import { checkpointer } from './core/checkpointer';
import type { Database } from './core/database';
import { lockStoreFolder } from './core/folder-lock';
import { withStatementCache } from './core/statement-cache';
import { createKyselyStore, type GatewayStore } from './kysely-store';
import { migrate } from './migrations';
import { postgresPaymentWriter } from './payments/postgres-writer';
import { type BatchObserver, sqlitePaymentWriter } from './payments/writers';

export interface OpenStoreOptions {
  /** Folder of the SQLite database (created with mode 0700 if missing); default `data`. */
  readonly dataDir?: string;
  /** A PostgreSQL URL selects PostgreSQL; anything else (or nothing) selects SQLite. */
  readonly databaseUrl?: string;
  /** Seals IBANs and bank account numbers at rest (shared/sealing/account-data.ts): the vault. */
  readonly vault: SealingVault;
  /** Told each written batch of payments: size, seconds, failed (the gateway's metrics). */
  readonly observeBatch?: BatchObserver;
  /**
   * SQLite: where the WAL's checkpoints run. `background` (the default, for a serving gateway):
   * on a thread of their own (core/checkpointer.ts), off the event loop; `inline`: inside the
   * commits, as SQLite does by default (a short-lived command, which would only pay the thread's
   * start).
   */
  readonly checkpoints?: 'background' | 'inline';
  /** Where the store adds what it gives back once the gateway is idle (lifecycle/idle-memory.ts). */
  readonly idle?: { add(release: () => void): void };
  /**
   * SQLite: whether this store is the folder's one serving gateway (core/folder-lock.ts; the
   * default): it refuses to open while another holds the folder. The CLI's commands, which run
   * beside the gateway, say false.
   */
  readonly lockFolder?: boolean;
}

export const SQLITE_FILE = 'gateway.db';
/** How long SQLite waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;
const PG_INT8_OID = 20;
/**
 * PostgreSQL: batches of payments written at once, each on its own connection of the pool.
 * With one, a batch waits for the previous one's round trip and commit, which on a busy machine
 * costs a scheduling delay or more; PostgreSQL flushes concurrent commits' WAL together anyway.
 */
const PG_CONCURRENT_BATCHES = 8;
/** The main pool: room for every batch writer and as many reads again. */
const PG_POOL_SIZE = 20;

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

export async function openStore(options: OpenStoreOptions): Promise<GatewayStore> {
  if (isPostgresUrl(options.databaseUrl))
    return openPostgres(options.databaseUrl, options.vault, options.observeBatch);
  const dataDir = options.dataDir ?? 'data';
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Before anything is read or migrated: a second gateway on the folder stops here.
  const unlock = (options.lockFolder ?? true) ? lockStoreFolder(dataDir, privateFile) : () => {};
  try {
    const store = await openSqlite(
      dataDir,
      options.vault,
      options.observeBatch,
      options.checkpoints ?? 'background',
      options.idle,
    );
    return {
      ...store,
      close: async () => {
        try {
          await store.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

type StoreVault = OpenStoreOptions['vault'];

async function openSqlite(
  dataDir: string,
  vault: StoreVault,
  observeBatch: BatchObserver | undefined,
  checkpoints: 'background' | 'inline',
  idle: OpenStoreOptions['idle'],
): Promise<GatewayStore> {
  // The folder exists: openStore made it before taking its lock.
  const sealer = accountSealer(vault);
  const file = join(dataDir, SQLITE_FILE);
  privateFile(file);
  // SQLite gives its -wal and -shm files the database file's mode; ones left from before are fixed here.
  for (const extra of ['-wal', '-shm']) if (existsSync(file + extra)) privateFile(file + extra);
  const raw = new BetterSqlite3(file);
  try {
    raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    raw.pragma('journal_mode = WAL');
    // FULL: in WAL mode every commit syncs the WAL, so a resolved write survives power loss.
    raw.pragma('synchronous = FULL');
    // The page cache holds its pages for as long as the connection lives (better-sqlite3's default
    // is 16 MB): after a burst of writes it stays full, as resident memory the idle gateway never
    // gives back. 8 MB keeps the b-trees' upper levels and the recent pages; the rest comes from
    // the OS's file cache, which an idle machine can reclaim.
    raw.pragma('cache_size = -8000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
    try {
      // What a migration rewrites (account numbers sealed in place) must not linger in free
      // space or in the WAL: zeroed while migrating, and the WAL emptied after.
      const secureDelete = Number(raw.pragma('secure_delete', { simple: true }));
      raw.pragma('secure_delete = ON');
      await migrate(db as Kysely<unknown>, vault);
      raw.pragma(`secure_delete = ${secureDelete}`);
      raw.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      await db.destroy();
      throw error;
    }
    const background =
      checkpoints === 'background'
        ? checkpointer(file, (pages) => {
            if (raw.open) raw.pragma(`wal_autocheckpoint = ${pages}`);
          })
        : undefined;
    if (background !== undefined) idle?.add(background.release);
    const store = createKyselyStore(db, {
      sealer,
      writePayments: sqlitePaymentWriter(db, raw, sealer, background?.committed),
      ...(observeBatch === undefined ? {} : { observeBatch }),
    });
    if (background === undefined) return store;
    return {
      ...store,
      // The thread first: the main connection, closed last, then checkpoints and removes the WAL.
      close: async () => {
        await background.close();
        await store.close();
      },
    };
  } catch (error) {
    if (raw.open) raw.close();
    throw error;
  }
}

/** Creates the file if missing and makes it readable and writable by its owner only (0600). */
function privateFile(path: string): void {
  if (process.platform === 'win32') return;
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

/**
 * An idle connection the server ends (a restart, a failover, an administrator, or the server
 * stopping while the pool's connections are still closing after `end()`) makes the pool emit
 * 'error'; without a listener that is an uncaught exception that stops the whole process. The
 * pool has already dropped the connection, and the next query opens a new one: nothing to do.
 */
function survivesIdleErrors(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {});
  return pool;
}

async function openPostgres(
  url: string,
  vault: StoreVault,
  observeBatch: BatchObserver | undefined,
): Promise<GatewayStore> {
  const sealer = accountSealer(vault);
  const pool = new pg.Pool({
    connectionString: url,
    max: PG_POOL_SIZE,
    // BIGINT (dates as epoch ms, minor amounts) as numbers rather than strings, for this pool only.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID && format !== 'binary'
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  survivesIdleErrors(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db as Kysely<unknown>, vault);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // Locks live on their own small pool: a task holding one still needs the main pool's
  // connections for its reads and writes, and must never wait for its own lock's connection.
  const lockPool = survivesIdleErrors(new pg.Pool({ connectionString: url, max: 10 }));
  const store = createKyselyStore(db, {
    sealer,
    ...(observeBatch === undefined ? {} : { observeBatch }),
    advisoryLocks: true,
    writePayments: postgresPaymentWriter(db, sealer),
    concurrentBatches: PG_CONCURRENT_BATCHES,
    lockAcrossProcesses: async (key, task) => {
      const client = await lockPool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
        try {
          return await task();
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
        }
      } finally {
        client.release();
      }
    },
  });
  let lockPoolClosed: Promise<void> | undefined;
  return {
    ...store,
    close: async () => {
      await store.close();
      lockPoolClosed ??= lockPool.end();
      await lockPoolClosed;
    },
  };
}
