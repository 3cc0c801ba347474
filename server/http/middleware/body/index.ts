/**
 * The body: read once, up to its limit, and decoded (`body`), then validated as a request kind
 * (`parse`).
 *
 * What one request may cost: a body is read up to its limit and no further (a larger declared
 * Content-Length is refused unread, a stream is cut off): 413. Requests without an Authorization
 * header to the checkout routes (the widget's submissions, opened by the checkout id alone) have
 * the small {@link PUBLIC_SUBMISSION_MAX_BYTES}. Invalid UTF-8 is answered at once (400). GET and
 * DELETE carry their parameters in the query string. parameterErrors list at most
 * {@link MAX_LISTED_PARAMETER_ERRORS} entries and count the rest (shared/params/error-list.ts).
 *
 * What one sender may make the gateway parse (issue 30, the noisy neighbour): `parse` first asks
 * the work budget (../work-budget: a body past 16 KiB waits its sender's turn, or 429), then parses
 * a body past {@link OFF_THREAD_CHARS} on the parse pool's threads (../../parse-pool), the same
 * `parseRequest` off the event loop.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { maskValue, type ParameterError } from '../../../../shared/params/errors';
import { type ParsedRequest, parseRequest, type RequestKind } from '../../../../shared/params/requests';
import type { EgressPolicy } from '../../../security/egress';
import type { BodyEnv, RequestEnv } from '../../context';
import { type ParsePool, parsePool } from '../../parse-pool';
import { type Envelope, invalid } from '../envelope';
import { unstorableFields } from '../storable';
import type { EarlyRefusal, WorkGate } from '../work-budget';

export { MAX_LISTED_PARAMETER_ERRORS } from '../../../../shared/params/error-list';

/**
 * The body limit of a checkout submission sent without an Authorization header. The biggest
 * legitimate widget submission (every card, customer, browser and billing field at its full
 * length, percent-encoded, plus the shop page's own inputs) is under 40 KB, a real one under 8 KB;
 * an attacker holding only a checkout id gets no more than this to make the gateway decode.
 */
export const PUBLIC_SUBMISSION_MAX_BYTES = 64 * 1024;

/**
 * The most name=value pairs a body may hold. The spec's largest valid request (every group with
 * 1,000 cart items) has about 12,300; decoding and validating 100,000 of them took another
 * merchant's median latency from 1.3 ms to 262–291 ms (issue 30, the noisy neighbour).
 */
export const MAX_BODY_PARAMETERS = 16_384;

/** Whether a form body holds more than `max` pairs: its `&`s counted, nothing decoded. */
function tooManyPairs(text: string, max: number): boolean {
  let pairs = 1;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) if (++pairs > max) return true;
  return false;
}

export interface BodyDeps {
  readonly env: Envelope;
  readonly maxBodyBytes: number;
  /** The body limit without credentials ({@link PUBLIC_SUBMISSION_MAX_BYTES} unless given; never above maxBodyBytes). */
  readonly maxPublicBodyBytes?: number;
  /** The work budget's refusal of a sender already past it, before its body is read (middleware/work-budget). */
  readonly early?: EarlyRefusal;
}

export interface BodyOptions {
  /**
   * The checkout routes: without an Authorization header the checkout id is all a sender needs,
   * so the small public limit. (Legacy credentials in the body count only once it is read, so
   * they get the small one too.)
   */
  readonly public?: boolean;
}

const isQuery = (c: Context): boolean => c.req.method === 'GET' || c.req.method === 'DELETE';

/** `c.var.body`: a POST body as text (413 past the limit, 400 for invalid UTF-8), or the query string. */
export function body(deps: BodyDeps, options: BodyOptions = {}): MiddlewareHandler<BodyEnv> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const publicLimit = Math.min(deps.maxBodyBytes, deps.maxPublicBodyBytes ?? PUBLIC_SUBMISSION_MAX_BYTES);
  async function read(c: Context<BodyEnv>, next: Next): Promise<Response | undefined> {
    const limit =
      options.public === true && c.req.header('authorization') === undefined
        ? publicLimit
        : deps.maxBodyBytes;
    const declared = c.req.header('content-length');
    if (deps.early !== undefined && declared !== undefined) {
      const refused = deps.early(c, Number(declared));
      if (refused !== undefined) return refused;
    }
    const bytes = await readLimited(c, limit);
    if (bytes === undefined)
      return invalid(deps.env, c, 413, [
        { name: '(body)', value: null, message: `is larger than ${limit} bytes` },
      ]);
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      // The decoder reports invalid UTF-8 in its own words.
      const parsed = parseRequest('entity', bytes, { maxBytes: deps.maxBodyBytes });
      return invalid(deps.env, c, parsed.ok ? 400 : parsed.status, parsed.ok ? [] : parsed.errors);
    }
    if (tooManyPairs(text, MAX_BODY_PARAMETERS))
      return invalid(deps.env, c, 413, [
        { name: '(body)', value: null, message: `has more than ${MAX_BODY_PARAMETERS} parameters` },
      ]);
    // Text no store can keep (a NUL, an overlong or surrogate escape): refused, naming the fields.
    const unstorable = unstorableFields(text);
    if (unstorable.length > 0) return invalid(deps.env, c, 400, unstorable);
    c.set('body', text);
    await next();
  }
  // Not async: a query string costs no promise of its own.
  return (c, next) => {
    if (!isQuery(c)) return read(c, next);
    const url = c.req.url;
    const q = url.indexOf('?');
    c.set('body', q === -1 ? '' : url.slice(q + 1));
    return next();
  };
}

/**
 * The body's bytes, or undefined past `limit`: a larger declared Content-Length is refused before
 * anything is read, and a body without one is read only until it passes the limit.
 */
