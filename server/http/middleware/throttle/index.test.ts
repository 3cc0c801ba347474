import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccessToken, Channel, Checkout } from '../../../../shared/engine/core/model';
import { channelOf, testEnvelope } from '../../../test-kit/middleware';
import { createThrottle, throttle } from '.';

describe('throttle middleware', () => {
  function app(limit: number) {
    const deps = { env: testEnvelope(), throttle: createThrottle({ now: () => 0 }) };
    const ch = { ...channelOf('1'.repeat(32)), settings: { throttlePerMinute: limit } };
    const a = new Hono<{ Variables: { token?: AccessToken; channel: Channel; checkout?: Checkout } }>();
    a.use('/token/*', async (c, next) => {
      c.set('token', { id: c.req.header('x-token') ?? 't1' } as AccessToken);
      await next();
    });
    a.use('/checkout/*', async (c, next) => {
      c.set('checkout', { id: c.req.path.split('/')[2] } as Checkout);
      await next();
    });
    a.use(async (c, next) => {
      c.set('channel', ch);
      await next();
    });
    a.get('/token/:id', throttle(deps, 'op'), (c) => c.text('ok'));
    a.get('/checkout/:id', throttle(deps, 'op'), (c) => c.text('ok'));
    return a;
  }

  it('answers 429 with Retry-After past the channel limit, per token', async () => {
    const a = app(1);
    expect((await a.request('/token/p1')).status).toBe(200);
    const refused = await a.request('/token/p1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    const body = await refused.json();
    expect(body.id).toBe('p1');
    expect(body.result.code).toBe('800.120.100');
    expect((await a.request('/token/p1', { headers: { 'x-token': 't2' } })).status).toBe(200);
  });

  it('counts a checkout own requests without a token', async () => {
    const a = app(1);
    expect((await a.request('/checkout/A')).status).toBe(200);
    expect((await a.request('/checkout/A')).status).toBe(429);
    expect((await a.request('/checkout/B')).status).toBe(200);
  });
});
