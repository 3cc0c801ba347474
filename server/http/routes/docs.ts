/**
 * The documentation, served by the gateway itself (nothing is loaded from elsewhere):
 * GET /v1/openapi.json (server/openapi/document.ts), /docs (Redoc's standalone bundle from
 * node_modules rendering it) and the reference pages /docs/widget, /docs/test-data, /docs/webhooks,
 * /docs/reconciliation, each rendered once from the catalogues they describe; the guides of docs/
 * (the Markdown a clone reads on GitHub) at /docs/guides (./guides.ts). Strict CSP.
 *
 * What a production gateway shows without credentials (issue 30): the merchants' API, not the
 * admin API (its document is /admin/v1/openapi.json, behind the admin API's authentication:
 * adminDocumentRoute); and the test cards only where they work, the test environment's address
 * (decisions: two environments; live channels are never simulated, so the live address has no
 * test-card page in any mode).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Context, Env, Hono } from 'hono';
import type { Environment } from '../../../shared/engine/core/model';
import { type Addresses, type Audience, openApiDocument, routeDocsFor } from '../../openapi/document';
import { DOCS_CSP, layout } from '../../openapi/pages/layout';
import { reconciliationPage } from '../../openapi/pages/reconciliation';
import { testDataPage } from '../../openapi/pages/test-data';
import { webhooksPage } from '../../openapi/pages/webhooks';
import { widgetPage } from '../../openapi/pages/widget';
import type { RouteDeps } from '../context';
import type { AdminKit } from './admin/shared';
import { GUIDES_PATH, guidePages } from './guides';

const require = createRequire(import.meta.url);

/**
 * Redoc's sidebar shows its maker's logo from a CDN: the served bundle shows a blank image of its
 * own instead, so the page loads nothing from elsewhere (its link to redocly.com stays).
 */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const BLANK_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

interface Asset {
  readonly file: () => string;
  readonly type: string;
  readonly patch?: (text: string) => string;
}

/** The files under /docs/assets/: the renderer and the pages' own script and style. */
const ASSETS: Readonly<Record<string, Asset>> = {
  'redoc.standalone.js': {
    file: () => require.resolve('redoc/bundles/redoc.standalone.js'),
    type: 'text/javascript; charset=utf-8',
    patch: (text) => text.replaceAll(REDOC_LOGO, BLANK_IMAGE),
  },
  'docs.js': {
    file: () => new URL('../../openapi/pages/assets/docs.js', import.meta.url).pathname,
    type: 'text/javascript; charset=utf-8',
  },
  'docs.css': {
    file: () => new URL('../../openapi/pages/assets/docs.css', import.meta.url).pathname,
    type: 'text/css; charset=utf-8',
  },
};

const apiPage = () =>
  layout(
    '/docs',
    'API reference',
    '<div id="redoc"></div>\n<script src="/docs/assets/redoc.standalone.js"></script>\n<script src="/docs/assets/docs.js"></script>',
    true,
  );

const PAGES: Readonly<Record<string, () => string>> = {
  '/docs': apiPage,
  '/docs/widget': widgetPage,
  '/docs/test-data': testDataPage,
  '/docs/webhooks': webhooksPage,
  '/docs/reconciliation': reconciliationPage,
};

/** Pages of the test environment alone: the simulators' cards and triggers decide nothing live. */
const TEST_ONLY_PAGES: ReadonlySet<string> = new Set(['/docs/test-data']);

const SECURITY_HEADERS = {
  'Content-Security-Policy': DOCS_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

/** Computed on first use, then kept: the catalogues do not change while the gateway runs. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}

/** Where the document's `servers` point: both environments' public addresses. */
export const documentAddresses = (
  deps: { readonly addresses?: Addresses; readonly publicUrl?: string } | undefined,
): Addresses => deps?.addresses ?? { test: deps?.publicUrl ?? 'http://127.0.0.1:8080' };

const DOCUMENT_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** The document for an audience, serialised on first use, with its ETag (a hash of its text). */
const documentFor = (addresses: Addresses, audience: Audience) =>
  once(() => {
    const text = JSON.stringify(openApiDocument(addresses, routeDocsFor(audience)));
    return { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
  });

/**
 * The document, or 304 when the client has it: it is the same for every caller of an audience,
 * so it has a validator (and the compression keeps its compressed bytes: middleware/compression).
 */
function sendDocument(c: Context, document: { text: string; etag: string }, headers: Record<string, string>) {
  const all = { ...DOCUMENT_HEADERS, ...headers, ETag: document.etag };
  if (c.req.header('If-None-Match') === document.etag) return c.body(null, 304, all);
  return c.body(document.text, 200, all);
}

export interface DocsOptions {
  /** This address's environment: the live one serves no test-card page. */
  readonly environment: Environment;
  /** Production: /v1/openapi.json leaves the admin API out (see adminDocumentRoute). */
  readonly production: boolean;
}

export function docsRoutes<E extends Env>(app: Hono<E>, addresses: Addresses, options: DocsOptions): void {
  const document = documentFor(addresses, options.production ? 'public' : 'all');
  app.get('/v1/openapi.json', (c) => sendDocument(c, document(), { 'Access-Control-Allow-Origin': '*' }));
  for (const [path, render] of Object.entries(PAGES)) {
    if (TEST_ONLY_PAGES.has(path) && options.environment !== 'test') continue;
    const html = once(render);
    app.get(path, (c) => c.html(html(), 200, { ...SECURITY_HEADERS, 'Cache-Control': 'no-cache' }));
  }
  guideRoutes(app);
  const bodies = new Map<string, Uint8Array>();
  app.get('/docs/assets/*', (c: Context) => {
    const name = c.req.path.slice('/docs/assets/'.length);
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (asset === undefined) return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
    let body = bodies.get(name);
    if (body === undefined) {
      const bytes = readFileSync(asset.file());
      body = new Uint8Array(
        asset.patch === undefined ? bytes : Buffer.from(asset.patch(bytes.toString('utf8'))),
      );
      bodies.set(name, body);
    }
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      ...SECURITY_HEADERS,
      'Content-Type': asset.type,
      'Cache-Control': 'public, max-age=3600',
    });
  });
}

/** /docs/guides (the index, docs/README.md), /docs/guides/<name>, /docs/guides/screenshots/<file>. */
function guideRoutes<E extends Env>(app: Hono<E>): void {
  const guides = guidePages();
  const notFound = (c: Context) => c.text('Not found', 404, { 'Cache-Control': 'no-store' });
  app.get(GUIDES_PATH, (c) => guides.page(c, '', SECURITY_HEADERS) ?? notFound(c));
  app.get(
    `${GUIDES_PATH}/:name`,
    (c) => guides.page(c, c.req.param('name'), SECURITY_HEADERS) ?? notFound(c),
  );
  app.get(
    `${GUIDES_PATH}/screenshots/:file`,
    (c) => guides.screenshot(c, c.req.param('file'), SECURITY_HEADERS) ?? notFound(c),
  );
}

/**
 * GET /admin/v1/openapi.json: the whole document, admin API included, for whoever the admin API
 * lets read (the operator's token, a signed-in user); registered by the admin routes, behind
 * their authentication. Never cached by a browser or shared cache: it is an authenticated answer.
 */
export function adminDocumentRoute(deps: RouteDeps, kit: Pick<AdminKit, 'route'>): void {
  const document = documentFor(documentAddresses(deps), 'admin');
  kit.route('GET', '/admin/v1/openapi.json', 'read', (c) =>
    sendDocument(c, document(), { 'Cache-Control': 'private, no-store' }),
  );
}