export async function readLimited(c: Context, limit: number): Promise<Uint8Array | undefined> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) return undefined;
  if (declared !== undefined && /^\d+$/.test(declared)) {
    // A declared length within the limit: Node's HTTP parser reads exactly that much, so the body
    // is read whole, which @hono/node-server does from the socket directly, without the WHATWG
    // Request and stream that `raw.body` builds (the largest framework cost of a POST).
    const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
    return bytes.byteLength > limit ? undefined : bytes;
  }
  const stream = c.req.raw.body;
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The URL parameters the gateway itself calls and the egress policy refuses (literal loopback,
 * private, metadata … addresses and local names; names are checked again when connecting):
 * notificationUrl wherever it comes, and shopperResultUrl of a checkout (notified after 29
 * minutes). A payment's shopperResultUrl is where the shopper's browser goes, never the gateway.
 */
export function refusedUrls(
  egress: Pick<EgressPolicy, 'checkUrl'> | undefined,
  kind: RequestKind,
  parameters: object,
): readonly ParameterError[] {
  if (egress === undefined) return NO_ERRORS;
  const value = parameters as Record<string, unknown>;
  // A loop, no closure: a status read passes here on every request, almost always with no URL.
  let errors: ParameterError[] | undefined;
  for (const name of kind === 'checkout' ? CHECKOUT_URLS : URLS) {
    const url = value[name];
    if (typeof url !== 'string') continue;
    const reason = egress.checkUrl(url);
    if (reason === undefined) continue;
    errors ??= [];
    errors.push({
      name,
      value: maskValue(url),
      message: `${reason}: the gateway does not call loopback, private, link-local or metadata addresses`,
    });
  }
  return errors ?? NO_ERRORS;
}

const NO_ERRORS: readonly ParameterError[] = Object.freeze([]);
const URLS = ['notificationUrl'] as const;
const CHECKOUT_URLS = ['notificationUrl', 'shopperResultUrl'] as const;

export interface ParseDeps extends BodyDeps {
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
  /** The work budget's question before a POST body is parsed (middleware/work-budget); none: no budget. */
  readonly budget?: WorkGate;
  /** Where bodies past {@link OFF_THREAD_CHARS} are parsed; the process's pool unless given. */
  readonly parsePool?: ParsePool;
}

/**
 * Bodies longer than this are decoded and validated on the parse pool's threads: past it a parse
 * takes a millisecond or more of the event loop (a 512 KiB body of 16,384 parameters, 60–140 ms),
 * while the trip to a thread and back costs a tenth of one. Every ordinary request is shorter.
 */
export const OFF_THREAD_CHARS = 16 * 1024;

export interface ParseOptions {
  /** Whether URLs the egress policy refuses are answered 400 ({@link refusedUrls}); true by default. */
  readonly checkUrls?: boolean;
}

export type Parse = <K extends RequestKind>(
  kind: K,
  options?: ParseOptions,
) => MiddlewareHandler<BodyEnv & RequestEnv<K>>;

/**
 * `parse(kind)`: `c.var.request`, the body validated as the request kind (400 with
 * parameterErrors). One per app: status reads repeat the same few query strings (`entityId=…`)
 * thousands of times, and parsing is a pure function of kind and text, so its frozen result is kept.
 * A POST body is first charged to its sender's work budget (it may wait, or be refused 429), and
 * a long one parsed off the main thread.
 */
export function createParse(deps: ParseDeps): Parse {
  const queries = new Map<string, ReturnType<typeof parseRequest>>();
  function parseQuery(kind: RequestKind, text: string): ReturnType<typeof parseRequest> {
    const key = `${kind}?${text}`;
    let parsed = queries.get(key);
    if (parsed === undefined) {
      parsed = deepFreeze(parseRequest(kind, text, { maxBytes: deps.maxBodyBytes }));
      if (queries.size >= 1_000) queries.clear();
      queries.set(key, parsed);
    }
    return parsed;
  }
  const pool = () => deps.parsePool ?? parsePool();
  return <K extends RequestKind>(kind: K, options: ParseOptions = {}) => {
    const checkUrls = options.checkUrls ?? true;
    type Env = BodyEnv & RequestEnv<K>;
    function use(c: Context<Env>, next: Next, parsed: ParsedRequest<K>): Promise<Response | undefined> {
      if (!parsed.ok) return Promise.resolve(invalid(deps.env, c, parsed.status, parsed.errors));
      if (checkUrls) {
        const unreachable = refusedUrls(deps.egress, kind, parsed.value as object);
        if (unreachable.length > 0) return Promise.resolve(invalid(deps.env, c, 400, [...unreachable]));
      }
      c.set('request', parsed.value);
      return next() as Promise<undefined>;
    }
    async function heavy(c: Context<Env>, next: Next, text: string, turn: ReturnType<WorkGate>) {
      const refused = await turn;
      if (refused !== undefined) return refused;
      const parsed =
        text.length > OFF_THREAD_CHARS
          ? await pool().parse(kind, text, deps.maxBodyBytes)
          : parseRequest(kind, text, { maxBytes: deps.maxBodyBytes });
      return use(c, next, parsed);
    }
    // Not async: an ordinary body is parsed at once, and the chain's next step needs no promise of ours.
    const middleware: MiddlewareHandler<Env> = (c, next) => {
      const text = c.get('body');
      if (isQuery(c)) return use(c, next, parseQuery(kind, text) as ParsedRequest<K>);
      const turn = deps.budget?.(c, text);
      if (turn === undefined && text.length <= OFF_THREAD_CHARS)
        return use(c, next, parseRequest(kind, text, { maxBytes: deps.maxBodyBytes }));
      return heavy(c, next, text, turn);
    };
    return middleware;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
