/**
 * `gateway user …` through argv, on a real store: create (password piped in, or generated and
 * printed once), list, disable, reset-password, and the usage errors.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../security/passwords';
import { type GatewayStore, openStore } from '../storage';
import { testVault } from '../test-support/vault';
import { run } from './run';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gateway-cli-users-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function gateway(argv: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    openStore: () => openStore({ dataDir: join(root, 'data'), vault: testVault() }),
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    readStdin: async () => stdin,
  });
  return { code, out, err };
}

async function withStore<T>(work: (store: GatewayStore) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: join(root, 'data'), vault: testVault() });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

describe('gateway user', () => {
  it('creates the first operator with a piped password, stored only as a scrypt hash', async () => {
    const res = await gateway(
      ['user', 'create', '--username', 'root-op', '--role', 'operator'],
      'a piped passphrase\n',
    );
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.out).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    const user = await withStore((s) => s.getAdminUserByUsername('root-op'));
    expect(user?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('a piped passphrase', user!.passwordHash)).toBe(true);
  });

  it('generates a password when none is piped, and prints it once', async () => {
    const m = await gateway(['merchant', 'create', '--name', 'Users Shop']);
    const merchantId = m.out[0]!;
    const res = await gateway([
      'user',
      'create',
      '--username',
      'shop-admin',
      '--role',
      'merchant-admin',
      '--merchant',
      merchantId,
    ]);
    expect(res.code, res.err.join('\n')).toBe(0);
    const password = res.out[0]!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(res.err.join('\n')).toMatch(/shown only once/);
    const user = await withStore((s) => s.getAdminUserByUsername('shop-admin'));
    expect(await verifyPassword(password, user!.passwordHash)).toBe(true);

    const list = await gateway(['user', 'list', '--json']);
    const users = JSON.parse(list.out.join('\n'));
    expect(users.map((u: { username: string; role: string }) => `${u.username} ${u.role}`)).toEqual([
      'root-op operator',
      'shop-admin merchant-admin',
    ]);
    expect(list.out.join('\n')).not.toContain('scrypt');
    expect((await gateway(['user', 'list', '--merchant', merchantId])).out.join('\n')).not.toContain(
      'root-op',
    );

    const reset = await gateway(['user', 'reset-password', 'shop-admin']);
    expect(reset.code).toBe(0);
    const again = await withStore((s) => s.getAdminUserByUsername('shop-admin'));
    expect(await verifyPassword(reset.out[0]!, again!.passwordHash)).toBe(true);
    expect(await verifyPassword(password, again!.passwordHash)).toBe(false);

    expect((await gateway(['user', 'disable', 'shop-admin'])).code).toBe(0);
    expect((await withStore((s) => s.getAdminUserByUsername('shop-admin')))?.disabledAt).not.toBeNull();
  });

  it('refuses what it cannot do: usage errors (2) and failures (1)', async () => {
    expect((await gateway(['user', 'create', '--username', 'x1x', '--role', 'king'])).code).toBe(2);
    expect((await gateway(['user', 'create', '--username', 'v1v', '--role', 'merchant-viewer'])).code).toBe(
      2,
    );
    const taken = await gateway(['user', 'create', '--username', 'root-op', '--role', 'operator']);
    expect(taken.code).toBe(2);
    expect(taken.err[0]).toMatch(/username: is taken/);
    const short = await gateway(['user', 'create', '--username', 'shorty', '--role', 'operator'], 'short\n');
    expect(short.err[0]).toMatch(/password: must be at least 12/);
    expect((await gateway(['user', 'disable', 'nobody'])).code).toBe(1);
    expect((await gateway(['help', 'user'])).out.join('\n')).toMatch(/reset-password/);
  });
});
