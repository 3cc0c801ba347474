import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { buildFolder } from '../../test-kit/build-folder';
import { tempFolder } from '../../test-kit/temp-folders';
import { envelope } from '../middleware/envelope';
import { FRAME_CSP } from './frame-csp';
import { widgetIntegrity, widgetRoutes } from './widget';

const SCRIPT = '(function(){console.log("widget")})();';
const integrity = `sha384-${createHash('sha384').update(SCRIPT).digest('base64')}`;
/** The card field's script, inline in its document as the build writes it. */
const FIELD_SCRIPT = 'parent.postMessage("é",origin);';
const fieldScriptHash = `'sha256-${createHash('sha256').update(FIELD_SCRIPT).digest('base64')}'`;

const dir = buildFolder(
  'widget-',
  {
    'paymentWidgets.js': SCRIPT,
    'paymentWidgets.css': '.wpwl-form{}',
    'frames/card-field.html': `<!doctype html><script type="module">${FIELD_SCRIPT}</script>`,
    'frames/wallet-sheet.html':
      '<!doctype html><script type="module" crossorigin src="./assets/wallet-sheet-abc.js"></script>',
    'frames/assets/wallet-sheet-abc.js': 'void 0;',
    'parts/OneClick-Ab12Cd34Ef.js': 'export default function(need){return{}}',
    'locales/de.json': '{"labels":{}}',
  },
  { integrity, builtAt: '2026-11-21T00:00:00Z' },
);

const env = envelope(`${'a'.repeat(40)}@2026-11-21 10:00:00 +0000`, () => new Date('2026-11-21T12:00:00Z'));
const app = () => {
  const a = new Hono();
  widgetRoutes(a, env, { dir: dir() });
  return a;
};

describe('widget routes', () => {
  it('serves paymentWidgets.js to any origin as JavaScript, cacheable, with an ETag', async () => {
    const res = await app().request('/v1/paymentWidgets.js?checkoutId=ABC.local01');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(SCRIPT);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const etag = res.headers.get('etag')!;
    const again = await app().request('/v1/paymentWidgets.js', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it('serves the card-field document with its strict CSP, its inline script allowed by its hash alone', async () => {
    const res = await app().request('/v1/widget/frames/card-field.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src 'self' ${fieldScriptHash};`);
    expect(csp).toBe(FRAME_CSP.replace("script-src 'self'", `script-src 'self' ${fieldScriptHash}`));
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain('unsafe');
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('serves a frame document without inline scripts (the wallet sheet) with no hash in its CSP, and hashed assets for a year', async () => {
    const res = await app().request('/v1/widget/frames/wallet-sheet.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(FRAME_CSP);
    expect(FRAME_CSP).toContain("script-src 'self';");
    const asset = await app().request('/v1/widget/frames/assets/wallet-sheet-abc.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toBeNull();
  });

  it('serves the widget’s parts as JavaScript to any origin (a module: CORS), cached for a year under their hashed names', async () => {
    const res = await app().request('/v1/widget/parts/OneClick-Ab12Cd34Ef.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await app().request('/v1/widget/parts/OneClick-other.js')).status).toBe(404);
  });

  // The two card frames load one URL each (`?number`, `?cvv`): the query names no other file.
  it('serves the frame document whatever its query', async () => {
    const res = await app().request('/v1/widget/frames/card-field.html?number');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(fieldScriptHash);
  });

  it('serves the CSS and the languages to any origin', async () => {
    const css = await app().request('/v1/widget/paymentWidgets.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const de = await app().request('/v1/widget/locales/de.json');
    expect(de.status).toBe(200);
    expect(de.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(de.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves only what the manifest lists', async () => {
    for (const path of [
      '/v1/widget/secret.txt',
      '/v1/widget/manifest.json',
      '/v1/widget/../package.json',
      '/v1/widget/%2e%2e/secret.txt',
      '/v1/widget/locales/xx.json',
    ]) {
      const res = await app().request(path);
      expect(res.status, path).toBe(404);
    }
  });

  it('answers the fast-checkout integrity in the envelope, and exports it for checkout creation', async () => {
    const res = await app().request('/v1/fastcheckout/integrity');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body.integrity).toBe(integrity);
    expect(body.result.code).toBe('000.000.100');
    expect(body.ndc).toMatch(/^[0-9a-f]{32}$/);
    expect(widgetIntegrity(dir())).toBe(integrity);
  });

  it('says clearly when the widget is not built', async () => {
    const empty = await tempFolder('widget-none-');
    const a = new Hono();
    widgetRoutes(a, env, { dir: empty });
    expect((await a.request('/v1/paymentWidgets.js')).status).toBe(503);
    expect((await a.request('/v1/fastcheckout/integrity')).status).toBe(503);
    expect(widgetIntegrity(empty)).toBeUndefined();
  });

  it('is registered in the gateway app', async () => {
    const gateway = createApp({ commit: 'a'.repeat(40), builtAt: new Date() });
    for (const path of [
      '/v1/paymentWidgets.js',
      '/v1/fastcheckout/integrity',
      '/v1/widget/frames/card-field.html',
    ]) {
      expect((await gateway.request(path)).status, path).not.toBe(404);
    }
  });
});
