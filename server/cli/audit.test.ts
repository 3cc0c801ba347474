/**
 * Every change the CLI makes is in the audit log, as the admin API's are: run through `run`
 * (argv in) on the store of a running gateway, then read back through that gateway's admin API
 * (`GET /admin/v1/audit`), with who (`cli:<os user>`), what, on what and from where (`cli`).
 */
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openVault } from '../security/vault';
import { openStore } from '../storage';
import { ADMIN_TOKEN, adminCall } from '../test-kit/admin';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { form, TEST_DATA_KEY, type TestGateway, testGateway } from '../test-kit/gateway';
import { testVault } from '../test-kit/vault';
import { run } from './run';

let gw: TestGateway;
const actor = `cli:${userInfo().username}`;

beforeAll(async () => {
  gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
}, 60_000);
afterAll(() => gw?.cleanup());

/** One CLI invocation beside the running gateway (its folder, not its lock). */
async function cli(argv: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    openStore: () =>
      openStore({ dataDir: gw.dataDir, vault: testVault(), lockFolder: false, checkpoints: 'inline' }),
    openVault: () => openVault({ dataDir: gw.dataDir, env: { GATEWAY_DATA_KEY: TEST_DATA_KEY } }),
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    dataDir: join(gw.dataDir, 'cli-files'),
    readStdin: async () => stdin,
  });
  expect(code, err.join('\n')).toBe(0);
  return out;
}

/** The CLI's entries in the order they were made: the log is newest first unless followed with `after`. */
async function cliEntries() {
  const res = await adminCall(gw.app, 'GET', '/admin/v1/audit?after=0&limit=500', { token: ADMIN_TOKEN });
  expect(res.status).toBe(200);
  return (res.body.entries as { actor: string; action: string; target: string; address: string }[]).filter(
    (e) => e.actor === actor,
  );
}

describe('the audit log of the CLI', () => {
  it('has an entry for each change the CLI makes, by cli:<os user> from cli', async () => {
    const [merchantId] = await cli(['merchant', 'create', '--name', 'Audited Shop']);
    await cli(['merchant', 'set', merchantId!, '--dispatching', 'on']);
    const [entityId] = await cli(['channel', 'create', '--merchant', merchantId!, '--name', 'Audited_Web']);
    await cli(['channel', 'set', entityId!, '--3ds', 'on']);
    await cli(['channel', 'risk', entityId!, '--clear']);
    const json = JSON.parse((await cli(['token', 'create', '--merchant', merchantId!, '--json'])).join('\n'));

    const paid = await gw.send(
      'POST',
      '/v1/payments',
      form({ entityId: entityId!, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD }),
      { token: json.accessToken },
    );
    expect(paid.status).toBe(200);
    await cli(['token', 'revoke', json.id]);
    const [webhookId] = await cli(['webhook', 'add', '--merchant', merchantId!, '--inbox']);
    await cli(['webhook', 'remove', '--merchant', merchantId!, webhookId!]);
    const [chargebackId] = await cli(['chargeback', 'book', '--merchant', merchantId!, paid.body.id]);
    await cli(['chargeback', 'reverse', '--merchant', merchantId!, chargebackId!]);
    await cli(['settlement', 'run', '--date', '2026-01-01', '--merchant', merchantId!]);

    await cli(['user', 'create', '--username', 'cli-made', '--role', 'operator'], 'a piped passphrase\n');
    await cli(['user', 'reset-password', 'cli-made']);
    await cli(['user', 'unlock', 'cli-made']);
    await cli(['user', 'disable', 'cli-made']);
    // reads are not changes
    await cli(['merchant', 'list']);
    await cli(['user', 'list']);

    const entries = await cliEntries();
    expect(entries.map((e) => e.action)).toEqual([
      'merchant.create',
      'merchant.update',
      'channel.create',
      'channel.update',
      'channel.risk-rules',
      'token.create',
      'token.revoke',
      'webhook.create',
      'webhook.delete',
      'payment.CB',
      'payment.CR',
      'settlement.run',
      'user.create',
      'user.reset-password',
      'user.unlock',
      'user.disable',
    ]);
    expect(new Set(entries.map((e) => e.address))).toEqual(new Set(['cli']));
    expect(entries[0]!.target).toBe(merchantId);
    expect(entries[6]!.target).toBe(json.id);
    expect(entries[9]!.target).toBe(chargebackId);
  });

  it('gets back an operator every operator is locked out of: gateway user unlock', async () => {
    await cli(
      ['user', 'create', '--username', 'last-operator', '--role', 'operator'],
      'a piped passphrase\n',
    );
    const signIn = (password: string) =>
      adminCall(gw.app, 'POST', '/admin/v1/session', { body: { username: 'last-operator', password } });
    for (let i = 0; i < 10; i++) expect((await signIn(`wrong guess ${i}`)).status).toBe(401);
    expect((await signIn('a piped passphrase')).status).toBe(401);
    expect(await cli(['user', 'unlock', 'last-operator'])).toEqual(['unlocked last-operator']);
    expect((await signIn('a piped passphrase')).status).toBe(200);
  });
});

describe('gateway audit list', () => {
  it('pages the log newest first as the admin API does, saying how to read on', async () => {
    const err: string[] = [];
    const out: string[] = [];
    const code = await run(['audit', 'list', '--actor', actor, '--limit', '2'], {
      openStore: () =>
        openStore({ dataDir: gw.dataDir, vault: testVault(), lockFolder: false, checkpoints: 'inline' }),
      output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    });
    expect(code, err.join('\n')).toBe(0);
    const api = await adminCall(gw.app, 'GET', `/admin/v1/audit?actor=${actor}&limit=2`, {
      token: ADMIN_TOKEN,
    });
    const [first, second] = api.body.entries as { id: number; action: string }[];
    expect(out[0]).toMatch(/^ID\s+AT\s+ACTOR\s+ACTION\s+TARGET\s+ADDRESS$/);
    expect(out.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([String(first!.id), String(second!.id)]);
    expect(err).toEqual([`more entries: add --before ${api.body.next}`]);
    // the next page, from the CLI, is the admin API's next page
    const next = JSON.parse(
      (await cli(['audit', 'list', '--actor', actor, '--before', api.body.next, '--json'])).join('\n'),
    );
    const apiNext = await adminCall(gw.app, 'GET', `/admin/v1/audit?actor=${actor}&before=${api.body.next}`, {
      token: ADMIN_TOKEN,
    });
    expect(next).toEqual(apiNext.body.entries);
    expect(next.length).toBeGreaterThan(0);
  });
});

describe('failed operator-token attempts', () => {
  it('are audited, at most two entries per address a minute, with their count', async () => {
    const before = (await adminCall(gw.app, 'GET', '/admin/v1/audit?limit=500', { token: ADMIN_TOKEN })).body
      .entries.length;
    for (let i = 0; i < 30; i++)
      expect(
        (await adminCall(gw.app, 'GET', '/admin/v1/merchants', { token: `guess-${i}` })).status,
      ).toBeGreaterThanOrEqual(401);
    const res = await adminCall(gw.app, 'GET', '/admin/v1/audit?limit=500', { token: ADMIN_TOKEN });
    const failed = (res.body.entries as { action: string; actor: string; target: string }[]).filter(
      (e) => e.action === 'operator-token.failed',
    );
    expect(failed).toEqual([expect.objectContaining({ actor: 'operator-token', target: 'attempts=1' })]);
    expect(res.body.entries.length - before).toBe(1);
  });
});
