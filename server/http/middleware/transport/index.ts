/**
 * What the connection says about a request: the client's address and whether it came over TLS.
 *
 * - The address is the socket's remote address; behind a trusted proxy (GATEWAY_TRUST_PROXY) the
 *   last hop of `X-Forwarded-For`, the one that proxy added. Without a trusted proxy the header is
 *   ignored: anyone can send it.
 * - HTTPS: the gateway serves TLS itself, or a trusted proxy sends `X-Forwarded-Proto: https`
 *   (its last value).
 *
 * The middleware sets `X-Content-Type-Options: nosniff` on every answer and
 * `Strict-Transport-Security` on answers over HTTPS; in production it refuses plain HTTP with 403
 * before any route runs.
 */
import type { Context, MiddlewareHandler } from 'hono';

export interface TransportOptions {
  /** NODE_ENV=production: plain HTTP is refused. */
  readonly production: boolean;
  /** The gateway's own listener serves TLS. */
  readonly tls: boolean;
  /** A proxy in front is trusted for X-Forwarded-For and X-Forwarded-Proto. */
  readonly trustProxy: boolean;
}

export const HSTS = 'max-age=31536000; includeSubDomains';

interface NodeBindings {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  /** @hono/node-server's response: headers set on it are merged into whatever the route writes. */
  readonly outgoing?: { readonly headersSent?: boolean; setHeader?(name: string, value: string): unknown };
}

const PLAIN_HEADERS = { 'X-Content-Type-Options': 'nosniff' } as const;
const HTTPS_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Strict-Transport-Security': HSTS } as const;

/**
 * Runs the rest of the chain with `headers` on its answer, whoever builds it (a route, a refusal,
 * the 404, the error handler, a static file). On a socket they are set on Node's response before
 * the route runs, and Node merges them into what it writes: no WHATWG Headers built and copied
 * per answer. In-process requests (tests, app.request) have no Node response: set on c.res after.
 */
export function withHeaders(
  c: Context,
  headers: Readonly<Record<string, string>>,
  next: () => Promise<void>,
): Promise<void> {
  const outgoing = (c.env as NodeBindings | undefined)?.outgoing;
  if (outgoing?.setHeader !== undefined && outgoing.headersSent !== true) {
    for (const name in headers) outgoing.setHeader(name, headers[name]!);
    // no promise of its own: every request passes here twice (request id, transport)
    return next();
  }
  return onTheAnswer(c, headers, next);
}

async function onTheAnswer(
  c: Context,
  headers: Readonly<Record<string, string>>,
  next: () => Promise<void>,
): Promise<void> {
  await next();
  // Responses built elsewhere (static files, fetch) may have immutable headers: copy then.
  try {
    for (const name in headers) c.res.headers.set(name, headers[name]!);
  } catch {
    c.res = new Response(c.res.body, c.res);
    for (const name in headers) c.res.headers.set(name, headers[name]!);
  }
}

/** The last comma-separated value of a header, trimmed; undefined when absent or empty. */
function lastValue(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parts = header.split(',');
  const last = parts[parts.length - 1]?.trim();
  return last === undefined || last === '' ? undefined : last;
}

/**
 * The client's address: the socket's, or X-Forwarded-For's last hop behind a trusted proxy;
 * undefined without a socket (in-process requests in tests).
 */
export function clientAddress(c: Context, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = lastValue(c.req.header('x-forwarded-for'));
    if (forwarded !== undefined) return forwarded.slice(0, 64);
  }
  const env = c.env as NodeBindings | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/** Whether the request came over HTTPS: the gateway's TLS, or a trusted proxy's X-Forwarded-Proto. */
export function isHttps(c: Context, options: Pick<TransportOptions, 'tls' | 'trustProxy'>): boolean {
  if (options.tls) return true;
  return options.trustProxy && lastValue(c.req.header('x-forwarded-proto'))?.toLowerCase() === 'https';
}

/** The security headers on every answer, and production's refusal of plain HTTP. */
export function transportSecurity(
  options: TransportOptions,
  refusePlain: (c: Context) => Response,
): MiddlewareHandler {
  return (c, next) => {
    const https = isHttps(c, options);
    if (options.production && !https) {
      const refused = refusePlain(c);
      refused.headers.set('X-Content-Type-Options', 'nosniff');
      return Promise.resolve(refused);
    }
    return withHeaders(c, https ? HTTPS_HEADERS : PLAIN_HEADERS, next);
  };
}

/** Whether an error is the client going away mid-request (a body cut short), not a fault of ours. */
export function isClientAbort(error: unknown, c: Context): boolean {
  if (c.req.raw.signal?.aborted === true) return true;
  const e = error as { code?: unknown; message?: unknown; name?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    ((e.code === 'ECONNRESET' && e.message === 'aborted') ||
      e.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      e.name === 'AbortError')
  );
}
