import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { csrfTokenOf, sessionHash } from '../../../backoffice/users/sessions';
import { createAuthFailures } from '../../../security/auth-failures';
import type { AdminSession, AdminUserStore } from '../../../storage/admin-users/store';
import { adminUser } from '../../../test-kit/fixtures/admin-users';
import { resultOf, testEnvelope } from '../../../test-kit/middleware';
import type { AdminEnv } from '../../context';
import { adminSession } from '.';

const TOKEN = 'o'.repeat(32);
const SECRET = 's'.repeat(43);
const user = adminUser({
  id: 'u1',
  username: 'ann',
  role: 'merchant-viewer',
  merchantId: 'm1',
  passwordHash: 'x',
  createdAt: new Date(0),
});

function app() {
  const sessions = new Map<string, AdminSession>([
    [
      sessionHash(SECRET),
      {
        idHash: sessionHash(SECRET),
        userId: 'u1',
        createdAt: new Date(0),
        lastSeenAt: new Date(0),
        address: null,
      },
    ],
  ]);
  const store = {
    getAdminSession: async (h: string) => sessions.get(h),
    getAdminUser: async (id: string) => (id === 'u1' ? user : undefined),
    touchAdminSession: async () => {},
    deleteAdminSession: async (h: string) => void sessions.delete(h),
  } as unknown as AdminUserStore;
  const deps = {
    env: testEnvelope(),
    authFailures: createAuthFailures(),
    trustProxy: false,
    store,
    clock: { now: () => new Date(60_000) },
  };
  const a = new Hono<AdminEnv>();
  a.use('/admin/v1/*', adminSession(deps, TOKEN));
  a.all('/admin/v1/x', (c) => c.text(`${c.var.admin.actor} ${c.var.admin.role}`));
  a.post('/admin/v1/session', (c) => c.text('sign-in'));
  return a;
}
const call = (method: string, headers: Record<string, string> = {}, path = '/admin/v1/x') =>
  app().request(path, { method, headers });

describe('adminSession', () => {
  it('takes the operator’s token as the operator, without CSRF', async () => {
    expect(await (await call('POST', { authorization: `Bearer ${TOKEN}` })).text()).toBe(
      'operator-token operator',
    );
    expect((await call('POST', { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('takes a session; its state-changing requests need the session’s X-CSRF-Token', async () => {
    const cookie = `other=1; gw_admin=${SECRET}`;
    expect(await (await call('GET', { cookie })).text()).toBe('ann merchant-viewer');
    const refused = await call('POST', { cookie });
    expect(refused.status).toBe(403);
    expect((await resultOf(refused)).description).toMatch(/X-CSRF-Token/);
    expect((await call('DELETE', { cookie, 'x-csrf-token': 'forged' })).status).toBe(403);
    expect((await call('POST', { cookie, 'x-csrf-token': csrfTokenOf(SECRET) })).status).toBe(200);
  });

  it('answers 401 without either, and lets signing in through', async () => {
    expect((await call('GET')).status).toBe(401);
    expect((await call('GET', { cookie: `gw_admin=${'t'.repeat(43)}` })).status).toBe(401);
    expect(await (await call('POST', {}, '/admin/v1/session')).text()).toBe('sign-in');
  });
});
