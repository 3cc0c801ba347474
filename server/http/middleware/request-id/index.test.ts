/**
 * X-Request-Id: the caller's well-formed id is kept, anything else replaced by a new one, and the
 * id is on every answer (a route's, the 404, the error handler's) and on the request's log lines.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../app';
import { createLogger } from '../../../security/logger';
import { testGateway } from '../../../test-kit/gateway';
import { MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER, requestId, requestLogger } from '.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const app = createApp({ commit: '0'.repeat(40), builtAt: new Date(0) });
const get = (path: string, id?: string) =>
  app.request(path, id === undefined ? {} : { headers: { [REQUEST_ID_HEADER]: id } });

describe('X-Request-Id', () => {
  it('echoes the id the caller sent, on a route and on a 404', async () => {
    const ok = await get('/v1/resultcodes', 'shop-order-42_retry=1');
    expect(ok.status).toBe(200);
    expect(ok.headers.get(REQUEST_ID_HEADER)).toBe('shop-order-42_retry=1');
    const missing = await get('/v1/nothing-here', 'abc');
    expect(missing.status).toBe(404);
    expect(missing.headers.get(REQUEST_ID_HEADER)).toBe('abc');
  });

  it('gives a new id to a request without one, a different one each time', async () => {
    const a = (await get('/v1/resultcodes')).headers.get(REQUEST_ID_HEADER);
    const b = (await get('/v1/nothing-here')).headers.get(REQUEST_ID_HEADER);
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('replaces an id that is too long or has characters outside A-Z a-z 0-9 _ - =', async () => {
    for (const bad of ['x'.repeat(MAX_REQUEST_ID_LENGTH + 1), 'a b', 'id"><script>', 'ünïcode', 'a/b']) {
      const id = (await get('/v1/resultcodes', bad)).headers.get(REQUEST_ID_HEADER);
      expect(id, bad).toMatch(UUID);
    }
    const longest = 'y'.repeat(MAX_REQUEST_ID_LENGTH);
    expect((await get('/v1/resultcodes', longest)).headers.get(REQUEST_ID_HEADER)).toBe(longest);
  });

  it('is on refusals of the real gateway and on the log lines of its requests', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', stream: { write: (l: string) => lines.push(l) } });
    const gw = await testGateway({ logger });
    try {
      const refused = await gw.send('POST', '/v1/payments', 'amount=1.00', {
        headers: { [REQUEST_ID_HEADER]: 'req-401' },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get(REQUEST_ID_HEADER)).toBe('req-401');
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(entries).toContainEqual(
        expect.objectContaining({
          requestId: 'req-401',
          msg: 'request',
          method: 'POST',
          route: '/v1/payments',
          status: 401,
        }),
      );
    } finally {
      await gw.cleanup();
    }
  });

  it("is on an error answer and on the error handler's log line", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', stream: { write: (l: string) => lines.push(l) } });
    const app = new Hono();
    app.use('*', requestId());
    app.get('/boom', () => {
      throw new Error('connector exploded');
    });
    app.onError((error, c) => {
      requestLogger(c, logger).error('unhandled error', { error });
      return c.json({ result: { code: '900.100.100' } }, 500);
    });
    const res = await app.request('/boom', { headers: { [REQUEST_ID_HEADER]: 'req-500' } });
    expect(res.status).toBe(500);
    expect(res.headers.get(REQUEST_ID_HEADER)).toBe('req-500');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 'error', msg: 'unhandled error', requestId: 'req-500' }),
    ]);
  });
});
