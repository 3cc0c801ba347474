/**
 * `gateway registration delete`: the same deletion as the admin API's (and DELETE
 * /v1/registrations/{id}'s), the same view in --json, audited as the CLI's user; refusals with
 * the CLI's exit codes.
 */
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/engine/core/ids';
import { openVault } from '../security/vault';
import { openStore } from '../storage';
import { ADMIN_TOKEN, adminCall } from '../test-kit/admin';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { TEST_DATA_KEY, type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { testVault } from '../test-kit/vault';
import { run } from './run';

let gw: TestGateway;
let m: TestMerchant;

beforeAll(async () => {
  gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
  m = await gw.addMerchant({ channels: 1 });
}, 60_000);
afterAll(() => gw?.cleanup());

/** One CLI invocation beside the running gateway (its folder, not its lock). */
async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    openStore: () =>
      openStore({ dataDir: gw.dataDir, vault: testVault(), lockFolder: false, checkpoints: 'inline' }),
    openVault: () => openVault({ dataDir: gw.dataDir, env: { GATEWAY_DATA_KEY: TEST_DATA_KEY } }),
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    dataDir: join(gw.dataDir, 'cli-files'),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const register = async () => {
  const res = await gw.post(
    '/v1/registrations',
    { entityId: m.entityId, ...VISA_CARD, 'card.cvv': '123' },
    { token: m.token },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
};

describe('gateway registration delete', () => {
  it('deletes a saved card as the admin API does, audited as the CLI user', async () => {
    const id = await register();
    const done = await cli(['registration', 'delete', id, '--merchant', m.merchantId, '--json']);
    expect(done.code, done.err).toBe(0);
    const view = JSON.parse(done.out);
    expect(view).toMatchObject({ id, status: 'deleted', last4: VISA_CARD['card.number'].slice(-4) });
    // the admin API lists the same view
    const listed = await adminCall(gw.app, 'GET', `/admin/v1/merchants/${m.merchantId}/registrations`, {
      token: ADMIN_TOKEN,
    });
    expect(listed.body.registrations.find((r: { id: string }) => r.id === id)).toEqual(view);
    const read = await gw.get(`/v1/registrations/${id}`, { entityId: m.entityId }, { token: m.token });
    expect(read.status).toBe(404);
    const audit = await adminCall(gw.app, 'GET', '/admin/v1/audit?action=registration.delete', {
      token: ADMIN_TOKEN,
    });
    expect(audit.body.entries[0]).toMatchObject({ actor: `cli:${userInfo().username}`, target: id });
  });

  it('refuses one deleted already (1), an unknown one (1) and a bad id (2)', async () => {
    const id = await register();
    expect((await cli(['registration', 'delete', id, '--merchant', m.merchantId])).out).toBe(
      `deleted registration ${id}`,
    );
    const again = await cli(['registration', 'delete', id, '--merchant', m.merchantId]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/deleted already/);
    expect((await cli(['registration', 'delete', newId(), '--merchant', m.merchantId])).code).toBe(1);
    expect((await cli(['registration', 'delete', 'nope', '--merchant', m.merchantId])).code).toBe(2);
  });
});
