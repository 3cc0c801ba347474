/**
 * Compression by Accept-Encoding (issue 34), through the real app: the widget script and the
 * OpenAPI document compressed (brotli, else gzip) with `Vary: Accept-Encoding`, their decoded
 * bytes unchanged (the script's Subresource Integrity and its ETag hold); small answers, clients
 * that take no encoding and event streams left as they are.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, testGateway } from '../../../test-kit/gateway';
import { chooseEncoding, compression, MIN_BYTES } from '.';

const manifest = JSON.parse(
  readFileSync(new URL('../../../../dist/widget/manifest.json', import.meta.url), 'utf8'),
) as {
  integrity: string;
};

const decode = (encoding: string | null, bytes: Buffer): Buffer =>
  encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;

describe('compression', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway();
  });
  afterAll(() => gw.cleanup());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await gw.app.request(`http://127.0.0.1${path}`, { headers });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('sends paymentWidgets.js brotli-compressed, its bytes and integrity unchanged, its ETag kept', async () => {
    const plain = await get('/v1/paymentWidgets.js');
    const br = await get('/v1/paymentWidgets.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.res.status).toBe(200);
    expect(br.res.headers.get('Content-Encoding')).toBe('br');
    expect(br.res.headers.get('Vary')).toMatch(/Accept-Encoding/);
    expect(plain.res.headers.get('Vary')).toMatch(/Accept-Encoding/);
    expect(plain.res.headers.get('Content-Encoding')).toBeNull();
    const decoded = decode('br', br.bytes);
    expect(decoded.equals(plain.bytes)).toBe(true);
    expect(`sha384-${createHash('sha384').update(decoded).digest('base64')}`).toBe(manifest.integrity);
    expect(br.res.headers.get('ETag')).toBe(plain.res.headers.get('ETag'));
    const again = await get('/v1/paymentWidgets.js', {
      'Accept-Encoding': 'br',
      'If-None-Match': br.res.headers.get('ETag')!,
    });
    expect(again.res.status).toBe(304);
    const gzip = await get('/v1/paymentWidgets.js', { 'Accept-Encoding': 'gzip' });
    expect(gzip.res.headers.get('Content-Encoding')).toBe('gzip');
    expect(decode('gzip', gzip.bytes).equals(plain.bytes)).toBe(true);
    console.info(
      `paymentWidgets.js: ${plain.bytes.length} bytes, brotli ${br.bytes.length}, gzip ${gzip.bytes.length}`,
    );
  });

  it('sends the OpenAPI document compressed, the same JSON once decoded', async () => {
    const plain = await get('/v1/openapi.json');
    const br = await get('/v1/openapi.json', { 'Accept-Encoding': 'br' });
    const gzip = await get('/v1/openapi.json', { 'Accept-Encoding': 'gzip' });
    expect(br.res.headers.get('Content-Encoding')).toBe('br');
    expect(gzip.res.headers.get('Content-Encoding')).toBe('gzip');
    expect(decode('br', br.bytes).equals(plain.bytes)).toBe(true);
    expect(JSON.parse(decode('gzip', gzip.bytes).toString('utf8'))).toHaveProperty('openapi');
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 5);
    console.info(
      `openapi.json: ${plain.bytes.length} bytes, brotli ${br.bytes.length}, gzip ${gzip.bytes.length}`,
    );
  });

  it('leaves a small answer, and a client that takes no encoding, uncompressed', async () => {
    const small = await get('/v1/no-such-path', { 'Accept-Encoding': 'br, gzip' });
    expect(small.res.status).toBe(404);
    expect(small.bytes.length).toBeLessThan(MIN_BYTES);
    expect(small.res.headers.get('Content-Encoding')).toBeNull();
    const refused = await get('/v1/openapi.json', { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.res.headers.get('Content-Encoding')).toBeNull();
    expect(JSON.parse(refused.bytes.toString('utf8'))).toHaveProperty('openapi');
  });

  it('chooses brotli, then gzip, by the client’s Accept-Encoding', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });

  it('never compresses an event stream', async () => {
    const app = new Hono();
    app.use('*', compression());
    app.get('/events', (c) =>
      c.body('data: x\n\n'.repeat(1000), 200, { 'Content-Type': 'text/event-stream' }),
    );
    const res = await app.request('/events', { headers: { 'Accept-Encoding': 'br' } });
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect((await res.text()).length).toBe(9000);
  });
});
