/**
 * The back office's faces agree: each action run through the CLI (argv in, `--json`, on the
 * store of a running gateway) and through the admin API (HTTP against the same gateway) with the
 * same input gives the same outcome, the same error (the fields named), the same JSON shape,
 * and an audit entry from each.
 */
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/run';
import { openStore } from '../storage';
import { ADMIN_TOKEN, adminCall } from '../test-kit/admin';
import { type TestGateway, testGateway } from '../test-kit/gateway';
import { testVault } from '../test-kit/vault';

let gw: TestGateway;
const CLI_ACTOR = `cli:${userInfo().username}`;
const UNKNOWN_ID = '0123456789abcdef0123456789abcdef';

beforeAll(async () => {
  gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
}, 60_000);
afterAll(() => gw?.cleanup());

/** What a face answered, as the table compares it. */
interface Answer {
  /** ok, invalid (the fields named), or not-found (what). */
  readonly outcome: 'ok' | 'invalid' | 'not-found';
  readonly fields: readonly string[];
  // biome-ignore lint/suspicious/noExplicitAny: the answers are compared field by field
  readonly value: any;
}

async function viaCli(argv: readonly string[]): Promise<Answer> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run([...argv, '--json'], {
    openStore: () =>
      openStore({ dataDir: gw.dataDir, vault: testVault(), lockFolder: false, checkpoints: 'inline' }),
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    readStdin: async () => undefined,
  });
  if (code === 0) return { outcome: 'ok', fields: [], value: JSON.parse(out.join('\n')) };
  const error = JSON.parse(err.find((l) => l.startsWith('{')) ?? '{}').error ?? {};
  const fields = ((error.parameterErrors ?? []) as { name: string }[]).map((e) => e.name);
  return { outcome: code === 2 ? 'invalid' : 'not-found', fields, value: error };
}

async function viaApi(method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await adminCall(gw.app, method, path, { token: ADMIN_TOKEN, body });
  if (res.status < 300) {
    // the envelope every admin answer carries is the face's, not the action's
    const { result, buildNumber, timestamp, ndc, ...value } = res.body;
    return { outcome: 'ok', fields: [], value };
  }
  const fields = ((res.body?.result?.parameterErrors ?? []) as { name: string }[]).map((e) => e.name);
  return { outcome: res.status === 404 ? 'not-found' : 'invalid', fields, value: res.body };
}

async function auditActors(action: string, target: string): Promise<string[]> {
  const res = await adminCall(gw.app, 'GET', '/admin/v1/audit?limit=500', { token: ADMIN_TOKEN });
  return (res.body.entries as { actor: string; action: string; target: string }[])
    .filter((e) => e.action === action && e.target === target)
    .map((e) => e.actor);
}

const keys = (value: object): string[] => Object.keys(value).sort();
let merchantId = '';

describe('merchant create', () => {
  it.each([
    ['a plain name', 'Faces Shop', 'ok', []],
    ['a name with surrounding spaces (trimmed)', '  Padded Shop  ', 'ok', []],
    ['101 characters', 'x'.repeat(101), 'invalid', ['name']],
    ['a control character', 'bell\u0007shop', 'invalid', ['name']],
    ['an invisible character', 'evil\u202eeman', 'invalid', ['name']],
    ['empty', '', 'invalid', ['name']],
    ['blank', '   ', 'invalid', ['name']],
  ] as const)('%s: the same answer from the CLI and the admin API', async (_, name, outcome, fields) => {
    const cli = await viaCli(['merchant', 'create', '--name', name]);
    const api = await viaApi('POST', '/admin/v1/merchants', { name });
    expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
    expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
    if (outcome !== 'ok') return;
    expect(keys(cli.value)).toEqual(keys(api.value));
    expect(cli.value.name).toBe(name.trim());
    expect(api.value.name).toBe(name.trim());
    expect(cli.value.dispatching).toBe(false);
    expect(await auditActors('merchant.create', cli.value.id)).toEqual([CLI_ACTOR]);
    expect(await auditActors('merchant.create', api.value.id)).toEqual(['operator-token']);
    merchantId = api.value.id;
  });

  it('lists merchants in the same shape', async () => {
    const cli = await viaCli(['merchant', 'list']);
    const api = await viaApi('GET', '/admin/v1/merchants');
    expect(cli.outcome).toBe('ok');
    const fromApi = api.value.merchants.find((m: { id: string }) => m.id === merchantId);
    const fromCli = cli.value.find((m: { id: string }) => m.id === merchantId);
    expect(fromCli).toEqual(fromApi);
  });
});

