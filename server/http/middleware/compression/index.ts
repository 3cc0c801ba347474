/**
 * Compression by `Accept-Encoding` (issue 34): brotli when the client takes it, else gzip, for
 * scripts, styles, JSON documents, pages and CSV; `Vary: Accept-Encoding` on every answer of those
 * types, compressed or not, so a shared cache keeps one copy per encoding.
 *
 * Left as they are: answers under {@link MIN_BYTES} (one network packet: compressing saves no round
 * trip), event streams (each event must reach the client as it is written), HEAD and bodiless
 * answers, answers already encoded or marked `no-transform`.
 *
 * The bytes of an answer that is the same for everyone (it has an ETag or may be kept by caches:
 * the widget's files, the docs' assets, /v1/openapi.json) are compressed once, at the highest
 * level, off the event loop, and kept by content ({@link CompressedCache}); other answers (API
 * answers of one request) are compressed at a fast level. The ETag stays the route's: the
 * routes' `If-None-Match` keeps answering 304 whatever the encoding (as Express's `compression`
 * does), and Subresource Integrity is over the decoded bytes, which do not change.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';

/** Smaller answers are sent as they are: about one TCP segment. */
export const MIN_BYTES = 1400;

/** The types compressed: scripts, styles, JSON, HTML pages, SVG, plain text and CSV. */
const COMPRESSIBLE =
  /^(?:text\/(?:javascript|css|html|plain|csv)|application\/(?:json|javascript|[\w.+-]+\+json)|image\/svg\+xml)\b/i;

export type Encoding = 'br' | 'gzip';

/** The encoding the client prefers among ours: br, then gzip; none when it takes neither (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined;
  const taken = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    taken.set(name.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const accepts = (name: Encoding) => (taken.get(name) ?? taken.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compresses `body`: `best` for bytes compressed once and kept, fast otherwise. */
export async function compress(body: Uint8Array, encoding: Encoding, best: boolean): Promise<Uint8Array> {
  if (encoding === 'br')
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: best ? constants.BROTLI_MAX_QUALITY : 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    });
  return gzipAsync(body, { level: best ? constants.Z_BEST_COMPRESSION : 6 });
}

/** Compressed bytes of answers that are the same for everyone, by encoding and content hash. */
export interface CompressedCache {
  get(key: string): Promise<Uint8Array> | undefined;
  set(key: string, bytes: Promise<Uint8Array>): void;
}

/** At most `entries` kept, the least recently used dropped first. */
export function compressedCache(entries = 64): CompressedCache {
  const kept = new Map<string, Promise<Uint8Array>>();
  return {
    get(key) {
      const found = kept.get(key);
      if (found !== undefined) {
        kept.delete(key);
        kept.set(key, found);
      }
      return found;
    },
    set(key, bytes) {
      kept.set(key, bytes);
      // a failed compression is not kept: the next request tries again
      bytes.catch(() => kept.delete(key));
      if (kept.size > entries) kept.delete(kept.keys().next().value as string);
    },
  };
}

/** An answer the same for everyone: it has a validator, or caches may keep it. */
const sharedAnswer = (headers: Headers): boolean =>
  headers.has('ETag') || /\b(?:public|max-age=[1-9])/.test(headers.get('Cache-Control') ?? '');

function addVary(headers: Headers): void {
  const vary = headers.get('Vary');
  if (vary === null) headers.set('Vary', 'Accept-Encoding');
  else if (!/\baccept-encoding\b/i.test(vary) && vary.trim() !== '*')
    headers.set('Vary', `${vary}, Accept-Encoding`);
}

/** Whether the answer is of a type we compress and may be changed at all. */
function compressible(c: Context): boolean {
  const res = c.res;
  if (c.req.method === 'HEAD' || res.body === null || res.status === 204 || res.status === 304) return false;
  if (res.headers.has('Content-Encoding')) return false;
  if (/\bno-transform\b/i.test(res.headers.get('Cache-Control') ?? '')) return false;
  return COMPRESSIBLE.test(res.headers.get('Content-Type') ?? '');
}

export function compression(cache: CompressedCache = compressedCache()): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!compressible(c)) return;
    try {
      addVary(c.res.headers);
    } catch {
      // a Response built elsewhere (a fetch's) has immutable headers: copy it first
      c.res = new Response(c.res.body, c.res);
      addVary(c.res.headers);
    }
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (encoding === undefined) return;
    const length = Number(c.res.headers.get('Content-Length') ?? Number.NaN);
    if (length < MIN_BYTES) return;
    const body = new Uint8Array(await c.res.clone().arrayBuffer());
    if (body.byteLength < MIN_BYTES) return;
    let compressed: Uint8Array;
    if (sharedAnswer(c.res.headers)) {
      const key = `${encoding} ${createHash('sha256').update(body).digest('base64')}`;
      let kept = cache.get(key);
      if (kept === undefined) {
        kept = compress(body, encoding, true);
        cache.set(key, kept);
      }
      compressed = await kept;
    } else {
      compressed = await compress(body, encoding, false);
    }
    if (compressed.byteLength >= body.byteLength) return;
    const { status, headers } = c.res;
    // Hono's setter copies the old answer's headers (Content-Length among them) onto the new one
    c.res = new Response(compressed as Uint8Array<ArrayBuffer>, { status, headers });
    c.res.headers.set('Content-Encoding', encoding);
    c.res.headers.set('Content-Length', String(compressed.byteLength));
  };
}
