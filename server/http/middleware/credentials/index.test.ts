import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccessToken } from '../../../../shared/engine/core/model';
import { createAuthFailures } from '../../../security/auth-failures';
import { newToken } from '../../../security/tokens';
import { memoryStore } from '../../../test-kit/engine/memory-store';
import { merchantFixture, resultOf, testEnvelope } from '../../../test-kit/middleware';
import { authenticator, credentials, optionalCredentials, tokenChecker } from '.';

describe('tokenChecker', () => {
  async function setup() {
    const store = memoryStore();
    const t = newToken();
    await store.insertToken({
      id: 'tok1',
      merchantId: 'm'.repeat(32),
      userId: t.userId,
      secretHash: t.secretHash,
      channelIds: [],
      revokedAt: null,
      createdAt: new Date(0),
    });
    let clock = 1_000;
    const check = tokenChecker(store, () => clock, 5_000);
    return { store, t, check, advance: (ms: number) => (clock += ms) };
  }

  it('a wrong secret fails even right after the right one succeeded (the cache is per secret)', async () => {
    const { t, check } = await setup();
    const right = { kind: 'credentials', userId: t.userId, secret: t.secret } as const;
    expect(await check(right)).toMatchObject({ ok: true });
    expect(await check(right)).toMatchObject({ ok: true });
    expect(await check({ ...right, secret: `${t.secret.slice(0, -1)}x` })).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it('a revoked token is refused once its cached entry has expired', async () => {
    const { store, t, check, advance } = await setup();
    const right = { kind: 'credentials', userId: t.userId, secret: t.secret } as const;
    expect(await check(right)).toMatchObject({ ok: true });
    await store.revokeToken('tok1', new Date());
    advance(5_001);
    expect(await check(right)).toMatchObject({ ok: false, status: 403 });
  });
});

describe('credentials middleware', () => {
  async function app(limit = 10) {
    const f = await merchantFixture();
    const authenticate = authenticator({
      store: f.store,
      env: testEnvelope(),
      authFailures: createAuthFailures({ limit }),
      environment: 'test',
      trustProxy: true,
    });
    const a = new Hono<{ Variables: { body: string; token: AccessToken } }>();
    a.use(async (c, next) => {
      c.set('body', await c.req.text());
      await next();
    });
    a.post('/', credentials(authenticate), (c) => c.text(c.var.token.id));
    a.post('/optional', optionalCredentials(authenticate), (c) => c.text(String(c.get('token')?.id)));
    return { a, f };
  }
  const post = (a: Hono<never>, path: string, init: RequestInit = {}) =>
    a.request(path, { method: 'POST', ...init, headers: { 'x-forwarded-for': '10.0.0.1', ...init.headers } });

  it('leaves the token a Bearer header names on the context', async () => {
    const { a, f } = await app();
    expect(await (await post(a as never, '/', { headers: { authorization: f.bearer } })).text()).toBe('tok1');
  });

  it('reads legacy credentials from the body', async () => {
    const { a, f } = await app();
    const legacy = (password: string) =>
      post(a as never, '/', {
        body: `authentication.userId=${f.token.userId}&authentication.password=${encodeURIComponent(password)}`,
      });
    expect(await (await legacy(f.secret)).text()).toBe('tok1');
    expect((await legacy('wrong')).status).toBe(403);
  });

  it('answers 401 without credentials, undefined when they are optional', async () => {
    const { a } = await app();
    expect((await post(a as never, '/')).status).toBe(401);
    expect(await (await post(a as never, '/optional')).text()).toBe('undefined');
  });

  it('throttles failed logins per address: 429 with Retry-After before looking at the credentials', async () => {
    const { a, f } = await app(2);
    const wrong = { headers: { authorization: 'Bearer d3Jvbmd8c2VjcmV0' } };
    expect((await post(a as never, '/', wrong)).status).toBe(403);
    expect((await post(a as never, '/', wrong)).status).toBe(403);
    const blocked = await post(a as never, '/', { headers: { authorization: f.bearer } });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).not.toBeNull();
    expect((await resultOf(blocked)).description).toBe(
      'Too many failed authentication attempts; retry later',
    );
  });
});