describe('channel create', () => {
  it.each([
    ['a plain channel', (): string => merchantId, 'Web_Faces', 'ok', []],
    ['a name of 101 characters', (): string => merchantId, 'c'.repeat(101), 'invalid', ['name']],
    ['a control character in the name', (): string => merchantId, 'tab\there', 'invalid', ['name']],
    ['an unknown merchant', (): string => UNKNOWN_ID, 'Web', 'not-found', []],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, merchant, name, outcome, fields) => {
      const cli = await viaCli(['channel', 'create', '--merchant', merchant(), '--name', name]);
      const api = await viaApi('POST', `/admin/v1/merchants/${merchant()}/channels`, { name });
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      expect(keys(cli.value)).toEqual(keys(api.value));
      expect(await auditActors('channel.create', cli.value.entityId)).toEqual([CLI_ACTOR]);
      expect(await auditActors('channel.create', api.value.entityId)).toEqual(['operator-token']);
    },
  );
});

describe('channel update', () => {
  let entityId = '';
  beforeAll(async () => {
    const made = await viaApi('POST', `/admin/v1/merchants/${merchantId}/channels`, { name: 'Web_Update' });
    entityId = made.value.entityId;
  });

  it.each([
    ['3-D Secure on', (): string => entityId, ['--3ds', 'on'], { threeDSecure: true }, 'ok', []],
    [
      'an unknown brand',
      (): string => entityId,
      ['--brands', 'NOPE_PAY'],
      { brands: 'NOPE_PAY' },
      'invalid',
      ['brands'],
    ],
    [
      'an unknown channel',
      (): string => UNKNOWN_ID,
      ['--3ds', 'on'],
      { threeDSecure: true },
      'not-found',
      [],
    ],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, channel, flags, body, outcome, fields) => {
      const cli = await viaCli(['channel', 'set', channel(), ...flags]);
      const api = await viaApi('PATCH', `/admin/v1/channels/${channel()}`, body);
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      expect(cli.value).toEqual(api.value);
      expect(await auditActors('channel.update', entityId)).toEqual([CLI_ACTOR, 'operator-token']);
    },
  );
});

describe('token create and list', () => {
  it.each([
    ['a test token', (): string => merchantId, 'test', 'ok', []],
    ['an unknown environment', (): string => merchantId, 'staging', 'invalid', ['environment']],
    ['an unknown merchant', (): string => UNKNOWN_ID, 'test', 'not-found', []],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, merchant, environment, outcome, fields) => {
      const cli = await viaCli(['token', 'create', '--merchant', merchant(), '--environment', environment]);
      const api = await viaApi('POST', `/admin/v1/merchants/${merchant()}/tokens`, { environment });
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      expect(keys(cli.value)).toEqual(keys(api.value));
      expect(await auditActors('token.create', cli.value.id)).toEqual([CLI_ACTOR]);
      expect(await auditActors('token.create', api.value.id)).toEqual(['operator-token']);
    },
  );

  it('lists tokens in the same shape', async () => {
    const cli = await viaCli(['token', 'list', '--merchant', merchantId]);
    const api = await viaApi('GET', `/admin/v1/merchants/${merchantId}/tokens`);
    expect(cli.outcome).toBe('ok');
    expect(cli.value.length).toBeGreaterThan(0);
    expect(cli.value).toEqual(api.value.tokens);
  });
});

describe('user create', () => {
  it.each([
    ['a new operator', 'faces-operator', 'ok', []],
    ['the same username again', 'faces-operator', 'invalid', ['username']],
    ['a malformed username', 'no spaces allowed', 'invalid', ['username']],
  ] as const)('%s: the same answer from the CLI and the admin API', async (_, username, outcome, fields) => {
    // the CLI first: the second row's duplicate is the first row's user, made by each face
    const cli = await viaCli(['user', 'create', '--username', username, '--role', 'operator']);
    const api = await viaApi('POST', '/admin/v1/users', { username: `${username}-api`, role: 'operator' });
    const again = await viaApi('POST', '/admin/v1/users', { username, role: 'operator' });
    expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
    if (outcome === 'ok') {
      expect(api.outcome).toBe('ok');
      expect(keys(cli.value)).toEqual(keys(api.value));
      expect(keys(cli.value.user)).toEqual(keys(api.value.user));
      expect(await auditActors('user.create', cli.value.user.id)).toEqual([CLI_ACTOR]);
      expect(await auditActors('user.create', api.value.user.id)).toEqual(['operator-token']);
    } else expect({ outcome: again.outcome, fields: again.fields }).toEqual({ outcome, fields });
  });
});
