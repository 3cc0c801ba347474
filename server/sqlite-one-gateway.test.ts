/**
 * One serving gateway per SQLite store (storage/core/folder-lock.ts). On SQLite, what keeps two
 * attempts of one card from both passing a velocity limit (and two references to one payment, two
 * retries of one Idempotency-Key, from both running) is serialised in the process. Before the lock,
 * two gateways started on one data folder each counted alone: a limit of 5 let 6 of 50 payments
 * through. Now the second refuses to start, says why, and the first serves on.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from './storage/core/folder-lock';
import { SQLITE_FILE } from './storage/open';
import { VISA_CARD } from './test-kit/fixtures/cards';
import { readDemo, spawnGateway, stopAll } from './test-kit/process';
import { tempFolder } from './test-kit/temp-folders';

afterAll(() => stopAll(), 30_000);

const BURST = 50;
const LIMIT = 5;

describe('a second gateway on one SQLite data folder', () => {
  it('refuses to start while the first serves; the first keeps its velocity limit; the folder is free again once the first stops', async () => {
    const dataDir = await tempFolder('gateway-one-');
    const setup = await spawnGateway({ dataDir });
    const demo = await readDemo(dataDir);
    expect(await setup.stop()).toEqual({ code: 0, signal: null });
    // The demo channel's velocity limit, written before the gateways start (they cache channels).
    const db = new BetterSqlite3(join(dataDir, SQLITE_FILE));
    const { settings } = db.prepare('SELECT settings FROM channels WHERE id = ?').get(demo.entityId) as {
      settings: string;
    };
    const risk = { velocity: [{ per: 'card', windowSeconds: 3600, maxCount: LIMIT }] };
    db.prepare('UPDATE channels SET settings = ? WHERE id = ?').run(
      JSON.stringify({ ...JSON.parse(settings), risk }),
      demo.entityId,
    );
    db.close();

    const [first, second] = await Promise.allSettled([spawnGateway({ dataDir }), spawnGateway({ dataDir })]);
    const serving = [first, second].filter((s) => s.status === 'fulfilled').map((s) => s.value);
    const refused = [first, second].filter((s) => s.status === 'rejected').map((s) => String(s.reason));
    expect(serving).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('refusing to start: another gateway process serves the SQLite store');
    expect(refused[0]).toContain(LOCK_FILE);
    expect(refused[0]).toContain('DATABASE_URL');

    const pay = async () => {
      const res = await fetch(`${serving[0]!.baseUrl}/v1/payments`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${demo.accessToken}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          entityId: demo.entityId,
          amount: '1.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...VISA_CARD,
        }).toString(),
      });
      return res.status;
    };
    const statuses = await Promise.all(Array.from({ length: BURST }, pay));
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);

    // A crash lets the folder go as well as a stop: the operating system drops SQLite's file lock.
    expect((await serving[0]!.kill('SIGKILL')).signal).toBe('SIGKILL');
    const next = await spawnGateway({ dataDir });
    expect((await fetch(`${next.baseUrl}/v1/resultcodes`)).status).toBe(200);
    expect(await next.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
