/**
 * The dashboard's accounts against PCI DSS v4 requirement 8, each test an attack through HTTP:
 * guessing passwords to learn which usernames exist or to lock someone out, replacing a second
 * factor from a left-open session, signing a browser into an attacker's account from another
 * site (login CSRF), trivial and common passwords, a session left idle, and a second factor an
 * operator requires for everyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../../security/totp';
import { ADMIN_TOKEN, addUser, adminCall, PASSWORD, signIn } from '../../../test-kit/admin';
import { type TestGateway, testGateway } from '../../../test-kit/gateway';

let now = new Date('2026-11-24T10:00:00Z');
const clock = { now: () => now };
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
let gw: TestGateway;
let merchantId: string;
let nextAddress = 1;
/** A fresh client address each call: what an attacker with many addresses has. */
const freshAddress = () => `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

beforeAll(async () => {
  gw = await testGateway({ clock, env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_TRUST_PROXY: '1' } });
  merchantId = (await gw.addMerchant({ channels: 1 })).merchantId;
}, 60_000);
afterAll(() => gw?.cleanup());

const attempt = (
  body: Record<string, unknown>,
  address = freshAddress(),
  headers: Record<string, string> = {},
) =>
  gw.app.request('http://localhost/admin/v1/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...headers },
    body: JSON.stringify(body),
  });

/** An answer as a client can compare it: status, Retry-After and the body without its clock fields. */
async function seen(res: Response) {
  const body = (await res.json()) as Record<string, unknown>;
  const { timestamp: _t, ndc: _n, ...rest } = body;
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: rest };
}

describe('guessing passwords', () => {
  it('answers a locked account exactly as an unknown username (no existence oracle)', async () => {
    await addUser(gw, 'victim', 'operator');
    for (let i = 0; i < 10; i++) await attempt({ username: 'victim', password: `guess-${i}` });
    for (let i = 0; i < 10; i++) await attempt({ username: 'no-such-user', password: `guess-${i}` });
    const known = await seen(await attempt({ username: 'victim', password: 'guess-10' }));
    const unknown = await seen(await attempt({ username: 'no-such-user', password: 'guess-10' }));
    expect(known).toEqual(unknown);
    expect(known.status).toBe(401);
  });

  it('slows one address guessing at one account (429), known or not, and not another address', async () => {
    await addUser(gw, 'target', 'merchant-admin', merchantId);
    const from = freshAddress();
    const statuses = async (username: string, address: string) => {
      const out: number[] = [];
      for (let i = 0; i < 6; i++) out.push((await attempt({ username, password: `x-${i}` }, address)).status);
      return out;
    };
    const known = await statuses('target', from);
    const unknown = await statuses('not-a-user', freshAddress());
    expect(known).toEqual(unknown);
    expect(known.at(-1)).toBe(429);
    // the real user, from their own address, is not slowed by it
    expect((await attempt({ username: 'target', password: PASSWORD })).status).toBe(200);
  });

  it('does not slow a user with a second factor who signs in in two steps, again and again', async () => {
    await addUser(gw, 'two-step', 'operator');
    const first = await signIn(gw.app, 'two-step');
    const setup = await first.call('POST', '/admin/v1/session/totp', { password: PASSWORD });
    await first.call('POST', '/admin/v1/session/totp/confirm', { code: totpCode(setup.body.secret, now) });
    const from = freshAddress();
    for (let i = 0; i < 6; i++) {
      advance(30_000);
      expect((await attempt({ username: 'two-step', password: PASSWORD }, from)).status).toBe(401);
      const code = totpCode(setup.body.secret, now);
      expect((await attempt({ username: 'two-step', password: PASSWORD, totp: code }, from)).status).toBe(
        200,
      );
    }
  });

  it('locks for at least 30 minutes, until an operator unlocks the account', async () => {
    const locked = await addUser(gw, 'lockme', 'operator');
    for (let i = 0; i < 10; i++) await attempt({ username: 'lockme', password: `guess-${i}` });
    expect((await attempt({ username: 'lockme', password: PASSWORD })).status).toBe(401);
    advance(29 * 60_000);
    expect((await attempt({ username: 'lockme', password: PASSWORD })).status).toBe(401);
    const other = await addUser(gw, 'unlocker', 'operator');
    const operator = await signIn(gw.app, other.username);
    const unlock = await operator.call('POST', `/admin/v1/users/${locked.id}/unlock`, {});
    expect(unlock.status).toBe(200);
    expect((await attempt({ username: 'lockme', password: PASSWORD })).status).toBe(200);
    const audit = await adminCall(gw.app, 'GET', '/admin/v1/audit?limit=500', { token: ADMIN_TOKEN });
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ actor: 'unlocker', action: 'user.unlock', target: locked.id }),
    );
  });
});

describe('the second factor', () => {
  it('cannot be replaced from a session without the password and a current code', async () => {
    await addUser(gw, 'has-totp', 'operator');
    const first = await signIn(gw.app, 'has-totp');
    const setup = await first.call('POST', '/admin/v1/session/totp', { password: PASSWORD });
    expect(setup.status).toBe(200);
    const secret: string = setup.body.secret;
    expect(
      (await first.call('POST', '/admin/v1/session/totp/confirm', { code: totpCode(secret, now) })).status,
    ).toBe(200);
    advance(30_000);
    // someone at the left-open session tries to put their own authenticator in its place
    const hijack = await first.call('POST', '/admin/v1/session/totp', {});
    expect(hijack.status).toBe(400);
    expect(hijack.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
      'password',
      'code',
    ]);
    const wrongCode = await first.call('POST', '/admin/v1/session/totp', {
      password: PASSWORD,
      code: '000000',
    });
    expect(wrongCode.status).toBe(400);
    const owner = await first.call('POST', '/admin/v1/session/totp', {
      password: PASSWORD,
      code: totpCode(secret, now),
    });
    expect(owner.status).toBe(200);
  });
});

describe('login CSRF', () => {
  it('refuses a sign-in sent as text/plain (what a cross-site form can send)', async () => {
    await addUser(gw, 'attacker', 'merchant-viewer', merchantId);
    const res = await gw.app.request('http://localhost/admin/v1/session', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-forwarded-for': freshAddress() },
      body: JSON.stringify({ username: 'attacker', password: PASSWORD }),
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a sign-in or a change from another site (Origin, Sec-Fetch-Site)', async () => {
    const origin = await attempt({ username: 'attacker', password: PASSWORD }, freshAddress(), {
      origin: 'https://evil.example',
    });
    expect(origin.status).toBe(403);
    expect(origin.headers.get('set-cookie')).toBeNull();
    const site = await attempt({ username: 'attacker', password: PASSWORD }, freshAddress(), {
      'sec-fetch-site': 'cross-site',
    });
    expect(site.status).toBe(403);
    const same = await attempt({ username: 'attacker', password: PASSWORD }, freshAddress(), {
      origin: 'http://localhost',
      'sec-fetch-site': 'same-origin',
    });
    expect(same.status).toBe(200);
  });

  it('refuses a state-changing request that is not JSON, even with the operator token', async () => {
    const res = await gw.app.request('http://localhost/admin/v1/merchants', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${ADMIN_TOKEN}`,
      },
      body: 'name=Form',
    });
    expect(res.status).toBe(415);
  });
});

