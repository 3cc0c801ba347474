import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AdminPrincipal } from '../../../backoffice/users/principal';
import { testEnvelope } from '../../../test-kit/middleware';
import type { AdminEnv } from '../../context';
import { type Access, adminRole, allowed } from '.';

const principal = (role: AdminPrincipal['role'], merchantId: string | null): AdminPrincipal => ({
  kind: 'session',
  role,
  merchantId,
  userId: 'u',
  actor: 'u',
});

function app(who: AdminPrincipal, access: Access) {
  const a = new Hono<AdminEnv>();
  a.use('*', async (c, next) => {
    c.set('admin', who);
    await next();
  });
  a.post('/m/:merchantId/x', adminRole(testEnvelope(), access), (c) => c.text('in'));
  a.post('/x', adminRole(testEnvelope(), access), (c) => c.text('in'));
  return a;
}

describe('adminRole', () => {
  it('lets each role do what its access allows', () => {
    expect(
      ['operator', 'merchant-admin', 'merchant-viewer'].map((r) =>
        ['read', 'write', 'operator'].map((a) => allowed(r, a as Access)),
      ),
    ).toEqual([
      [true, true, true],
      [true, true, false],
      [true, false, false],
    ]);
  });

  it('answers 403 past the role, and 404 for another merchant before anything', async () => {
    const viewer = principal('merchant-viewer', 'm1');
    expect((await app(viewer, 'read').request('/m/m1/x', { method: 'POST' })).status).toBe(200);
    expect((await app(viewer, 'write').request('/m/m1/x', { method: 'POST' })).status).toBe(403);
    expect((await app(viewer, 'write').request('/m/m2/x', { method: 'POST' })).status).toBe(404);
    const admin = principal('merchant-admin', 'm1');
    expect((await app(admin, 'write').request('/m/m1/x', { method: 'POST' })).status).toBe(200);
    expect((await app(admin, 'operator').request('/x', { method: 'POST' })).status).toBe(403);
    expect(
      (await app(principal('operator', null), 'operator').request('/m/any/x', { method: 'POST' })).status,
    ).toBe(200);
  });
});
