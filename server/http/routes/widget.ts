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
 * frame documents (the card field, the simulated wallet sheet) carry their own strict CSP
 * (frame-csp.ts): scripts, styles and connections only from the gateway (the sheet fetches its
 * test cards and token there) and the card field's own inline script by its hash, any page may
 * frame them, no Trusted Types policy may be created.
 */
import { fileURLToPath } from 'node:url';
import type { Context, Env, Hono } from 'hono';
import { ResultCodes } from '../../../shared/result-codes';
import type { Envelope } from '../middleware/envelope';
import { type BuildManifest, buildFiles, contentType } from './build-files';
import { frameCsp } from './frame-csp';

export const WIDGET_DIR = fileURLToPath(new URL('../../../dist/widget/', import.meta.url));
export const WIDGET_SCRIPT = 'paymentWidgets.js';
export const FRAME_DOCUMENT = 'frames/card-field.html';
export const WALLET_SHEET_DOCUMENT = 'frames/wallet-sheet.html';
/** The documents served with a frame's CSP (frame-csp.ts). */
export const FRAME_DOCUMENTS: readonly string[] = [FRAME_DOCUMENT, WALLET_SHEET_DOCUMENT];

export interface WidgetBuild extends BuildManifest {
  /** `sha384-…` of paymentWidgets.js. */
  readonly integrity: string;
}

/** How often the manifest is looked at again (a rebuild while the gateway runs is picked up). */
const RECHECK_MS = 1000;
const files = buildFiles<WidgetBuild>(RECHECK_MS, (build) => typeof build.integrity === 'string');

/** The build's manifest, or undefined when the widget is not built. */
export function widgetBuild(dir = WIDGET_DIR): WidgetBuild | undefined {
  return files.manifest(dir);
}

/**
 * The SRI hash of this build's paymentWidgets.js (`sha384-…`), for `integrity=true` at checkout
 * creation and for /v1/fastcheckout/integrity; undefined when the widget is not built.
 */
export function widgetIntegrity(dir = WIDGET_DIR): string | undefined {
  return widgetBuild(dir)?.integrity;
}

function cacheControl(path: string): string {
  // The script's URL is the same for every build while its SRI hash is not: a copy kept past a
  // deploy would fail the page's new integrity value, so it is revalidated (ETag) on every use.
  if (path.endsWith('.html') || path === WIDGET_SCRIPT) return 'no-cache';
  // Vite names the frames' assets, and the build the widget's parts, by content hash.
  if (path.startsWith('frames/assets/') || path.startsWith('parts/'))
    return 'public, max-age=31536000, immutable';
  if (path.startsWith('locales/')) return 'public, max-age=3600';
  return 'public, max-age=300';
}

function serveFile(c: Context, dir: string, path: string): Response {
  const found = files.file(c, dir, path, 'The widget is not built: run `npm run build`.');
  if (found instanceof Response) return found;
  const { build, body } = found;
  const etag = `"${build.integrity.slice(7, 27)}-${path.length}-${body.byteLength}"`;
  const headers: Record<string, string> = {
    'Content-Type': contentType(path),
    'Cache-Control': cacheControl(path),
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (FRAME_DOCUMENTS.includes(path)) {
    headers['Content-Security-Policy'] = frameCsp(body);
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
