import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../shared/engine/core/ports';
import { tokenChecker } from '../http/middleware/credentials';
import { egressPolicy } from '../security/egress';
import { decodeToken, verifySecret } from '../security/tokens';
import { openStore } from '../storage';
import { testVault } from '../test-kit/vault';
import { CliError } from './args';
import {
  type CommandContext,
  createChannel,
  createMerchant,
  createToken,
  listChannels,
  listMerchants,
  listTokens,
  revokeToken,
  setChannel,
  TOKEN_WARNING,
} from './commands';
import { run } from './run';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UNKNOWN_ID = '0123456789abcdef0123456789abcdef';

interface Captured extends CommandContext {
  readonly out: string[];
  readonly err: string[];
}

function capture(store: Store, json = false): Captured {
  const out: string[] = [];
  const err: string[] = [];
  return { store, json, out, err, output: { out: (l) => out.push(l), err: (l) => err.push(l) } };
}

async function expectCliError(promise: Promise<unknown>, exitCode: 1 | 2, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).exitCode).toBe(exitCode);
  expect((error as CliError).message).toMatch(message);
}

let root = '';
let store: Store;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gateway-cli-'));
  store = await openStore({ dataDir: join(root, 'data'), vault: testVault() });
});

afterAll(async () => {
  await store?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('commands', () => {
  it('creates a merchant, a channel and a token that authenticates', async () => {
    const m = capture(store);
    const merchant = await createMerchant(m, { name: 'Shop One' });
    expect(m.out).toEqual([merchant.id]);
    expect(merchant.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await store.getMerchant(merchant.id)).toEqual(merchant);

    const c = capture(store);
    const channel = await createChannel(c, {
      merchantId: merchant.id,
      name: 'Web_Test',
      threeDSecure: true,
      throttlePerMinute: 60,
    });
    expect(c.out).toEqual([channel.id]);
    expect(await store.getChannel(channel.id)).toEqual({
      id: channel.id,
      merchantId: merchant.id,
      name: 'Web_Test',
      mode: 'TEST',
      settings: { threeDSecure: true, throttlePerMinute: 60 },
      createdAt: channel.createdAt,
    });

    const t = capture(store);
    const created = await createToken(t, { merchantId: merchant.id });
    expect(t.out).toEqual([created.accessToken]);
    expect(t.err.join('\n')).toContain(TOKEN_WARNING);
    const credentials = decodeToken(t.out[0]!);
    if (credentials.kind !== 'credentials') throw new Error('printed token does not decode');
    const stored = await store.getTokenByUserId(credentials.userId);
    expect(stored?.id).toBe(created.token.id);
    expect(stored?.channelIds).toEqual([]);
    expect(verifySecret(credentials.secret, stored!.secretHash)).toBe(true);
    expect(verifySecret(`${credentials.secret}x`, stored!.secretHash)).toBe(false);
    expect(await tokenChecker(store)(credentials)).toMatchObject({ ok: true });
    // The secret is printed once, to stdout only.
    expect(t.err.join('\n')).not.toContain(credentials.secret);
  });

  it('prints JSON with --json, the new token included once', async () => {
    const m = capture(store, true);
    const merchant = await createMerchant(m, { name: 'Json Shop' });
    expect(JSON.parse(m.out.join('\n'))).toEqual({
      id: merchant.id,
      name: 'Json Shop',
      dispatching: false,
      createdAt: merchant.createdAt.toISOString(),
    });
    const c = capture(store, true);
    const channel = await createChannel(c, { merchantId: merchant.id, name: 'Live', mode: 'LIVE' });
    expect(JSON.parse(c.out.join('\n'))).toMatchObject({
      entityId: channel.id,
      merchantId: merchant.id,
      mode: 'LIVE',
      threeDSecure: false,
      throttlePerMinute: null,
      connector: null,
    });
    const t = capture(store, true);
    const created = await createToken(t, { merchantId: merchant.id, channelIds: [channel.id, channel.id] });
    const printed = JSON.parse(t.out.join('\n'));
    expect(printed).toMatchObject({
      id: created.token.id,
      userId: created.token.userId,
      channels: [channel.id],
      environment: 'live',
      revokedAt: null,
      accessToken: created.accessToken,
    });
    expect(printed).not.toHaveProperty('secretHash');
    expect(t.err.join('\n')).toContain(TOKEN_WARNING);
  });

  it('lists merchants, channels and tokens without secrets', async () => {
    const merchant = await createMerchant(capture(store), { name: 'Lister' });
    const channel = await createChannel(capture(store), { merchantId: merchant.id, name: 'Main' });
    await setChannel(capture(store), {
      entityId: channel.id,
      connector: { baseUrl: 'https://other.example/', entityId: UNKNOWN_ID, accessToken: 'CONNECTOR-SECRET' },
    });
    const a = await createToken(capture(store), { merchantId: merchant.id });
    const b = await createToken(capture(store), { merchantId: merchant.id, channelIds: [channel.id] });

    const ml = capture(store);
    await listMerchants(ml);
    expect(ml.out[0]).toMatch(/^ID\s+CREATED\s+NAME$/);
    expect(ml.out.some((l) => l.startsWith(merchant.id) && l.endsWith('Lister'))).toBe(true);
    const mj = capture(store, true);
    await listMerchants(mj);
    expect(JSON.parse(mj.out.join('\n'))).toContainEqual({
      id: merchant.id,
      name: 'Lister',
      dispatching: false,
      createdAt: merchant.createdAt.toISOString(),
    });

    const cl = capture(store);
    await listChannels(cl, { merchantId: merchant.id });
    expect(cl.out).toHaveLength(2);
    expect(cl.out[1]).toMatch(
      new RegExp(
        `^${channel.id}\\s+TEST\\s+off\\s+default\\s+https://other\\.example \\(${UNKNOWN_ID}\\)\\s+Main$`,
      ),
    );
    const cj = capture(store, true);
    await listChannels(cj, { merchantId: merchant.id });
    expect(JSON.parse(cj.out.join('\n'))).toEqual([
      expect.objectContaining({
        entityId: channel.id,
        connector: { baseUrl: 'https://other.example', entityId: UNKNOWN_ID },
      }),
    ]);
    expect([...cl.out, ...cj.out].join('\n')).not.toContain('CONNECTOR-SECRET');

    const tl = capture(store);
    await listTokens(tl, { merchantId: merchant.id });
    expect(tl.out).toHaveLength(3);
    // Tokens created in the same millisecond are listed by id: find each by its own line.
    const lineOf = (id: string) => tl.out.find((line) => line.startsWith(id));
    expect(lineOf(a.token.id)).toMatch(
      new RegExp(`^${a.token.id}\\s+${a.token.userId}\\s+test\\s+\\S+\\s+no\\s+all$`),
    );
    expect(lineOf(b.token.id)).toMatch(
      new RegExp(`^${b.token.id}\\s+${b.token.userId}\\s+test\\s+\\S+\\s+no\\s+${channel.id}$`),
    );
    const tj = capture(store, true);
    await listTokens(tj, { merchantId: merchant.id });
    const listed = JSON.parse(tj.out.join('\n')) as { id: string }[];
    expect(listed.map((t) => t.id).sort()).toEqual([a.token.id, b.token.id].sort());
    expect(listed.find((t) => t.id === b.token.id)).toEqual({
      id: b.token.id,
      merchantId: merchant.id,
      userId: b.token.userId,
      environment: 'test',
      channels: [channel.id],
      createdAt: b.token.createdAt.toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    });
    const everything = [...tl.out, ...tj.out].join('\n');
    for (const t of [a, b]) {
      expect(everything).not.toContain(t.accessToken);
      expect(everything).not.toContain(t.token.secretHash);
      expect(everything).not.toContain(t.token.secretHash.slice('sha256:'.length));
    }
  });

  it('changes channel settings, keeping those not given', async () => {
    const merchant = await createMerchant(capture(store), { name: 'Settings' });
    const channel = await createChannel(capture(store), {
      merchantId: merchant.id,
      name: 'Ch',
      threeDSecure: true,
      throttlePerMinute: 30,
    });
    const settings = async () => (await store.getChannel(channel.id))?.settings;

    await setChannel(capture(store), { entityId: channel.id, threeDSecure: false });
    expect(await settings()).toEqual({ threeDSecure: false, throttlePerMinute: 30 });

    const connector = { baseUrl: 'https://peer.example/api', entityId: UNKNOWN_ID, accessToken: 'tok-123' };
    const s = capture(store, true);
    await setChannel(s, { entityId: channel.id, throttlePerMinute: 120, connector });
    expect(await settings()).toEqual({ threeDSecure: false, throttlePerMinute: 120, connector });
    expect(JSON.parse(s.out.join('\n'))).toMatchObject({
      throttlePerMinute: 120,
      connector: { baseUrl: connector.baseUrl, entityId: UNKNOWN_ID },
    });
    expect(s.out.join('\n')).not.toContain('tok-123');

    await setChannel(capture(store), { entityId: channel.id, throttlePerMinute: 'default', connector: null });
    expect(await settings()).toEqual({ threeDSecure: false });

    await expectCliError(setChannel(capture(store), { entityId: channel.id }), 2, /nothing to change/);
    await expectCliError(
      setChannel(capture(store), { entityId: UNKNOWN_ID, threeDSecure: true }),
      1,
      /unknown channel/,
    );
    await expectCliError(
      setChannel(capture(store), { entityId: channel.id, connector: { ...connector, baseUrl: 'ftp://x' } }),
      2,
      /https/,
    );
    // The egress policy (GATEWAY_CALLBACK_ALLOW, NODE_ENV=production): no connector on this
    // machine or the private network.
    const production = { ...capture(store), egress: egressPolicy({ production: true }) };
    for (const baseUrl of [
      'http://127.0.0.1:8080',
      'http://localhost:8080',
      'http://10.0.0.5/api',
      'http://[::1]',
    ])
      await expectCliError(
        setChannel(production, { entityId: channel.id, connector: { ...connector, baseUrl } }),
        2,
        /connector URL must not point to an? [a-z-]+ address/,
      );
    const developer = { ...capture(store), egress: egressPolicy({ production: false }) };
    await setChannel(developer, {
      entityId: channel.id,
      connector: { ...connector, baseUrl: 'http://127.0.0.1:8080' },
    });
    await expectCliError(
      setChannel(developer, {
        entityId: channel.id,
        connector: { ...connector, baseUrl: 'http://169.254.169.254' },
      }),
      2,
      /metadata/,
    );
    const allowed = { ...capture(store), egress: egressPolicy({ production: true, allow: '10.0.0.0/8' }) };
    await setChannel(allowed, {
      entityId: channel.id,
      connector: { ...connector, baseUrl: 'http://10.0.0.5/api' },
    });
    expect((await settings())?.connector?.baseUrl).toBe('http://10.0.0.5/api');
    await expectCliError(
      setChannel(capture(store), { entityId: channel.id, throttlePerMinute: 0 }),
      2,
      /throttle/,
    );
  });

  it('revokes a token once; the token no longer authenticates', async () => {
    const merchant = await createMerchant(capture(store), { name: 'Revoker' });
    const created = await createToken(capture(store), { merchantId: merchant.id });
    const r = capture(store);
    await revokeToken(r, { tokenId: created.token.id });
    expect(r.out).toEqual([`revoked token ${created.token.id}`]);
    const credentials = decodeToken(created.accessToken);
    expect(await tokenChecker(store)(credentials)).toMatchObject({ ok: false, status: 403 });

    const tj = capture(store, true);
    await listTokens(tj, { merchantId: merchant.id });
    expect(JSON.parse(tj.out.join('\n'))[0]).toMatchObject({ id: created.token.id });
    expect(JSON.parse(tj.out.join('\n'))[0].revokedAt).toMatch(/^\d{4}-/);

    await expectCliError(revokeToken(capture(store), { tokenId: created.token.id }), 1, /already revoked/);
    await expectCliError(revokeToken(capture(store), { tokenId: UNKNOWN_ID }), 1, /unknown/);
  });

  it('fails on unknown merchants and channels (exit code 1)', async () => {
    await expectCliError(
      createChannel(capture(store), { merchantId: UNKNOWN_ID, name: 'X' }),
      1,
      /unknown merchant/,
    );
    await expectCliError(listChannels(capture(store), { merchantId: UNKNOWN_ID }), 1, /unknown merchant/);
    await expectCliError(createToken(capture(store), { merchantId: UNKNOWN_ID }), 1, /unknown merchant/);
    await expectCliError(listTokens(capture(store), { merchantId: UNKNOWN_ID }), 1, /unknown merchant/);

    const mine = await createMerchant(capture(store), { name: 'Mine' });
    const theirs = await createMerchant(capture(store), { name: 'Theirs' });
    const theirChannel = await createChannel(capture(store), { merchantId: theirs.id, name: 'T' });
    // channels not the merchant's: the admin API's answer (a usage error naming --channel)
    await expectCliError(
      createToken(capture(store), { merchantId: mine.id, channelIds: [theirChannel.id] }),
      2,
      /--channel must list the merchant’s entityIds/,
    );
    await expectCliError(
      createToken(capture(store), { merchantId: mine.id, channelIds: [UNKNOWN_ID] }),
      2,
      /--channel must list the merchant’s entityIds/,
    );
    expect(await store.listTokens(mine.id)).toEqual([]);
  });

  it('refuses malformed ids and names (exit code 2)', async () => {
    await expectCliError(
      createChannel(capture(store), { merchantId: UNKNOWN_ID.toUpperCase(), name: 'X' }),
      2,
      /32 lowercase hex/,
    );
    await expectCliError(revokeToken(capture(store), { tokenId: 'abc' }), 2, /32 lowercase hex/);
    // the one rule of the back office (backoffice/names.ts): trimmed, 1 to 100, no control characters
    for (const name of ['', '   ', 'a\u0000b', 'evil\u202eeman', 'x'.repeat(101)])
      await expectCliError(createMerchant(capture(store), { name }), 2, /--name/);
    expect((await createMerchant(capture(store), { name: ' padded ' })).name).toBe('padded');
    expect((await createMerchant(capture(store), { name: 'Zoë’s Café 🍰' })).name).toBe('Zoë’s Café 🍰');
  });
});

describe('run (argv)', () => {
  async function gateway(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    let opened = 0;
    const code = await run(argv, {
      openStore: async () => {
        opened += 1;
        // Each invocation opens and closes its own store, like the real CLI.
        return openStore({ dataDir: join(root, 'data'), vault: testVault(), lockFolder: false });
      },
      output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    });
    return { code, out, err, opened };
  }

  it('runs a whole session: merchant, channel, settings, token, revoke', async () => {
    const m = await gateway(['merchant', 'create', '--name', 'Argv Shop']);
    expect(m.code).toBe(0);
    const merchantId = m.out[0]!;
    const c = await gateway(['channel', 'create', '--merchant', merchantId, '--name', 'C', '--3ds', 'on']);
    expect(c.code).toBe(0);
    const entityId = c.out[0]!;
    const s = await gateway([
      'channel',
      'set',
      entityId,
      '--throttle',
      '90',
      '--connector-url',
      'http://localhost:9000',
      '--connector-entity',
      UNKNOWN_ID,
      '--connector-token',
      'peer-token',
      '--json',
    ]);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.out.join('\n'))).toMatchObject({ threeDSecure: true, throttlePerMinute: 90 });
    const s2 = await gateway([
      'channel',
      'set',
      entityId,
      '--throttle',
      'default',
      '--no-connector',
      '--3ds',
      'off',
    ]);
    expect(s2.code).toBe(0);
    expect((await store.getChannel(entityId))?.settings).toEqual({ threeDSecure: false });

    const t = await gateway(['token', 'create', '--merchant', merchantId, '--channel', entityId, '--json']);
    expect(t.code).toBe(0);
    const token = JSON.parse(t.out.join('\n'));
    expect(token.channels).toEqual([entityId]);
    const r = await gateway(['token', 'revoke', token.id, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out.join('\n'))).toMatchObject({ id: token.id, revoked: true });
    expect((await gateway(['token', 'revoke', token.id])).code).toBe(1);
  });

  it.each([
    [['merchant', 'create'], /--name NAME is required/],
    [['merchant', 'create', '--name'], /--name needs a value/],
    [['merchant', 'create', '--name', 'A', '--name', 'B'], /--name given more than once/],
    [['merchant', 'create', '--name', 'A', '--bogus'], /unknown option --bogus/],
    [['merchant', 'create', '--name', 'A', 'extra'], /unexpected argument "extra"/],
    [['merchant', 'create', '--name', ''], /must not be empty/],
    [['merchant', 'list', '--json=yes'], /--json does not take a value/],
    [['merchant', 'delete'], /unknown action "delete"/],
    [['merchant'], /missing action/],
    [['shop', 'create'], /unknown command "shop"/],
    [[], /missing command/],
    [['channel', 'create', '--merchant', 'nothex', '--name', 'X'], /merchant id must be 32 lowercase hex/],
    [
      ['channel', 'create', '--merchant', UNKNOWN_ID, '--name', 'X', '--3ds', 'yes'],
      /--3ds must be "on" or "off"/,
    ],
    [['channel', 'create', '--merchant', UNKNOWN_ID, '--name', 'X', '--throttle', '0'], /throttle/],
    [['channel', 'create', '--merchant', UNKNOWN_ID, '--name', 'X', '--throttle', 'default'], /--throttle/],
    [['channel', 'create', '--merchant', UNKNOWN_ID, '--name', 'X', '--mode', 'PROD'], /--mode must be/],
    [['channel', 'set'], /missing ENTITY_ID/],
    [['channel', 'set', UNKNOWN_ID], /nothing to change/],
    [['channel', 'set', UNKNOWN_ID, '--throttle', '1.5'], /--throttle must be/],
    [['channel', 'set', UNKNOWN_ID, '--connector-url', 'https://x.example'], /must be given together/],
    [
      [
        'channel',
        'set',
        UNKNOWN_ID,
        '--no-connector',
        '--connector-url',
        'https://x',
        '--connector-entity',
        UNKNOWN_ID,
      ],
      /cannot be combined/,
    ],
    [
      [
        'channel',
        'set',
        UNKNOWN_ID,
        '--connector-url',
        'https://user:pw@x.example',
        '--connector-entity',
        UNKNOWN_ID,
        '--connector-token',
        't',
      ],
      /credentials/,
    ],
    [
      ['token', 'create', '--merchant', UNKNOWN_ID, '--channel', 'bad'],
      /channel id must be 32 lowercase hex/,
    ],
    [['token', 'revoke'], /missing TOKEN_ID/],
    [['token', 'revoke', UNKNOWN_ID, UNKNOWN_ID], /unexpected argument/],
    [['help', 'nothing'], /no help/],
  ])('usage error for %j (exit 2, store untouched)', async (argv, message) => {
    const result = await gateway(argv);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err[0]).toMatch(/^gateway: /);
    expect(result.err[0]).toMatch(message);
    expect(result.err.at(-1)).toMatch(/for usage\.$/);
    expect(result.opened).toBe(0);
  });

  it('reports failures with exit code 1, as JSON on stderr with --json', async () => {
    const human = await gateway(['channel', 'list', '--merchant', UNKNOWN_ID]);
    expect(human).toMatchObject({ code: 1, out: [], err: [`gateway: unknown merchant ${UNKNOWN_ID}`] });
    const json = await gateway(['token', 'list', '--merchant', UNKNOWN_ID, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.err.join('\n'))).toEqual({
      error: { message: `unknown merchant ${UNKNOWN_ID}`, exitCode: 1 },
    });
    const usage = await gateway(['--json', 'merchant', 'create']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.err.join('\n'))).toEqual({
      error: { message: '--name NAME is required', exitCode: 2 },
    });
  });

  it('fails with exit code 1 when the store cannot be opened', async () => {
    const err: string[] = [];
    const code = await run(['merchant', 'list'], {
      openStore: () => Promise.reject(new Error('disk on fire')),
      output: { out: () => {}, err: (l) => err.push(l) },
    });
    expect(code).toBe(1);
    expect(err).toEqual(['gateway: cannot open the store: disk on fire']);
  });

  it('prints help for the CLI, a command and an action, without opening the store', async () => {
    for (const argv of [['help'], ['--help'], ['-h']]) {
      const r = await gateway(argv);
      expect(r.code).toBe(0);
      expect(r.out.join('\n')).toContain('gateway channel set ENTITY_ID');
      expect(r.out.join('\n')).toContain('GATEWAY_DATA_DIR');
    }
    for (const argv of [
      ['help', 'token'],
      ['token', '--help'],
    ]) {
      const r = await gateway(argv);
      expect(r.code).toBe(0);
      expect(r.out.join('\n')).toMatch(/revoke\s+Revoke a token/);
    }
    for (const argv of [
      ['help', 'channel', 'set'],
      ['channel', 'set', '--help'],
      ['channel', 'set', 'bad-id', '--bogus', '-h'],
    ]) {
      const r = await gateway(argv);
      expect(r.code).toBe(0);
      expect(r.out[0]).toMatch(/^Usage: gateway channel set ENTITY_ID/);
      expect(r.out.join('\n')).toContain('--no-connector');
      expect(r.opened).toBe(0);
    }
  });
});

describe('bin/gateway', () => {
  it('creates a merchant in GATEWAY_DATA_DIR (saying it created the folder) and prints it as JSON', async () => {
    const dataDir = join(root, 'e2e-data');
    const result = spawnSync(join(REPO, 'bin', 'gateway'), ['merchant', 'create', '--name', 'X', '--json'], {
      cwd: tmpdir(), // not the repo: tsx must still resolve
      env: { ...process.env, GATEWAY_DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.stderr).toBe(`gateway: created the data folder ${dataDir}\n`);
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'X',
      dispatching: false,
      createdAt: expect.any(String),
    });
    const e2eStore = await openStore({ dataDir, vault: testVault() });
    try {
      expect(await e2eStore.getMerchant(printed.id)).toMatchObject({ id: printed.id, name: 'X' });
    } finally {
      await e2eStore.close();
    }
  });
});
