import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { echo, testEnvelope } from '../../../test-kit/middleware';
import { body, createParse, PUBLIC_SUBMISSION_MAX_BYTES } from '.';

const env = testEnvelope();
const deps = { env, maxBodyBytes: 1000, maxPublicBodyBytes: 100 };

function app() {
  const a = new Hono();
  a.post('/body', body(deps), echo('body'));
  a.get('/body', body(deps), echo('body'));
  a.post('/public', body(deps, { public: true }), echo('body'));
  const parse = createParse({
    ...deps,
    egress: { checkUrl: (url) => (String(url).includes('127.0.0.1') ? 'loopback' : undefined) },
  });
  a.post('/parse', body(deps), parse('entity'), echo('request'));
  a.post('/parse-checkout', body(deps), parse('checkout'), echo('request'));
  return a;
}

const post = (path: string, text: string | Uint8Array, headers: Record<string, string> = {}) =>
  app().request(path, { method: 'POST', body: text as BodyInit, headers });

describe('body', () => {
  it('reads a POST body as text, and a GET its query string', async () => {
    expect(await (await post('/body', 'a=1&b=2')).json()).toEqual({ body: 'a=1&b=2' });
    expect(await (await app().request('/body?entityId=x')).json()).toEqual({ body: 'entityId=x' });
  });

  it('refuses a body past the limit with 413, a declared one unread', async () => {
    const res = await post('/body', 'x'.repeat(1001));
    expect(res.status).toBe(413);
    expect((await res.json()).result.parameterErrors).toEqual([
      { name: '(body)', value: null, message: 'is larger than 1000 bytes' },
    ]);
    expect((await post('/body', 'x', { 'content-length': '5000' })).status).toBe(413);
  });

  it('gives a public route the small limit without an Authorization header, the full one with', async () => {
    expect((await post('/public', 'x'.repeat(101))).status).toBe(413);
    expect((await post('/public', 'x'.repeat(101), { authorization: 'Bearer x' })).status).toBe(200);
    expect(PUBLIC_SUBMISSION_MAX_BYTES).toBe(64 * 1024);
  });

  it('answers invalid UTF-8 at once, in the decoder words', async () => {
    const res = await post('/body', new Uint8Array([0x61, 0x3d, 0xff]));
    expect(res.status).toBe(400);
    expect((await res.json()).result.parameterErrors).toEqual([
      { name: '(body)', value: null, message: 'is not valid UTF-8' },
    ]);
  });
});

describe('parse', () => {
  it('leaves the validated request on the context', async () => {
    const res = await post('/parse', `entityId=${'1'.repeat(32)}`);
    expect(await res.json()).toEqual({ request: { entityId: '1'.repeat(32) } });
  });

  it('answers 400 with parameterErrors for what the kind refuses', async () => {
    const res = await post('/parse', 'unknown.name=1');
    expect(res.status).toBe(400);
    expect((await res.json()).result.code).toBe('200.300.404');
  });

  it('refuses URLs the egress policy refuses', async () => {
    const res = await post(
      '/parse-checkout',
      `entityId=${'1'.repeat(32)}&amount=1.00&currency=EUR&paymentType=DB&notificationUrl=${encodeURIComponent('http://127.0.0.1/x')}`,
    );
    expect(res.status).toBe(400);
    expect((await res.json()).result.parameterErrors[0].name).toBe('notificationUrl');
  });
});
