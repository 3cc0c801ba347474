/**
 * Who may do what on the admin API, through HTTP: a viewer's state-changing request is 403 on
 * every route of the table; operator-only routes are 403 for merchant users; another merchant's
 * payment, token, webhook, user, channel and lists are 404 for a merchant admin; and each action
 * lands in the audit log, readable by the operator (all) and the merchant admin (theirs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, addUser, adminCall, type Session, signIn } from '../../../test-support/admin';
import { type TestGateway, type TestMerchant, testGateway } from '../../../test-support/gateway';
import { adminRouteTable } from '.';

const CARD = {
  paymentBrand: 'VISA',
  'card.number': '4200000000000000',
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '987',
};

let gw: TestGateway;
let a: TestMerchant;
let b: TestMerchant;
let viewer: Session;
let adminA: Session;
const op = (method: string, path: string, body?: unknown) =>
  adminCall(gw.app, method, path, { token: ADMIN_TOKEN, body });
const HEX = (n: number) => n.toString(16).padStart(32, '0');

let paymentB: string;
let tokenB: string;
let webhookB: string;
let userB: string;

beforeAll(async () => {
  gw = await testGateway({
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    egress: { allow: ['127.0.0.1'] },
    webhooks: { fetch: async () => new Response('ok'), autoStart: false },
  });
  a = await gw.addMerchant({ channels: 1 });
  b = await gw.addMerchant({ channels: 1 });
  await addUser(gw, 'viewer-a', 'merchant-viewer', a.merchantId);
  await addUser(gw, 'admin-a', 'merchant-admin', a.merchantId);
  userB = (await addUser(gw, 'admin-b', 'merchant-admin', b.merchantId)).id;
  viewer = await signIn(gw.app, 'viewer-a');
  adminA = await signIn(gw.app, 'admin-a');
  const paid = await gw.post(
    '/v1/payments',
    { entityId: b.entityId, amount: '10.00', currency: 'EUR', paymentType: 'PA', ...CARD },
    { token: b.token },
  );
  paymentB = paid.body.id;
  tokenB = b.tokenId;
  const hook = await op('POST', `/admin/v1/merchants/${b.merchantId}/webhooks`, {
    url: 'http://127.0.0.1:9/hook',
  });
  expect(hook.status).toBe(201);
  webhookB = hook.body.id;
}, 60_000);
afterAll(() => gw?.cleanup());

/** A route's path with its parameters filled for merchant `m`. */
const fill = (path: string, m: TestMerchant) =>
  path
    .replace(':merchantId', m.merchantId)
    .replace(':entityId', m.entityId)
    .replace(':date', '2026-11-23')
    .replace(':id', HEX(1));

describe('roles', () => {
  it('has a route table covering the contract', () => {
    const table = adminRouteTable();
    expect(table.length).toBeGreaterThan(30);
    expect(
      table
        .filter((r) => r.method !== 'GET')
        .every((r) => r.access !== 'read' || r.path.startsWith('/admin/v1/session')),
    ).toBe(true);
  });

  it('refuses a viewer every state-changing request (403), whatever it names', async () => {
    const changing = adminRouteTable().filter((r) => r.method !== 'GET' && r.access !== 'read');
    expect(changing.length).toBeGreaterThan(15);
    for (const r of changing) {
      const res = await viewer.call(r.method, fill(r.path, a), {});
      expect([r.method, r.path, res.status]).toEqual([r.method, r.path, 403]);
    }
    // reads are open to the viewer
    expect((await viewer.call('GET', `/admin/v1/merchants/${a.merchantId}/payments`)).status).toBe(200);
  });

  it('keeps operator-only routes to operators (403 for a merchant admin)', async () => {
    const only = adminRouteTable().filter((r) => r.access === 'operator');
    expect(only.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /admin/v1/merchants',
        'POST /admin/v1/merchants/:merchantId/channels',
        'PATCH /admin/v1/channels/:entityId',
      ]),
    );
    for (const r of only)
      expect((await adminA.call(r.method, fill(r.path, a), { name: 'x' })).status).toBe(403);
  });
});

