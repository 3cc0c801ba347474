/**
 * Throwaway PostgreSQL 15 clusters for tests: `initdb` in a fresh temporary folder, a server on
 * 127.0.0.1 at a free port (fsync on, like production), one database, and `stop()` to shut it
 * down and delete everything. PostgreSQL refuses to run as root, so when the tests run as root
 * (CI does) the cluster belongs to the `postgres` user and its commands run through `runuser`.
 *
 * `initdb` is the slow part (seconds on two busy cores, and some twenty test files start a
 * cluster), so it runs once per machine into a template folder that every cluster copies: the
 * copy is a fresh cluster all the same, its own files, its own server.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { chown, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
const POSTGRES_USER = 'postgres';
const DATABASE = 'gateway';

const run = promisify(execFile);

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/gateway` */
  readonly url: string;
  stop(): Promise<void>;
}

const isRoot = (): boolean => process.getuid?.() === 0;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The `postgres` account from /etc/passwd, to own the cluster when running as root. */
function postgresAccount(): { uid: number; gid: number } | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , uid, gid] = line.split(':');
      if (name === POSTGRES_USER && uid !== undefined && gid !== undefined) {
        return { uid: Number(uid), gid: Number(gid) };
      }
    }
  } catch {
    // no passwd file: no account
  }
  return undefined;
}

/**
 * Whether `startPostgres` can work here: the PostgreSQL 15 binaries are installed and, when
 * running as root, there is a `postgres` user and `runuser` to act as it. Returns the reason when not.
 */
export function postgresUnavailableReason(): string | undefined {
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) {
    if (!executable(join(POSTGRES_BIN, bin))) return `${join(POSTGRES_BIN, bin)} not found`;
  }
  if (isRoot() && postgresAccount() === undefined) return 'running as root and there is no postgres user';
  return undefined;
}

export function postgresAvailable(): boolean {
  return postgresUnavailableReason() === undefined;
}

/** A port nobody listens on right now: bind port 0, read the port, release it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/**
 * The initialised data folder clusters copy: made once (by whichever test gets there first; a
 * race only makes two, one of which is renamed into place), kept for later runs like a cache.
 */
let template: Promise<string> | undefined;
function templateData(): Promise<string> {
  template ??= (async () => {
    const path = join(tmpdir(), `gateway-pg-template-15-${process.getuid?.() ?? 0}`);
    const ready = await stat(join(path, 'PG_VERSION')).then(
      () => true,
      () => false,
    );
    if (ready) return path;
    const dir = await mkdtemp(join(tmpdir(), 'gateway-pg-template-'));
    if (isRoot()) {
      const account = postgresAccount()!;
      await chown(dir, account.uid, account.gid);
    }
    const data = join(dir, 'data');
    await pgRun('initdb', ['-D', data, '-U', POSTGRES_USER, '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await rename(data, path).catch(() => {}); // another test made it first: use theirs
    await rm(dir, { recursive: true, force: true });
    return path;
  })();
  template.catch(() => {
    template = undefined;
  });
  return template;
}

/** Runs a PostgreSQL binary as the cluster's owner. */
async function pgRun(bin: string, args: readonly string[]): Promise<void> {
  const path = join(POSTGRES_BIN, bin);
  const [file, argv] = isRoot() ? ['runuser', ['-u', POSTGRES_USER, '--', path, ...args]] : [path, [...args]];
  try {
    await run(file, argv, { cwd: '/', timeout: 60_000 });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${bin} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: error });
  }
}

export async function startPostgres(): Promise<PostgresCluster> {
  const reason = postgresUnavailableReason();
  if (reason !== undefined) throw new Error(`PostgreSQL unavailable: ${reason}`);

  const dir = await mkdtemp(join(tmpdir(), 'gateway-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  let started = false;

  const stop = async (): Promise<void> => {
    try {
      if (started) await pgRun('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
    } finally {
      started = false;
      await rm(dir, { recursive: true, force: true });
    }
  };

  try {
    if (isRoot()) {
      const account = postgresAccount()!;
      await chown(dir, account.uid, account.gid);
    }
    // --no-sync only skipped syncing the template's files; the server runs with fsync. The copy
    // keeps the owner (postgres) and the folder's 0700 that the server insists on.
    await run('cp', ['-a', await templateData(), data]);
    const port = await freePort();
    const serverOptions = [
      "-c listen_addresses='127.0.0.1'",
      `-c port=${port}`,
      `-c unix_socket_directories='${dir}'`,
      '-c fsync=on',
      '-c synchronous_commit=on',
    ].join(' ');
    started = true; // from here on, stop() tries pg_ctl stop (a failed start may have left a server)
    await pgRun('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', serverOptions]);

    const admin = new pg.Client({ host: '127.0.0.1', port, user: POSTGRES_USER, database: 'postgres' });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await admin.end();
    }
    return { url: `postgres://${POSTGRES_USER}@127.0.0.1:${port}/${DATABASE}`, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
