/**
 * Signing in to the admin API: sessions (cookie, CSRF, idle and absolute expiry), wrong
 * passwords and the lock after ten (account-security.test.ts: the attacks on them), TOTP as a second factor, and the demo users of the
 * developer default. Through HTTP, with an injected clock.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../../security/totp';
import { ADMIN_TOKEN, addUser, adminCall, PASSWORD, signIn } from '../../../test-kit/admin';
import { fakeClock } from '../../../test-kit/clock';
import { type TestGateway, testGateway } from '../../../test-kit/gateway';

let now = new Date('2026-11-24T10:00:00Z');
const clock = { now: () => now };
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
let gw: TestGateway;
let merchantId: string;

beforeAll(async () => {
  gw = await testGateway({ clock, env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
  merchantId = (await gw.addMerchant({ channels: 1 })).merchantId;
}, 60_000);
afterAll(() => gw?.cleanup());

describe('the session', () => {
  it('signs in and out: cookie HttpOnly SameSite=Strict Path=/admin, then 401', async () => {
    await addUser(gw, 'alice', 'merchant-admin', merchantId);
    const res = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'alice', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      /^gw_admin=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    expect(res.body.user).toMatchObject({
      username: 'alice',
      role: 'merchant-admin',
      merchantId,
      totpEnabled: false,
    });
    expect(res.body.user.passwordHash).toBeUndefined();
    const session = await signIn(gw.app, 'alice');
    const read = await session.call('GET', '/admin/v1/session');
    expect(read.status).toBe(200);
    expect(read.body.csrfToken).toBe(session.csrf);
    const out = await session.call('DELETE', '/admin/v1/session');
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^gw_admin=; Path=\/admin; .*Max-Age=0/);
    expect((await session.call('GET', '/admin/v1/session')).status).toBe(401);
  });

  it('is Secure over TLS (the live address)', async () => {
    await addUser(gw, 'tls-user', 'operator');
    const res = await adminCall(gw.live.app, 'POST', '/admin/v1/session', {
      base: 'https://live.localhost',
      body: { username: 'tls-user', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/; Secure$/);
  });

  it('refuses a wrong password and an unknown user alike (401), and missing fields (400)', async () => {
    const wrong = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'alice', password: 'nope' },
    });
    const unknown = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'nobody', password: 'x' },
    });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.result.description).toBe(unknown.body.result.description);
    const missing = await adminCall(gw.app, 'POST', '/admin/v1/session', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
      'username',
      'password',
    ]);
  });

  it('locks the account after ten wrong passwords for 30 minutes, answered as a wrong password, then lets it in', async () => {
    await addUser(gw, 'bob', 'operator');
    for (let i = 0; i < 10; i++)
      expect(
        (
          await adminCall(gw.app, 'POST', '/admin/v1/session', {
            body: { username: 'bob', password: `wrong-${i}` },
          })
        ).status,
      ).toBe(401);
    // the right password does not open a locked account, and says nothing of the lock
    const locked = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'bob', password: PASSWORD },
    });
    expect(locked.status).toBe(401);
    expect(locked.headers.get('retry-after')).toBeNull();
    advance(29 * 60_000);
    expect(
      (
        await adminCall(gw.app, 'POST', '/admin/v1/session', {
          body: { username: 'bob', password: PASSWORD },
        })
      ).status,
    ).toBe(401);
    advance(60_000 + 1);
    expect((await signIn(gw.app, 'bob')).user.username).toBe('bob');
    const audit = await adminCall(gw.app, 'GET', '/admin/v1/audit?after=0&limit=500', { token: ADMIN_TOKEN });
    const bobs = audit.body.entries
      .filter((e: { actor: string }) => e.actor === 'bob')
      .map((e: { action: string }) => e.action);
    expect(bobs.filter((a: string) => a === 'session.sign-in-failed')).toHaveLength(9);
    expect(bobs.filter((a: string) => a === 'session.sign-in-locked')).toHaveLength(3);
    expect(bobs.at(-1)).toBe('session.sign-in');
  });

  it('ends after 15 minutes idle, and 12 hours after sign-in however busy', async () => {
    await addUser(gw, 'carol', 'operator');
    const idle = await signIn(gw.app, 'carol');
    advance(14 * 60_000);
    expect((await idle.call('GET', '/admin/v1/session')).status).toBe(200);
    advance(14 * 60_000);
    expect((await idle.call('GET', '/admin/v1/session')).status).toBe(200);
    advance(15 * 60_000 + 1);
    expect((await idle.call('GET', '/admin/v1/session')).status).toBe(401);

    const busy = await signIn(gw.app, 'carol');
    for (let h = 0; h < 12 * 6 - 1; h++) {
      advance(10 * 60_000);
      expect((await busy.call('GET', '/admin/v1/session')).status).toBe(200);
    }
    advance(10 * 60_000 + 1);
    expect((await busy.call('GET', '/admin/v1/session')).status).toBe(401);
  });

  it('refuses a state-changing request without the CSRF token (403) and takes it with it', async () => {
    const session = await signIn(gw.app, 'alice');
    const without = await session.call('POST', '/admin/v1/session/totp', {}, false);
    expect(without.status).toBe(403);
    expect(without.body.result.description).toMatch(/X-CSRF-Token/);
    const other = await signIn(gw.app, 'carol');
    const wrong = await adminCall(gw.app, 'POST', '/admin/v1/session/totp', {
      cookie: session.cookie,
      csrf: other.csrf,
    });
    expect(wrong.status).toBe(403);
    expect((await session.call('POST', '/admin/v1/session/totp', { password: PASSWORD })).status).toBe(200);
  });

  it('changes the password: the current one is needed, the new one 12 characters at least', async () => {
    await addUser(gw, 'dave', 'operator');
    const elsewhere = await signIn(gw.app, 'dave');
    const session = await signIn(gw.app, 'dave');
    const short = await session.call('POST', '/admin/v1/session/password', {
      currentPassword: 'wrong',
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
      'currentPassword',
      'newPassword',
    ]);
    const changed = await session.call('POST', '/admin/v1/session/password', {
      currentPassword: PASSWORD,
      newPassword: 'a much longer passphrase',
    });
    expect(changed.status).toBe(200);
    // the other session ends; this one stays
    expect((await elsewhere.call('GET', '/admin/v1/session')).status).toBe(401);
    expect((await session.call('GET', '/admin/v1/session')).status).toBe(200);
    await expect(signIn(gw.app, 'dave')).rejects.toThrow(/401/);
    expect((await signIn(gw.app, 'dave', 'a much longer passphrase')).user.username).toBe('dave');
  });
});

describe('TOTP', () => {
  it('is set up, confirmed, then needed at sign-in; a code is good once', async () => {
    await addUser(gw, 'erin', 'operator');
    const session = await signIn(gw.app, 'erin');
    const setup = await session.call('POST', '/admin/v1/session/totp', { password: PASSWORD });
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*erin\?secret=[A-Z2-7]{32}&/);
    const secret: string = setup.body.secret;
    // not active until confirmed
    expect((await signIn(gw.app, 'erin')).user.totpEnabled).toBe(false);
    expect((await session.call('POST', '/admin/v1/session/totp/confirm', { code: '000000' })).status).toBe(
      400,
    );
    const confirmed = await session.call('POST', '/admin/v1/session/totp/confirm', {
      code: totpCode(secret, now),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user.totpEnabled).toBe(true);

    advance(30_000);
    const noCode = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'erin', password: PASSWORD },
    });
    expect(noCode.status).toBe(401);
    expect(noCode.body.totpRequired).toBe(true);
    const code = totpCode(secret, now);
    expect((await signIn(gw.app, 'erin', PASSWORD, code)).user.totpEnabled).toBe(true);
    // the same code again: refused
    const replay = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'erin', password: PASSWORD, totp: code },
    });
    expect(replay.status).toBe(401);
  });
});

describe('the demo users (developer default)', () => {
  it('are written to demo-users.json (0600) and sign in; production creates none', async () => {
    const file = join(gw.dataDir, 'demo-users.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const users = JSON.parse(readFileSync(file, 'utf8')) as {
      username: string;
      password: string;
      role: string;
    }[];
    expect(users.map((u) => u.role)).toEqual(['operator', 'merchant-admin']);
    for (const u of users) expect((await signIn(gw.app, u.username, u.password)).user.role).toBe(u.role);
    expect(gw.demoUsers?.map((u) => u.username)).toEqual(users.map((u) => u.username));

    const production = await testGateway({ env: { NODE_ENV: 'production', GATEWAY_TRUST_PROXY: '1' } });
    try {
      expect(production.demoUsers).toBeUndefined();
      expect(await production.store.countAdminUsers()).toBe(0);
      expect(existsSync(join(production.dataDir, 'demo-users.json'))).toBe(false);
    } finally {
      await production.cleanup();
    }
  });
});

describe('the operator token', () => {
  it('still opens the admin API, without CSRF', async () => {
    const res = await adminCall(gw.app, 'POST', '/admin/v1/merchants', {
      token: ADMIN_TOKEN,
      body: { name: 'By token' },
    });
    expect(res.status).toBe(201);
    expect((await adminCall(gw.app, 'GET', '/admin/v1/merchants')).status).toBe(401);
  });
});

describe('per-address throttling', () => {
  it('slows one address guessing at many usernames (429), not another address', async () => {
    // a fake clock: the failures do not drain while a loaded machine runs the ten attempts
    const proxied = await testGateway({ clock: fakeClock(), env: { GATEWAY_TRUST_PROXY: '1' } });
    try {
      const attempt = (username: string, address: string) =>
        proxied.app.request('http://localhost/admin/v1/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ username, password: 'not the password' }),
        });
      for (let i = 0; i < 10; i++) expect((await attempt(`user-${i}`, '10.1.1.1')).status).toBe(401);
      const blocked = await attempt('user-10', '10.1.1.1');
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).not.toBeNull();
      expect((await attempt('user-10', '10.2.2.2')).status).toBe(401);
    } finally {
      await proxied.cleanup();
    }
  });
});
