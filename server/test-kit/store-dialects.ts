/**
 * The store's tests on both databases: `describeDialects` runs a block once on SQLite and once on
 * PostgreSQL (the PostgreSQL half skipped, saying why, where it cannot run here), and
 * `dialectStore` opens the store of that database for the block (SQLite in a fresh folder, a
 * throwaway PostgreSQL cluster) and closes and deletes it afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type GatewayStore, openStore } from '../storage';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from './postgres';
import { testVault } from './vault';

export type Dialect = 'sqlite' | 'postgres';

/** `describe.each` over SQLite and PostgreSQL; `title` names the dialect with %s. */
export function describeDialects(title: string, body: (dialect: Dialect) => void): void {
  describe.each<Dialect>(['sqlite', 'postgres'])(title, (dialect) => {
    const unavailable = dialect === 'postgres' ? postgresUnavailableReason() : undefined;
    if (unavailable !== undefined) {
      it.skip(`PostgreSQL tests skipped: ${unavailable}`, () => {});
      return;
    }
    body(dialect);
  });
}

/**
 * The store of `dialect`, opened in the enclosing block's beforeAll and closed in its afterAll.
 * What is returned stands for that store (each property is read from it when used), so the tests
 * write `store.insertX(…)` although the store opens only once the block runs.
 */
export function dialectStore(dialect: Dialect, folderPrefix: string): GatewayStore {
  let dataDir = '';
  let cluster: PostgresCluster | undefined;
  let opened: GatewayStore | undefined;
  beforeAll(async () => {
    if (dialect === 'postgres') cluster = await startPostgres();
    else dataDir = await mkdtemp(join(tmpdir(), folderPrefix));
    opened = await openStore({
      ...(cluster ? { databaseUrl: cluster.url } : { dataDir }),
      vault: testVault(),
    });
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);
  return new Proxy({} as GatewayStore, {
    get(_, name) {
      if (opened === undefined) throw new Error('the store opens in beforeAll: use it inside a test');
      const value = Reflect.get(opened, name, opened);
      return typeof value === 'function' ? value.bind(opened) : value;
    },
  });
}
