/**
 * The files a gateway writes on a developer's machine are its owner's alone: the data folder
 * 0700; the SQLite database and its -wal and -shm files, the generated data key and
 * demo-merchant.json 0600 (the reconciliation CSVs: settlement-run.test.ts), whatever the umask.
 */
import { statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from './gateway';
import { createLogger } from './security/logger';
import { TEST_COMMIT } from './test-kit/gateway';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const quiet = { autoStart: false } as const;

describe.skipIf(process.platform === 'win32')('data file modes', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  async function start(dataDir: string) {
    return startGateway({
      dataDir,
      commit: TEST_COMMIT,
      env: {},
      logger: createLogger({ level: 'silent' }),
      webhooks: quiet,
      notifier: quiet,
      pending: quiet,
      scheduler: quiet,
      settlement: quiet,
    });
  }

  it('creates the folder 0700 and the database, WAL, shared memory, key and demo file 0600', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'gateway-modes-'));
    dirs.push(parent);
    const dataDir = join(parent, 'data');
    const gateway = await start(dataDir);
    try {
      // a write, so the WAL and its index exist
      await gateway.store.insertMerchant({ id: 'e'.repeat(32), name: 'Another', createdAt: new Date() });
      expect({
        folder: mode(dataDir),
        db: mode(join(dataDir, 'gateway.db')),
        wal: mode(join(dataDir, 'gateway.db-wal')),
        shm: mode(join(dataDir, 'gateway.db-shm')),
        key: mode(join(dataDir, 'data.key')),
        demo: mode(join(dataDir, 'demo-merchant.json')),
      }).toEqual({ folder: '700', db: '600', wal: '600', shm: '600', key: '600', demo: '600' });
    } finally {
      await gateway.close();
    }
  });

  it('tightens a database and a demo file left readable by others', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-modes-'));
    dirs.push(dataDir);
    writeFileSync(join(dataDir, 'gateway.db'), '', { mode: 0o644 });
    writeFileSync(join(dataDir, 'demo-merchant.json'), '{}', { mode: 0o644 });
    const gateway = await start(dataDir);
    try {
      expect([mode(join(dataDir, 'gateway.db')), mode(join(dataDir, 'demo-merchant.json'))]).toEqual([
        '600',
        '600',
      ]);
    } finally {
      await gateway.close();
    }
  });
});
