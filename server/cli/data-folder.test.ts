/**
 * The CLI and its data folder (issue 34): a command on a SQLite data folder that does not exist
 * says so and exits 1, creating nothing (a mistyped GATEWAY_DATA_DIR must not leave an empty store
 * behind); the commands that set up a new installation (`merchant create`, `user create`) create
 * it and say that they did. `gateway settlement run` follows the running gateway's clock: with a
 * test clock, a day is over when the gateway's time says so, not the wall clock's.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../storage';
import type { TestGateway } from '../test-kit/gateway';
import { ADMIN_TOKEN, admin, CLOCK_START, clockGateway } from '../test-kit/test-clock';
import { testVault } from '../test-kit/vault';
import { run } from './run';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gateway-cli-folder-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** The CLI as main.ts runs it on SQLite in `dataDir`. */
async function cli(dataDir: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    openStore: () => openStore({ dataDir, vault: testVault(), checkpoints: 'inline', lockFolder: false }),
    dataDir,
    dataFolder: { path: dataDir, exists: () => existsSync(dataDir) },
    env: {},
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
  return { code, out, err };
}

describe('a missing data folder', () => {
  it('is refused by a command that reads or changes the store, and nothing is created', async () => {
    const missing = join(root, 'typo-data');
    const listed = await cli(missing, 'merchant', 'list');
    expect(listed.code).toBe(1);
    expect(listed.err[0]).toContain(`no data folder at ${missing}`);
    expect(existsSync(missing)).toBe(false);
    const settled = await cli(missing, 'settlement', 'run', '--date', '2026-01-01');
    expect(settled.code).toBe(1);
    expect(existsSync(missing)).toBe(false);
  });

  it('is created by merchant create, which says so', async () => {
    const fresh = join(root, 'new-install');
    const created = await cli(fresh, 'merchant', 'create', '--name', 'Shop', '--json');
    expect(created.code, created.err.join('\n')).toBe(0);
    expect(created.err).toEqual([`gateway: created the data folder ${fresh}`]);
    expect(JSON.parse(created.out.join('\n'))).toMatchObject({ name: 'Shop' });
    // from then on it is there, and nothing more is said
    const listed = await cli(fresh, 'merchant', 'list', '--json');
    expect(listed).toMatchObject({ code: 0, err: [] });
  });
});

describe('gateway settlement run on a gateway with a test clock', () => {
  let gw: TestGateway;
  let server: ReturnType<typeof serve>;
  let url = '';
  let dataDir: string;

  beforeAll(async () => {
    gw = await clockGateway();
    server = serve({ fetch: gw.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-cli-clock-'));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await gw.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The CLI on the gateway's own store (left open: the gateway still uses it). */
  async function settle(date: string, env: Record<string, string>) {
    const out: string[] = [];
    const err: string[] = [];
    const store = new Proxy(gw.store, {
      get: (target, name) => (name === 'close' ? async () => {} : Reflect.get(target, name)),
    });
    const code = await run(['settlement', 'run', '--date', date, '--url', url, '--json'], {
      openStore: async () => store,
      dataDir,
      env,
      output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    });
    return { code, out, err };
  }

  it('refuses a day that is over on the wall clock but not on the gateway’s', async () => {
    // the gateway's clock stands at CLOCK_START (2026-11-24 10:00 UTC): the 24th is not over
    const day = CLOCK_START.toISOString().slice(0, 10);
    expect(Date.now()).toBeGreaterThan(CLOCK_START.getTime() + 24 * 3600_000);
    const refused = await settle(day, { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain('not over yet');
    // once the gateway's clock has passed it, the day settles (or was settled by the move itself)
    expect((await admin(gw, 'POST', '/admin/v1/clock', { advance: '1d' })).status).toBe(200);
    const settled = await settle(day, { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(settled.code, settled.err.join('\n')).toBe(0);
  });
});