describe('passwords', () => {
  it.each([
    ['aaaaaaaaaaaa'],
    ['            '],
    ['123456789012'],
    ['abcdefghijkl'],
    ['password1234'],
    ['Qwertyuiop12'],
    ['my-pwuser-is-long'],
  ])('refuses %j (trivial, common or the username inside it)', async (password) => {
    const res = await adminCall(gw.app, 'POST', '/admin/v1/users', {
      token: ADMIN_TOKEN,
      body: { username: 'pwuser', role: 'operator', password },
    });
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors).toEqual([
      { name: 'password', value: null, message: expect.any(String) },
    ]);
  });
});

describe('sessions', () => {
  it('end after 15 minutes idle', async () => {
    await addUser(gw, 'idler', 'operator');
    const session = await signIn(gw.app, 'idler');
    advance(14 * 60_000);
    expect((await session.call('GET', '/admin/v1/session')).status).toBe(200);
    advance(15 * 60_000 + 1);
    expect((await session.call('GET', '/admin/v1/session')).status).toBe(401);
  });
});

describe('a second factor for everyone (GATEWAY_ADMIN_REQUIRE_TOTP=on)', () => {
  it('lets a user without one do nothing before setting it up', async () => {
    const strict = await testGateway({
      clock,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_ADMIN_REQUIRE_TOTP: 'on' },
    });
    try {
      await addUser(strict, 'newbie', 'operator');
      const session = await signIn(strict.app, 'newbie');
      expect(session.user.totpEnabled).toBe(false);
      const read = await session.call('GET', '/admin/v1/session');
      expect(read.body.totpSetupRequired).toBe(true);
      const blocked = await session.call('GET', '/admin/v1/merchants');
      expect(blocked.status).toBe(403);
      const setup = await session.call('POST', '/admin/v1/session/totp', { password: PASSWORD });
      expect(setup.status).toBe(200);
      const confirm = await session.call('POST', '/admin/v1/session/totp/confirm', {
        code: totpCode(setup.body.secret, now),
      });
      expect(confirm.status).toBe(200);
      expect((await session.call('GET', '/admin/v1/merchants')).status).toBe(200);
    } finally {
      await strict.cleanup();
    }
  });
});
