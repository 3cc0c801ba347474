import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createAuthFailures } from '../../../security/auth-failures';
import { resultOf, testEnvelope } from '../../../test-kit/middleware';
import { operatorToken } from '.';

const TOKEN = 'o'.repeat(32);

function app(token: string | undefined) {
  const deps = { env: testEnvelope(), authFailures: createAuthFailures({ limit: 2 }), trustProxy: true };
  const a = new Hono();
  a.use('/admin/*', operatorToken(deps, token));
  a.get('/admin/x', (c) => c.text('in'));
  return a;
}
const get = (a: Hono, authorization?: string) =>
  a.request('/admin/x', {
    headers: { 'x-forwarded-for': '10.0.0.9', ...(authorization === undefined ? {} : { authorization }) },
  });

describe('operatorToken', () => {
  it('lets the operator token through', async () => {
    expect(await (await get(app(TOKEN), `Bearer ${TOKEN}`)).text()).toBe('in');
  });

  it('is off without a configured token', async () => {
    const res = await get(app(undefined), `Bearer ${TOKEN}`);
    expect(res.status).toBe(401);
    expect((await resultOf(res)).description).toMatch(/admin API is off/);
  });

  it('counts wrong tokens per address: 401, then the shared 429', async () => {
    const a = app(TOKEN);
    expect((await get(a, 'Bearer wrong')).status).toBe(401);
    expect((await get(a)).status).toBe(401);
    const blocked = await get(a, `Bearer ${TOKEN}`);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).not.toBeNull();
    expect((await resultOf(blocked)).description).toBe(
      'Too many failed authentication attempts; retry later',
    );
  });
});
