/**
 * The administration dashboard (widget/admin/, built into dist/admin/ by `vite build`), on each
 * environment's own address:
 *
 *   GET /admin, /admin/         the dashboard's document (no-cache: it names this build's assets)
 *   GET /admin/assets/<file>    its script and style sheet, named by content hash (immutable)
 *
 * Only files the build's manifest lists are served. The document carries its own strict CSP: the
 * gateway's own scripts, styles and API only, no inline script or style, never framed, no Trusted
 * Types policy (Preact writes no HTML). What the dashboard reads and changes goes through the
 * admin API (`/admin/v1/…`, docs/admin-api.md), whose authentication does not cover these files:
 * they hold nothing but code.
 */
import { fileURLToPath } from 'node:url';
import type { Context, Env, Hono } from 'hono';
import { type BuildManifest, buildDocumentCsp, buildFiles, contentType } from './build-files';

export const DASHBOARD_DIR = fileURLToPath(new URL('../../../dist/admin/', import.meta.url));
const DOCUMENT = 'index.html';

export const DASHBOARD_CSP = buildDocumentCsp({
  frameAncestors: "'none'",
  formAction: "'self'",
  also: ["manifest-src 'self'"],
});

/** The manifest is looked at on every request: the dashboard's document is fetched once a visit. */
const files = buildFiles<BuildManifest>(0);

function serveFile(c: Context, dir: string, path: string): Response {
  const found = files.file(c, dir, path, 'The dashboard is not built: run `npm run build`.');
  if (found instanceof Response) return found;
  const headers: Record<string, string> = {
    'Content-Type': contentType(path),
    // Vite names the assets by content hash; the document names this build's assets.
    'Cache-Control': path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (path === DOCUMENT) {
    headers['Content-Security-Policy'] = DASHBOARD_CSP;
    headers['Referrer-Policy'] = 'no-referrer';
    headers['X-Frame-Options'] = 'DENY';
    headers['Cross-Origin-Opener-Policy'] = 'same-origin';
  }
  return c.body(found.body as Uint8Array<ArrayBuffer>, 200, headers);
}

export interface DashboardRouteOptions {
  /** Where the build is (tests point this at a fixture). */
  readonly dir?: string;
}

/**
 * Registered before the admin API's middleware (server/app.ts), so the dashboard's own files are
 * answered without the API's credentials.
 */
export function dashboardRoutes<E extends Env>(app: Hono<E>, options: DashboardRouteOptions = {}): void {
  const dir = options.dir ?? DASHBOARD_DIR;
  app.get('/admin', (c) => c.redirect('/admin/', 301));
  app.get('/admin/', (c) => serveFile(c, dir, DOCUMENT));
  app.get('/admin/assets/*', (c) => serveFile(c, dir, c.req.path.slice('/admin/'.length)));
}
