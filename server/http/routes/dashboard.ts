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
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Env, Hono } from 'hono';

export const DASHBOARD_DIR = fileURLToPath(new URL('../../../dist/admin/', import.meta.url));
const DOCUMENT = 'index.html';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  woff2: 'font/woff2',
};

interface Build {
  readonly files: Readonly<Record<string, number>>;
  readonly builtAt: string;
}

interface Loaded {
  readonly build: Build;
  readonly mtimeMs: number;
  readonly bodies: Map<string, Uint8Array>;
}

const loaded = new Map<string, Loaded>();

/** The build's manifest (read again when a rebuild changes it), or undefined when not built. */
function load(dir: string): Loaded | undefined {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(join(dir, 'manifest.json')).mtimeMs;
  } catch {
    loaded.delete(dir);
    return undefined;
  }
  const cached = loaded.get(dir);
  if (cached !== undefined && cached.mtimeMs === mtimeMs) return cached;
  try {
    const build = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Build;
    if (typeof build.files !== 'object' || build.files === null) return undefined;
    const fresh: Loaded = { build, mtimeMs, bodies: new Map() };
    loaded.set(dir, fresh);
    return fresh;
  } catch {
    return undefined;
  }
}

function serveFile(c: Context, dir: string, path: string): Response {
  const state = load(dir);
  if (state === undefined) {
    return c.text('The dashboard is not built: run `npm run build`.', 503, {
      'Cache-Control': 'no-store',
      'Retry-After': '5',
    });
  }
  if (!Object.hasOwn(state.build.files, path))
    return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
  let body = state.bodies.get(path);
  if (body === undefined) {
    try {
      body = new Uint8Array(readFileSync(join(dir, path)));
    } catch {
      return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
    }
    state.bodies.set(path, body);
  }
  const headers: Record<string, string> = {
    'Content-Type': TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
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
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
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
