/**
 * The WAL's checkpoints on their own thread (checkpointer.ts): a few payments, far below the
 * 1,000 pages at which SQLite would copy them inside a commit, reach the database file itself
 * soon after their commit, the WAL still open (the thread copied them); inline, as SQLite does by
 * default, they stay in the WAL. Either way they are durable and read back the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { idleReleases } from '../../lifecycle/idle-memory';
import { storedDebit } from '../../test-kit/fixtures/stored-payment';
import { tempFolder } from '../../test-kit/temp-folders';
import { testVault } from '../../test-kit/vault';
import { type GatewayStore, openStore } from '../index';
import { SQLITE_FILE } from '../open';
import { BACKSTOP_PAGES, checkpointer, INLINE_PAGES } from './checkpointer';

const AT = { merchantId: 'm'.repeat(32), channelId: 'c'.repeat(32), createdAt: new Date() };

describe('SQLite checkpoints', () => {
  // The folders are the kit's (deleted at the file's end); the stores are closed after each test.
  const opened: GatewayStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  async function open(checkpoints: 'background' | 'inline') {
    const dataDir = await tempFolder('gw-checkpoints-');
    const idle = idleReleases();
    const store = await openStore({ dataDir, vault: testVault(), checkpoints, idle });
    opened.push(store);
    const inDatabaseFile = (id: string) => readFileSync(join(dataDir, SQLITE_FILE)).includes(id);
    return { store, inDatabaseFile, idle };
  }

  async function writeSome(store: GatewayStore) {
    const payments = Array.from({ length: 5 }, () => storedDebit(AT));
    await Promise.all(payments.map((p) => store.insertPayment(p)));
    return payments;
  }

  it('background: the batch reaches the database file without waiting for 1,000 pages', async () => {
    const { store, inDatabaseFile } = await open('background');
    const payments = await writeSome(store);
    await expect.poll(() => payments.every((p) => inDatabaseFile(p.id)), { timeout: 5000 }).toBe(true);
    for (const p of payments) expect(await store.getPayment(p.merchantId, p.id)).toEqual(p);
  });

  it('background, after the idle step stopped its thread: the next batch reaches the database file too', async () => {
    const { store, inDatabaseFile, idle } = await open('background');
    const first = await writeSome(store);
    await expect.poll(() => first.every((p) => inDatabaseFile(p.id)), { timeout: 5000 }).toBe(true);
    idle.release();
    const second = await writeSome(store);
    await expect.poll(() => second.every((p) => inDatabaseFile(p.id)), { timeout: 5000 }).toBe(true);
  });

  it('inline: the same batch stays in the WAL until SQLite copies it inside a later commit', async () => {
    const { store, inDatabaseFile } = await open('inline');
    const payments = await writeSome(store);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(payments.some((p) => inDatabaseFile(p.id))).toBe(false);
    for (const p of payments) expect(await store.getPayment(p.merchantId, p.id)).toEqual(p);
  });

  it('a thread left without batches ends by itself, handing the checkpoints back to SQLite; the next batch starts another', async () => {
    const file = join(await tempFolder('gw-checkpoints-'), 'quiet.db');
    const raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    raw.exec('CREATE TABLE t (x)');
    const pages: number[] = [];
    const background = checkpointer(file, (n) => pages.push(n), 100);
    try {
      raw.exec('INSERT INTO t VALUES (1)');
      background.committed();
      expect(pages).toEqual([BACKSTOP_PAGES]);
      await expect.poll(() => pages, { timeout: 5000 }).toEqual([BACKSTOP_PAGES, INLINE_PAGES]);
      raw.exec('INSERT INTO t VALUES (2)');
      background.committed();
      expect(pages).toEqual([BACKSTOP_PAGES, INLINE_PAGES, BACKSTOP_PAGES]);
    } finally {
      await background.close();
      raw.close();
    }
  });

  it('a thread that fails hands the checkpoints back to SQLite for good: no batch starts another', async () => {
    const pages: number[] = [];
    // No such file: the thread cannot open it.
    const background = checkpointer(join(await tempFolder('gw-checkpoints-'), 'missing.db'), (n) =>
      pages.push(n),
    );
    try {
      background.committed();
      await expect.poll(() => pages, { timeout: 5000 }).toEqual([BACKSTOP_PAGES, INLINE_PAGES]);
      background.committed();
      expect(pages).toEqual([BACKSTOP_PAGES, INLINE_PAGES]);
    } finally {
      await background.close();
    }
  });

  it('closes cleanly: reopened, every payment is there', async () => {
    const dataDir = await tempFolder('gw-checkpoints-');
    const first = await openStore({ dataDir, vault: testVault() });
    const payments = await writeSome(first);
    await first.close();
    const again = await openStore({ dataDir, vault: testVault() });
    opened.push(again);
    for (const p of payments) expect(await again.getPayment(p.merchantId, p.id)).toEqual(p);
  });
});
