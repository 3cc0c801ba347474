/**
 * The hosted widget, served from the build in dist/widget/ (`npm run build`; `npm start` and
 * `npm test` build it when it is missing or stale):
 *
 *   GET /v1/paymentWidgets.js          the widget script (any origin may load it, with SRI)
 *   GET /v1/widget/<file>              its CSS, the card-field frame document and assets, the languages,
 *                                      its parts (parts/<name>-<hash>.js: code only some checkouts need,
 *                                      loaded by paymentWidgets.js with the SRI hash it carries)
 *   GET /v1/fastcheckout/integrity     {integrity}: the SRI hash of paymentWidgets.js
 *
 * Only files the build's manifest lists are served, so no path can reach anything else. The
 * frame documents (the card field, the simulated wallet sheet) carry their own strict CSP:
 * scripts, styles and connections only from the gateway (the sheet fetches its test cards and
 * token there), any page may frame them, no Trusted Types policy may be created.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Env, Hono } from 'hono';
import { ResultCodes } from '../../../shared/result-codes';
import type { Envelope } from '../middleware/envelope';

export const WIDGET_DIR = fileURLToPath(new URL('../../../dist/widget/', import.meta.url));
export const WIDGET_SCRIPT = 'paymentWidgets.js';
export const FRAME_DOCUMENT = 'frames/card-field.html';
export const WALLET_SHEET_DOCUMENT = 'frames/wallet-sheet.html';
/** The documents served with FRAME_CSP. */
export const FRAME_DOCUMENTS: readonly string[] = [FRAME_DOCUMENT, WALLET_SHEET_DOCUMENT];

export const FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  'frame-ancestors *',
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

export interface WidgetBuild {
  /** `sha384-…` of paymentWidgets.js. */
  readonly integrity: string;
  readonly builtAt: string;
  /** Path below dist/widget → size in bytes. */
  readonly files: Readonly<Record<string, number>>;
}

interface Loaded {
  readonly build: WidgetBuild;
  readonly mtimeMs: number;
  readonly bodies: Map<string, Uint8Array>;
  checkedAt: number;
}

const loaded = new Map<string, Loaded>();
/** How often the manifest is looked at again (a rebuild while the gateway runs is picked up). */
const RECHECK_MS = 1000;

function load(dir: string): Loaded | undefined {
  const now = Date.now();
  const cached = loaded.get(dir);
  if (cached !== undefined && now - cached.checkedAt < RECHECK_MS) return cached;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(join(dir, 'manifest.json')).mtimeMs;
  } catch {
    loaded.delete(dir);
    return undefined;
  }
  if (cached !== undefined && cached.mtimeMs === mtimeMs) {
    cached.checkedAt = now;
    return cached;
  }
  try {
    const build = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as WidgetBuild;
    if (typeof build.integrity !== 'string' || typeof build.files !== 'object') return undefined;
    const fresh: Loaded = { build, mtimeMs, bodies: new Map(), checkedAt: now };
    loaded.set(dir, fresh);
    return fresh;
  } catch {
    return undefined;
  }
}

/** The build's manifest, or undefined when the widget is not built. */
export function widgetBuild(dir = WIDGET_DIR): WidgetBuild | undefined {
  return load(dir)?.build;
}

/**
 * The SRI hash of this build's paymentWidgets.js (`sha384-…`), for `integrity=true` at checkout
 * creation and for /v1/fastcheckout/integrity; undefined when the widget is not built.
 */
export function widgetIntegrity(dir = WIDGET_DIR): string | undefined {
  return widgetBuild(dir)?.integrity;
}

const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};

function cacheControl(path: string): string {
  // The script's URL is the same for every build while its SRI hash is not: a copy kept past a
  // deploy would fail the page's new integrity value, so it is revalidated (ETag) on every use.
  if (path.endsWith('.html') || path === WIDGET_SCRIPT) return 'no-cache';
  // Vite names the frame's assets, and the build the widget's parts, by content hash.
  if (path.startsWith('frames/assets/') || path.startsWith('parts/'))
    return 'public, max-age=31536000, immutable';
  if (path.startsWith('locales/')) return 'public, max-age=3600';
  return 'public, max-age=300';
}

function serveFile(c: Context, dir: string, path: string): Response {
  const state = load(dir);
  if (state === undefined) {
    return c.text('The widget is not built: run `npm run build`.', 503, {
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
  const etag = `"${state.build.integrity.slice(7, 27)}-${path.length}-${body.byteLength}"`;
  const headers: Record<string, string> = {
    'Content-Type': TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
    'Cache-Control': cacheControl(path),
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (FRAME_DOCUMENTS.includes(path)) {
    headers['Content-Security-Policy'] = FRAME_CSP;
    headers['Referrer-Policy'] = 'no-referrer';
  }
  if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}

export interface WidgetRouteOptions {
  /** Where the build is (tests point this at a fixture). */
  readonly dir?: string;
}

export function widgetRoutes<E extends Env>(
  app: Hono<E>,
  env: Envelope,
  options: WidgetRouteOptions = {},
): void {
  const dir = options.dir ?? WIDGET_DIR;

  app.get('/v1/paymentWidgets.js', (c) => serveFile(c, dir, WIDGET_SCRIPT));

  app.get('/v1/widget/*', (c) => serveFile(c, dir, c.req.path.slice('/v1/widget/'.length)));

  app.get('/v1/fastcheckout/integrity', (c) => {
    c.header('Access-Control-Allow-Origin', '*');
    const integrity = widgetIntegrity(dir);
    if (integrity === undefined) {
      return env.send(c, 503, {
        code: ResultCodes.UNDEFINED_CONNECTOR_ERROR,
        description: 'the widget is not built',
      });
    }
    return env.send(
      c,
      200,
      { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' },
      { integrity },
    );
  });
}
