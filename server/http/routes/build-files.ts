/**
 * Files served from a Vite build folder (dist/widget/ for widget.ts, dist/admin/ for
 * dashboard.ts): only the files its `manifest.json` lists, so no path can reach anything else.
 * The manifest is read again when a rebuild changes it (its mtime, looked at no more often than
 * `recheckMs`), and each file's bytes are kept after their first read. What headers a file is
 * answered with stays with its route: the widget's and the dashboard's differ.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'hono';

/**
 * The Content-Security-Policy of a document served from a build: scripts, styles, connections,
 * images and fonts from the gateway alone, nothing else by default, no <base>, and no Trusted
 * Types policy (Preact writes no HTML). Who may frame it and where its forms go differ.
 */
export function buildDocumentCsp(options: {
  readonly frameAncestors: string;
  readonly formAction: string;
  /** Further sources the document needs (the dashboard's web manifest). */
  readonly also?: readonly string[];
  /** `'sha256-…'` of each inline script the document holds (frame-csp.ts). */
  readonly inlineScripts?: readonly string[];
}): string {
  return [
    "default-src 'none'",
    ["script-src 'self'", ...(options.inlineScripts ?? [])].join(' '),
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    ...(options.also ?? []),
    `frame-ancestors ${options.frameAncestors}`,
    "base-uri 'none'",
    `form-action ${options.formAction}`,
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

/** What every build's manifest holds: path below the build folder → size in bytes. */
export interface BuildManifest {
  readonly files: Readonly<Record<string, number>>;
  readonly builtAt: string;
}

interface Loaded<B extends BuildManifest> {
  readonly build: B;
  readonly mtimeMs: number;
  readonly bodies: Map<string, Uint8Array>;
  checkedAt: number;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};

/** The Content-Type of a built file, by its extension. */
export const contentType = (path: string): string =>
  CONTENT_TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

export interface BuildFiles<B extends BuildManifest> {
  /** The folder's manifest, or undefined when it is not built (or the manifest is not valid). */
  manifest(dir: string): B | undefined;
  /**
   * A listed file's bytes with the manifest, or the answer when there are none: 503 naming
   * `notBuilt` when the folder is not built, 404 for a path the manifest does not list.
   */
  file(c: Context, dir: string, path: string, notBuilt: string): { build: B; body: Uint8Array } | Response;
}

/**
 * The files of build folders whose manifests are B: `isBuild` checks what B adds to the files
 * (an unparsable manifest, or one without files, is no build).
 */
export function buildFiles<B extends BuildManifest>(
  recheckMs: number,
  isBuild: (manifest: B) => boolean = () => true,
): BuildFiles<B> {
  const loaded = new Map<string, Loaded<B>>();

  function load(dir: string): Loaded<B> | undefined {
    const now = Date.now();
    const cached = loaded.get(dir);
    if (cached !== undefined && now - cached.checkedAt < recheckMs) return cached;
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
      const build = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as B;
      if (typeof build.files !== 'object' || build.files === null || !isBuild(build)) return undefined;
      const fresh: Loaded<B> = { build, mtimeMs, bodies: new Map(), checkedAt: now };
      loaded.set(dir, fresh);
      return fresh;
    } catch {
      return undefined;
    }
  }

  function file(c: Context, dir: string, path: string, notBuilt: string) {
    const state = load(dir);
    if (state === undefined)
      return c.text(notBuilt, 503, { 'Cache-Control': 'no-store', 'Retry-After': '5' });
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
    return { build: state.build, body };
  }

  return { manifest: (dir) => load(dir)?.build, file };
}
