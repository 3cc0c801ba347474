import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccessToken } from '../../../../shared/engine/core/model';
import type { Store } from '../../../../shared/engine/core/ports';
import { memoryStore } from '../../../test-kit/engine/memory-store';
import { MERCHANT, testEnvelope } from '../../../test-kit/middleware';
import { createIdempotency } from '.';

function app() {
  const store = memoryStore();
  const env = testEnvelope();
  const clock = { now: () => new Date(1_000_000) };
  const idempotency = createIdempotency(store, clock, env, { answer: () => new Response('unused') });
  const runs: Store[] = [];
  const a = new Hono<{ Variables: { body: string; token: AccessToken; store: Store } }>();
  a.use(async (c, next) => {
    c.set('body', await c.req.text());
    c.set('token', { merchantId: MERCHANT } as AccessToken);
    await next();
  });
  a.post('/pay', idempotency(), (c) => {
    runs.push(c.var.store);
    if (c.var.body === 'throw') throw new Error('boom');
    return env.send(c, 200, { code: '000.000.000', description: 'ok' }, { run: runs.length });
  });
  a.onError((_e, c) => c.text('failed', 500));
  return { a, store, runs };
}

const post = (a: Hono<never>, body: string, key?: string) =>
  a.request('/pay', { method: 'POST', body, headers: key === undefined ? {} : { 'idempotency-key': key } });

describe('idempotency', () => {
  it('without a key, the handler runs on the store every time', async () => {
    const { a, store, runs } = app();
    await post(a as never, 'x');
    await post(a as never, 'x');
    expect(runs).toEqual([store, store]);
  });

  it('replays the first answer to a key, marked Idempotent-Replayed', async () => {
    const { a, runs } = app();
    const first = await post(a as never, 'x', 'k1');
    const again = await post(a as never, 'x', 'k1');
    expect(runs).toHaveLength(1);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
  });

  it('refuses a key used for a different request, and a malformed key', async () => {
    const { a } = app();
    await post(a as never, 'x', 'k1');
    const other = await post(a as never, 'y', 'k1');
    expect(other.status).toBe(400);
    expect((await other.json()).result.parameterErrors[0].message).toBe(
      'was already used for a different request',
    );
    expect((await post(a as never, 'x', 'k\u0001')).status).toBe(400);
  });

  it('keeps nothing when the handler fails: a retry acts', async () => {
    const { a, runs } = app();
    expect((await post(a as never, 'throw', 'k2')).status).toBe(500);
    expect((await post(a as never, 'throw', 'k2')).status).toBe(500);
    expect(runs).toHaveLength(2);
  });
});
