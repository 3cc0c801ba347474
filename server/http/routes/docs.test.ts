/**
 * The documentation pages over HTTP: each is rendered from the catalogue it describes, carries a
 * strict CSP, and loads nothing from elsewhere (the renderer's own CDN logo included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILIATION_COLUMNS } from '../../../shared/settlement';
import { LOCALES } from '../../../widget/language';
import { ENROLLED_CARDS } from '../../processors/simulator/access-control-server';
import { REDIRECT_METHODS } from '../../processors/simulator/redirect-methods';
import { type TestGateway, testGateway } from '../../test-kit/gateway';
import { guideFiles } from './guides';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
});

const PAGES = ['/docs', '/docs/widget', '/docs/test-data', '/docs/webhooks', '/docs/reconciliation'];

describe('the docs pages', () => {
  it.each(PAGES)('%s: HTML with a CSP allowing only the gateway, no address elsewhere', async (path) => {
    const res = await gw.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    // every src and href is the gateway's own (or a data: URL)
    const links = [...res.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link, link).toMatch(/^(\/|data:)/);
  });

  it('/docs/widget lists the options, callbacks, CSS classes and variables and every language', async () => {
    const { text } = await gw.get('/docs/widget');
    for (const name of ['inlineFlow', 'onBeforeSubmitCard', 'onError', 'wpwl-button', '--wpwl-primary'])
      expect(text).toContain(name);
    for (const locale of LOCALES) expect(text).toContain(`<code>${locale}</code>`);
    expect(text).toContain('frame-src {gateway}');
  });

  it('/docs/test-data lists every 3-D Secure test card and redirect method', async () => {
    const { text } = await gw.get('/docs/test-data');
    for (const card of Object.keys(ENROLLED_CARDS)) expect(text).toContain(card);
    for (const brand of Object.keys(REDIRECT_METHODS)) expect(text).toContain(brand);
    expect(text).toContain('customParameters[forceResultCode]');
  });

  it('/docs/webhooks shows decryption in Node, PHP and Python', async () => {
    const { text } = await gw.get('/docs/webhooks');
    expect(text).toContain('createDecipheriv(&#39;aes-256-gcm&#39;');
    expect(text).toContain('openssl_decrypt(');
    expect(text).toContain('AESGCM(');
  });

  it('/docs/reconciliation lists every column in order', async () => {
    const { text } = await gw.get('/docs/reconciliation');
    let at = 0;
    for (const column of RECONCILIATION_COLUMNS) {
      const found = text.indexOf(`<code>${column}</code>`, at);
      expect(found, column).toBeGreaterThan(at);
      at = found;
    }
  });

  it('serves the renderer from the gateway, without its CDN logo; an unknown asset is 404', async () => {
    const redoc = await gw.get('/docs/assets/redoc.standalone.js');
    expect(redoc.status).toBe(200);
    expect(redoc.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(redoc.text).toContain('Redoc');
    expect(redoc.text).not.toContain('cdn.redoc.ly');
    expect((await gw.get('/docs/assets/docs.js')).text).toContain("Redoc.init(\n  '/v1/openapi.json'");
    expect((await gw.get('/docs/assets/../../package.json')).status).toBe(404);
    expect((await gw.get('/docs/assets/nothing.js')).status).toBe(404);
  });
});

describe('the guides at /docs/guides (docs/*.md)', () => {
  const guides = guideFiles();

  it('serves the index with a link to every guide, under the docs pages’ CSP', async () => {
    const res = await gw.get('/docs/guides');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const name of guides.keys())
      if (name !== '') expect(res.text).toContain(`href="/docs/guides/${name}"`);
  });

  it('renders every guide, its links between guides rewritten and its anchors GitHub’s', async () => {
    expect(guides.size).toBeGreaterThanOrEqual(10);
    for (const name of guides.keys()) {
      const res = await gw.get(`/docs/guides/${name}`.replace(/\/$/, ''));
      expect(res.status, name).toBe(200);
      const hrefs = [...res.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
      for (const href of hrefs) expect(href, `${name}: ${href}`).toMatch(/^(\/|#|https?:\/\/|data:)/);
      expect(
        hrefs.filter((href) => href.includes('.md')),
        name,
      ).toEqual([]);
    }
    const start = await gw.get('/docs/guides/getting-started');
    expect(start.text).toContain('href="/docs/guides/operations#security"');
    expect((await gw.get('/docs/guides/operations')).text).toContain('id="security"');
    // a file of the repository the gateway does not serve: shown as its path
    expect((await gw.get('/docs/guides/connectors')).text).toContain('<code>../server/connectors/README.md');
  });

  it('serves the screenshots the guides show; an unknown guide or file is 404', async () => {
    const shot = await gw.get('/docs/guides/screenshots/admin-sign-in-1280.png');
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
    expect((await gw.get('/docs/guides/no-such-guide')).status).toBe(404);
    expect((await gw.get('/docs/guides/screenshots/..%2F..%2Fpackage.json')).status).toBe(404);
  });

  it('gives /v1/openapi.json an ETag and answers 304 to it', async () => {
    const first = await gw.get('/v1/openapi.json');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await gw.send('GET', '/v1/openapi.json', undefined, {
      headers: { 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
  });
});