describe('another merchant’s things', () => {
  it('are 404 for a merchant admin: payment, token, webhook, user, channel, lists', async () => {
    const m = b.merchantId;
    const paths: [string, string, unknown?][] = [
      ['GET', `/admin/v1/merchants/${m}/payments/${paymentB}`],
      ['POST', `/admin/v1/merchants/${m}/payments/${paymentB}/captures`, {}],
      ['DELETE', `/admin/v1/merchants/${m}/tokens/${tokenB}`],
      ['GET', `/admin/v1/merchants/${m}/webhooks/${webhookB}`],
      ['DELETE', `/admin/v1/merchants/${m}/webhooks/${webhookB}`],
      ['POST', `/admin/v1/users/${userB}/disable`],
      ['POST', `/admin/v1/users/${userB}/reset-password`],
      ['GET', `/admin/v1/channels/${b.entityId}`],
      ['GET', `/admin/v1/channels/${b.entityId}/risk-rules`],
      ['GET', `/admin/v1/merchants/${m}`],
      ['GET', `/admin/v1/merchants/${m}/payments`],
      ['GET', `/admin/v1/merchants/${m}/tokens`],
      ['GET', `/admin/v1/merchants/${m}/webhook-deliveries`],
      ['GET', `/admin/v1/merchants/${m}/settlements`],
      ['GET', `/admin/v1/merchants/${m}/schedules`],
    ];
    for (const [method, path, body] of paths) {
      const res = await adminA.call(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    // their own user list holds none of B's
    const users = await adminA.call('GET', '/admin/v1/users');
    expect(users.body.users.map((u: { username: string }) => u.username).sort()).toEqual([
      'admin-a',
      'viewer-a',
    ]);
    // nor may they create an operator or a user of B
    expect(
      (await adminA.call('POST', '/admin/v1/users', { username: 'sneaky', role: 'operator' })).status,
    ).toBe(403);
    expect(
      (
        await adminA.call('POST', '/admin/v1/users', {
          username: 'sneaky',
          role: 'merchant-viewer',
          merchantId: m,
        })
      ).status,
    ).toBe(404);
    // and the payment is still uncaptured
    const still = await op('GET', `/admin/v1/merchants/${m}/payments/${paymentB}`);
    expect(still.body.related).toEqual([]);
  });
});

describe('the audit log', () => {
  it('records each action: who, what, on what, when, from where; the operator reads all, an admin theirs', async () => {
    const created = await adminA.call('POST', '/admin/v1/users', {
      username: 'new-viewer',
      role: 'merchant-viewer',
    });
    expect(created.status).toBe(201);
    expect(created.body.password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const token = await adminA.call('POST', `/admin/v1/merchants/${a.merchantId}/tokens`, {});
    expect(token.status).toBe(201);
    await adminA.call('DELETE', `/admin/v1/merchants/${a.merchantId}/tokens/${token.body.id}`);
    await op('POST', '/admin/v1/merchants', { name: 'Audited' });

    const all = await op('GET', '/admin/v1/audit?limit=500');
    const actions = all.body.entries.map((e: { actor: string; action: string }) => `${e.actor} ${e.action}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'admin-a session.sign-in',
        'admin-a user.create',
        'admin-a token.create',
        'admin-a token.revoke',
        'operator-token merchant.create',
        'operator-token webhook.create',
      ]),
    );
    const entry = all.body.entries.find((e: { action: string }) => e.action === 'token.revoke');
    expect(entry).toMatchObject({ role: 'merchant-admin', target: token.body.id, merchantId: a.merchantId });
    expect(Date.parse(entry.at)).not.toBeNaN();
    expect('address' in entry).toBe(true);

    const theirs = await adminA.call('GET', '/admin/v1/audit?limit=500');
    expect(theirs.status).toBe(200);
    expect(theirs.body.entries.every((e: { merchantId: string }) => e.merchantId === a.merchantId)).toBe(
      true,
    );
    expect((await viewer.call('GET', '/admin/v1/audit')).status).toBe(403);
    // pages: next is the last id of a full page
    const first = await op('GET', '/admin/v1/audit?limit=2');
    const second = await op('GET', `/admin/v1/audit?limit=2&after=${first.body.next}`);
    expect(second.body.entries[0].id).toBeGreaterThan(first.body.entries[1].id);
  });
});
