import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWidgetBuilt } from '../../../widget/build/ensure';
import { buildFolder } from '../../test-kit/build-folder';
import { type TestGateway, testGateway } from '../../test-kit/gateway';
import { DASHBOARD_CSP, dashboardRoutes } from './dashboard';

const DOCUMENT =
  '<!doctype html><script type="module" src="/admin/assets/index-abc.js"></script><link rel="stylesheet" href="/admin/assets/style-abc.css">';

const dir = buildFolder(
  'dashboard-',
  { 'index.html': DOCUMENT, 'assets/index-abc.js': 'console.log(1);', 'assets/style-abc.css': 'body{}' },
  { builtAt: '2026-11-24T00:00:00Z' },
);

const app = (at = dir()) => {
  const a = new Hono();
  dashboardRoutes(a, { dir: at });
  return a;
};

describe('dashboard routes', () => {
  it('serves the document at /admin/ with its strict CSP, never framed, revalidated on every use', async () => {
    const res = await app().request('/admin/');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(DOCUMENT);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(DASHBOARD_CSP);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends /admin to /admin/', async () => {
    const res = await app().request('/admin');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/admin/');
  });

  it('serves the hashed assets as immutable, with their types', async () => {
    const js = await app().request('/admin/assets/index-abc.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const css = await app().request('/admin/assets/style-abc.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves only what the manifest lists', async () => {
    for (const path of [
      '/admin/assets/../secret.txt',
      '/admin/assets/missing.js',
      '/admin/assets/manifest.json',
    ]) {
      const res = await app().request(path);
      expect(res.status, path).toBe(404);
    }
  });

  it('says when the dashboard is not built (503)', async () => {
    const res = await app(join(dir(), 'nothing-here')).request('/admin/');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
  });
});

describe('the dashboard on the gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    await ensureWidgetBuilt();
    gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: 'o'.repeat(40) } });
  }, 120_000);
  afterAll(() => gw?.cleanup());

  it('is served on both environments’ addresses without the admin API’s credentials', async () => {
    for (const at of [gw, gw.live]) {
      const page = await at.get('/admin/');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      const assets = [...page.text.matchAll(/(?:src|href)="(\/admin\/assets\/[\w.-]+)"/g)].map((m) => m[1]!);
      expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
      expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
      for (const asset of assets) expect((await at.get(asset)).status, asset).toBe(200);
    }
  });

  it('leaves the admin API behind its authentication', async () => {
    const res = await gw.get('/admin/v1/merchants');
    expect(res.status).toBe(401);
  });
});
