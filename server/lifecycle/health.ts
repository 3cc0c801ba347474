/**
 * Health for orchestrators and load balancers: `GET /healthz` answers 200 while the process
 * serves at all (liveness); `GET /readyz` answers 200 only when the storage answers a query and
 * can write (a full disk had left it 200 while every payment failed: folderWritable for SQLite,
 * postgresWritable for PostgreSQL), every migration is applied
 * and every worker polls, and 503 otherwise, naming what is wrong (readiness). Both on the public addresses, before the transport check, so a probe over plain
 * HTTP is answered in production too, and on the metrics address. They tell nothing about
 * merchants or payments.
 */
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { DEFAULT_MIGRATION_LOCK_TABLE } from 'kysely';
import pg from 'pg';
import type { GatewayStore } from '../storage';
import type { PollerState } from '../workers/poller';

export interface ReadyReport {
  readonly ready: boolean;
  readonly storage: 'reachable' | 'unreachable' | 'not writable';
  /** Migrations not applied (empty when the schema is current; unknown when unreachable). */
  readonly pendingMigrations: readonly string[];
  /** Each worker: running, or stopped (not started, or stopping in a shutdown). */
  readonly workers: Readonly<Record<string, 'running' | 'stopped'>>;
  /** A shutdown has begun: new work should go elsewhere. */
  readonly draining: boolean;
}

export type Readiness = () => Promise<ReadyReport>;

/** Resolves when the store can write now; rejects when it cannot (a full disk). */
export type WriteProbe = () => Promise<void>;

/** How long a write probe's verdict stands: /readyz is public, and each probe syncs a file. */
const PROBE_TTL_MS = 1_000;

/**
 * The SQLite store's write probe: a small file written, synced and removed in its data folder,
 * where SQLite grows its database and WAL. What SQLite writes inside its own files could still
 * fit in space they already hold while the next payment needs more, so the folder is asked for
 * new space (64 KiB: a few payments' worth), and a full disk is seen before the writes that
 * matter fail. One probe at a time; its verdict is kept for a second.
 */
export function folderWritable(dir: string, now: () => number = Date.now): WriteProbe {
  const file = join(dir, '.readyz-write-probe');
  const block = Buffer.alloc(64 * 1024);
  return cached(async () => {
    const handle = await open(file, 'w', 0o600);
    try {
      await handle.write(block);
      await handle.sync();
    } finally {
      await handle.close();
      await unlink(file).catch(() => undefined);
    }
  }, now);
}

/** One probe at a time, its verdict kept for PROBE_TTL_MS. */
function cached(probe: () => Promise<void>, now: () => number): WriteProbe {
  let last: { at: number; probe: Promise<void> } | undefined;
  return () => {
    if (last === undefined || now() - last.at >= PROBE_TTL_MS) last = { at: now(), probe: probe() };
    return last.probe;
  };
}

/**
 * The PostgreSQL store's write probe, on a connection of its own (the store's pool stays the
 * payments'), writing nothing: one transaction that takes a transaction id, so its commit is a
 * WAL record flushed to disk, and runs an UPDATE of no row on the migrator's lock table, which a
 * database that refuses writes refuses all the same (25006: a standby, or default_transaction_read_only
 * turned on, as an operator does when the disk fills) without any row locked that a migration could hold. A server
 * that cannot flush its WAL fails the commit (or stops: then unreachable). 5 s at most: a probe
 * that hangs is a store that cannot write now.
 */
export function postgresWritable(url: string, now: () => number = Date.now): WriteProbe {
  return cached(async () => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5_000,
      statement_timeout: 5_000,
      query_timeout: 5_000,
    });
    // an error of a connection the server ends: the probe's own query rejects with it
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT txid_current()');
      // the store's migrations run with Kysely's default tables (storage/migrations.ts)
      await client.query(`UPDATE ${DEFAULT_MIGRATION_LOCK_TABLE} SET is_locked = is_locked WHERE false`);
      await client.query('COMMIT');
    } finally {
      await client.end().catch(() => undefined);
    }
  }, now);
}

export function readiness(parts: {
  readonly store: Pick<GatewayStore, 'pendingMigrations'>;
  readonly workers: Readonly<Record<string, { state(): PollerState }>>;
  readonly draining?: () => boolean;
  /** The store's write probe; without one, reachable is taken to be writable. */
  readonly writable?: WriteProbe;
}): Readiness {
  return async () => {
    let storage: ReadyReport['storage'] = 'reachable';
    let pendingMigrations: readonly string[] = [];
    try {
      pendingMigrations = await parts.store.pendingMigrations();
    } catch {
      storage = 'unreachable';
    }
    if (storage === 'reachable' && parts.writable !== undefined) {
      try {
        await parts.writable();
      } catch {
        storage = 'not writable';
      }
    }
    const workers = Object.fromEntries(
      Object.entries(parts.workers).map(([name, w]) => [name, w.state().running ? 'running' : 'stopped']),
    ) as Record<string, 'running' | 'stopped'>;
    const draining = parts.draining?.() ?? false;
    const ready =
      storage === 'reachable' &&
      pendingMigrations.length === 0 &&
      Object.values(workers).every((w) => w === 'running') &&
      !draining;
    return { ready, storage, pendingMigrations, workers, draining };
  };
}

// biome-ignore lint/suspicious/noExplicitAny: health routes fit any app's environment
export function healthRoutes(app: Hono<any>, ready: Readiness | undefined): void {
  app.get('/healthz', (c) => c.json({ status: 'alive' }, 200, { 'Cache-Control': 'no-store' }));
  if (ready === undefined) return;
  app.get('/readyz', async (c) => {
    const report = await ready();
    return c.json({ status: report.ready ? 'ready' : 'not ready', ...report }, report.ready ? 200 : 503, {
      'Cache-Control': 'no-store',
    });
  });
}
