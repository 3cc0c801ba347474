/**
 * The front every API route shares: read the body (413 past the limit), authenticate (401/403),
 * validate (400 with parameterErrors), resolve the channel (403), throttle (429); then
 * Idempotency-Key replay and the answer (200 for success and pending, 400 for declines).
 *
 * What one request may cost: a body is read up to its limit and no further (a larger declared
 * Content-Length is refused unread, a stream is cut off); requests without an Authorization header
 * to the checkout routes (the widget's submissions, opened by the checkout id alone) have the
 * small {@link PUBLIC_SUBMISSION_MAX_BYTES}; parameterErrors list at most
 * {@link MAX_LISTED_PARAMETER_ERRORS} entries and count the rest (shared/params/error-list.ts).
 */
import type { Context } from 'hono';
import { paymentResponse } from '../../shared/engine/answers/response';
import { newId } from '../../shared/engine/core/ids';
import {
  type AccessToken,
  type Channel,
  type Checkout,
  type Environment,
  environmentOf,
  type Payment,
  tokenEnvironment,
} from '../../shared/engine/core/model';
import type { EngineDeps } from '../../shared/engine/operations/initial-payment';
import { capErrors } from '../../shared/params/error-list';
import { maskValue, type ParameterError } from '../../shared/params/errors';
import { parseRequest, type RequestKind, type RequestOf } from '../../shared/params/requests';
import { isPending, isSuccess, isSuccessReview, ResultCodes } from '../../shared/result-codes';
import type { EgressPolicy } from '../security/egress';
import type { Logger } from '../security/logger';
import type { Credentials } from '../security/tokens';
import type { WalletTokenIssuer } from '../security/wallet-tokens';
import type { GatewayStore } from '../storage';
import { cachedChannels, credentialsOf, mayUse, resolveChannel, tokenChecker } from './auth';
import { type AuthFailures, authKeys } from './auth-failures';
import type { Envelope } from './envelope';
import { idempotency } from './idempotency';
import { DEFAULT_LIMIT_PER_MINUTE, type Throttle } from './throttle';
import { clientAddress } from './transport';

export { MAX_LISTED_PARAMETER_ERRORS } from '../../shared/params/error-list';

/**
 * The body limit of a checkout submission sent without an Authorization header. The biggest
 * legitimate widget submission (every card, customer, browser and billing field at its full
 * length, percent-encoded, plus the shop page's own inputs) is under 40 KB, a real one under 8 KB;
 * an attacker holding only a checkout id gets no more than this to make the gateway decode.
 */
export const PUBLIC_SUBMISSION_MAX_BYTES = 64 * 1024;

export interface RouteDeps extends EngineDeps {
  /** The engine's Store and the server's own stores (webhooks, schedules, settlements, risk). */
  readonly store: GatewayStore;
  readonly env: Envelope;
  readonly throttle: Throttle;
  readonly maxBodyBytes: number;
  /** The body limit without credentials ({@link PUBLIC_SUBMISSION_MAX_BYTES} unless given; never above maxBodyBytes). */
  readonly maxPublicBodyBytes?: number;
  readonly logger?: Logger;
  /** This environment's public address (GATEWAY_PUBLIC_URL or GATEWAY_LIVE_PUBLIC_URL, else its listening address). */
  readonly publicUrl?: string;
  /**
   * The environment of the address this app serves (test on PORT, live on GATEWAY_LIVE_PORT):
   * only its tokens and channels are accepted, only its records answered.
   */
  readonly environment: Environment;
  readonly wallets?: WalletTokenIssuer;
  /** Refuses notificationUrl and a checkout's shopperResultUrl the gateway would not call (refusedUrls). */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
  /** Failed logins per client address and user id: 429 past the limit (auth-failures.ts). */
  readonly authFailures: AuthFailures;
  /** NODE_ENV=production (server/mode.ts). */
  readonly production: boolean;
  /** GATEWAY_TRUST_PROXY: the client address is X-Forwarded-For's last hop. */
  readonly trustProxy: boolean;
  /** Opens what `seal` sealed: the stored Idempotency-Key responses (sealed only when given). */
  readonly unseal?: (sealed: string) => string;
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
): ParameterError[] {
  if (egress === undefined) return [];
  const value = parameters as { readonly notificationUrl?: unknown; readonly shopperResultUrl?: unknown };
  const errors: ParameterError[] = [];
  const check = (name: 'notificationUrl' | 'shopperResultUrl') => {
    const url = value[name];
    const reason = typeof url === 'string' ? egress.checkUrl(url) : undefined;
    if (typeof url === 'string' && reason !== undefined)
      errors.push({
        name,
        value: maskValue(url),
        message: `${reason}: the gateway does not call loopback, private, link-local or metadata addresses`,
      });
  };
  check('notificationUrl');
  if (kind === 'checkout') check('shopperResultUrl');
  return errors;
}

/**
 * The gateway's public origin for URLs it hands out: configured (GATEWAY_PUBLIC_URL, else the
 * listening address), never the request's Host header, which the client chooses. Empty (relative
 * URLs) when none is configured.
 */
export const publicOrigin = (_c: Context, deps: Pick<RouteDeps, 'publicUrl'>): string =>
  deps.publicUrl?.replace(/\/+$/, '') ?? '';

const INVALID = { code: ResultCodes.INVALID_PARAMETER, description: 'invalid or missing parameter' };

export const statusOf = (code: string): 200 | 400 =>
  isSuccess(code) || isSuccessReview(code) || isPending(code) ? 200 : 400;

export interface Ready<K extends RequestKind> {
  readonly request: RequestOf<K>;
  readonly token: AccessToken;
  readonly channel: Channel;
  readonly body: string;
}

/** What the checkout routes get: the token only when credentials were sent. */
export interface CheckoutReady<K extends RequestKind> {
  readonly request: RequestOf<K>;
  readonly token: AccessToken | undefined;
  readonly channel: Channel;
  readonly checkout: Checkout;
  readonly body: string;
}

export function admission(deps: RouteDeps) {
  const { env } = deps;
  const checkToken = tokenChecker(deps.store);
  const channels = cachedChannels(deps.store);
  const idem = idempotency(deps.store, deps.clock, env, {
    answer: (c, payment) => answer(c, payment),
    ...(deps.unseal === undefined ? {} : { seal: deps.seal, open: deps.unseal }),
  });
  /** The route's dependencies on `store` (the one an Idempotency-Key's work runs on). */
  const using = (store: GatewayStore): RouteDeps => (store === deps.store ? deps : { ...deps, store });
  /** References to one payment run one at a time, across processes too, so two captures cannot both take the rest. */
  const serialize = <T>(paymentId: string, task: () => Promise<T>) =>
    deps.store.exclusive(`payment:${paymentId}`, task);
  const utf8 = new TextDecoder('utf-8', { fatal: true });

  // Status reads repeat the same few query strings (`entityId=…`) thousands of times; parsing is
  // a pure function of kind and text, so its frozen result is kept.
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

  const isQuery = (c: Context): boolean => c.req.method === 'GET' || c.req.method === 'DELETE';
  /** Parameters of a query string (cached, see parseQuery) or of a body. */
  const parse = <K extends RequestKind>(
    c: Context,
    kind: K,
    text: string,
  ): ReturnType<typeof parseRequest<K>> =>
    isQuery(c)
      ? (parseQuery(kind, text) as ReturnType<typeof parseRequest<K>>)
      : parseRequest(kind, text, { maxBytes: deps.maxBodyBytes });

  const publicLimit = Math.min(deps.maxBodyBytes, deps.maxPublicBodyBytes ?? PUBLIC_SUBMISSION_MAX_BYTES);

  /**
   * The request's parameters as text: a POST body (413 past `limit`, invalid UTF-8 answered as
   * parameter errors) or the query string of a GET or DELETE.
   */
  async function readBody(
    c: Context,
    kind: RequestKind,
    limit: number = deps.maxBodyBytes,
  ): Promise<string | Response> {
    if (isQuery(c)) {
      const url = c.req.url;
      const q = url.indexOf('?');
      return q === -1 ? '' : url.slice(q + 1);
    }
    const bytes = await readLimited(c, limit);
    if (bytes === undefined) return tooLarge(c, limit);
    try {
      return utf8.decode(bytes);
    } catch {
      // The decoder reports invalid UTF-8 in its own words.
      return validate(c, kind, bytes);
    }
  }

  /** 429 with Retry-After when the key's bucket is empty; undefined when the request may go on. */
  function throttled(
    c: Context,
    tokenId: string,
    operation: string,
    channel: Channel,
    id: string = c.req.param('id') ?? newId(),
  ): Response | undefined {
    // Throttled per token, operation and channel, the live and the test system counted apart.
    const taken = deps.throttle.take(
      { tokenId, operation, mode: channel.mode, channelId: channel.id },
      channel.settings.throttlePerMinute ?? DEFAULT_LIMIT_PER_MINUTE,
    );
    if (taken.ok) return undefined;
    c.header('Retry-After', String(taken.retryAfterSeconds));
    return env.send(
      c,
      429,
      { code: ResultCodes.THROTTLED, description: 'Too many requests; retry later' },
      { id },
    );
  }

  /**
   * Checks credentials with failed logins throttled per client address and user id: past the
   * limit, 429 with Retry-After before the credentials are looked at; a failure counts against
   * both keys. Answers the failure itself.
   */
  async function authenticate(c: Context, credentials: Credentials): Promise<AccessToken | Response> {
    const keys = authKeys(
      clientAddress(c, deps.trustProxy),
      credentials.kind === 'credentials' ? credentials.userId : undefined,
    );
    if (credentials.kind !== 'missing') {
      const blocked = deps.authFailures.check(keys);
      if (!blocked.ok) {
        c.header('Retry-After', String(blocked.retryAfterSeconds));
        return env.send(c, 429, {
          code: ResultCodes.THROTTLED,
          description: 'Too many failed authentication attempts; retry later',
        });
      }
    }
    const auth = await checkToken(credentials);
    if (auth.ok) {
      // A valid token of the other environment: refused as the family does (not a failed login).
      if (tokenEnvironment(auth.token) !== deps.environment)
        return env.send(c, 403, {
          code: ResultCodes.INVALID_AUTH,
          description: `invalid authentication information: a ${tokenEnvironment(auth.token)} token on the ${deps.environment} address`,
        });
      return auth.token;
    }
    if (credentials.kind !== 'missing') deps.authFailures.fail(keys);
    return env.send(c, auth.status, { code: ResultCodes.INVALID_AUTH, description: auth.description });
  }

  /** The shared front of every route; answers the failure itself and returns undefined then. */
  async function admit<K extends RequestKind>(
    c: Context,
    kind: K,
    operation: string,
  ): Promise<Ready<K> | Response> {
    const body = await readBody(c, kind);
    if (body instanceof Response) return body;

    const credentials = credentialsOf(c.req.header('authorization'), () => new URLSearchParams(body));
    const token = await authenticate(c, credentials);
    if (token instanceof Response) return token;
    const parsed = parse(c, kind, body);
    if (!parsed.ok) return invalid(c, parsed.status, parsed.errors);
    const value = parsed.value as RequestOf<K> & {
      entityId?: string;
      authentication?: { entityId?: string };
      paymentBrand?: string;
      currency?: string;
    };
    const unreachable = refusedUrls(deps.egress, kind, value);
    if (unreachable.length > 0) return invalid(c, 400, unreachable);
    const channel = await resolveChannel(
      channels,
      token,
      value.entityId ?? value.authentication?.entityId,
      deps.environment,
      {
        ...(typeof value.paymentBrand === 'string' ? { brand: value.paymentBrand } : {}),
        ...(typeof value.currency === 'string' ? { currency: value.currency } : {}),
      },
    );
    if (!channel.ok) {
      if (channel.status === 400)
        return env.send(c, 400, {
          code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
          description: `Channel/Merchant not configured for this payment method: ${channel.description}`,
        });
      return env.send(c, 403, { code: ResultCodes.INVALID_AUTH, description: channel.description });
    }
    const refused = throttled(c, token.id, operation, channel.channel);
    if (refused !== undefined) return refused;
    return { request: parsed.value, token, channel: channel.channel, body };
  }

  /**
   * The front of the checkout routes, where the checkout id in the path is what authorizes: the
   * widget submits without merchant credentials, and a few old clients read the status without
   * any (compat). Credentials that ARE sent must be valid (401/403 as everywhere), an entityId
   * sent must be one the token may use (403), and the checkout must be visible to them (its
   * merchant's, on that channel, else 404 as for a payment of another merchant). Without a
   * token, requests are throttled per checkout.
   */
  async function admitCheckout<K extends RequestKind>(
    c: Context,
    kind: K,
    operation: string,
    checkoutId: string,
  ): Promise<CheckoutReady<K> | Response> {
    // Without an Authorization header the checkout id is all a sender needs: the small limit.
    // (Legacy credentials in the body count only once it is read, so they get the small one too.)
    const limit = c.req.header('authorization') === undefined ? publicLimit : deps.maxBodyBytes;
    const body = await readBody(c, kind, limit);
    if (body instanceof Response) return body;
    const credentials = credentialsOf(c.req.header('authorization'), () => new URLSearchParams(body));
    let token: AccessToken | undefined;
    if (credentials.kind !== 'missing') {
      const authenticated = await authenticate(c, credentials);
      if (authenticated instanceof Response) return authenticated;
      token = authenticated;
    }

    const checkout = await deps.store.getCheckout(checkoutId);
    if (checkout === undefined) return noSession(c, checkoutId);
    const parsed = parse(c, kind, body);
    if (!parsed.ok) return invalid(c, parsed.status, parsed.errors);
    const value = parsed.value as { entityId?: string; authentication?: { entityId?: string } };
    const entityId = value.entityId ?? value.authentication?.entityId;

    const channel = await channels.getChannel(checkout.channelId);
    // A checkout lives at the address of its channel's environment only.
    if (channel === undefined || environmentOf(channel.mode) !== deps.environment)
      return noSession(c, checkoutId);
    if (token !== undefined) {
      if (entityId !== undefined && entityId !== token.merchantId) {
        const named = await resolveChannel(channels, token, entityId, deps.environment);
        if (!named.ok) {
          return env.send(c, 403, { code: ResultCodes.INVALID_AUTH, description: named.description });
        }
        if (named.channel.id !== checkout.channelId) return noSession(c, checkoutId);
      } else if (!mayUse(token, channel, deps.environment)) {
        return noSession(c, checkoutId);
      }
    }
    const refused = throttled(c, token?.id ?? `checkout:${checkout.id}`, operation, channel, checkout.id);
    if (refused !== undefined) return refused;
    return { request: parsed.value, token, channel, checkout, body };
  }

  /** An id that names no checkout (or none these credentials may see): 404, in the family's words. */
  function noSession(c: Context, checkoutId: string): Response {
    return env.send(
      c,
      404,
      { code: ResultCodes.INVALID_PARAMETER, description: 'No payment session found for the requested id' },
      {},
      /^[0-9A-Za-z.-]{1,48}$/.test(checkoutId) ? checkoutId : undefined,
    );
  }

  async function validate(c: Context, kind: RequestKind, bytes: Uint8Array): Promise<Response> {
    const parsed = parseRequest(kind, bytes, { maxBytes: deps.maxBodyBytes });
    return invalid(c, parsed.ok ? 400 : parsed.status, parsed.ok ? [] : parsed.errors);
  }

  function invalid(c: Context, status: 400 | 413, errors: ParameterError[]): Response {
    return env.send(c, status, { ...INVALID, parameterErrors: capErrors(errors) });
  }

  function tooLarge(c: Context, limit: number = deps.maxBodyBytes): Response {
    return invalid(c, 413, [{ name: '(body)', value: null, message: `is larger than ${limit} bytes` }]);
  }

  /** A payment the token may see: its merchant's, on a channel the token may use, of this environment. */
  async function visible(token: AccessToken, id: string): Promise<Payment | undefined> {
    const payment = await deps.store.getPayment(token.merchantId, id);
    if (payment === undefined) return undefined;
    const channel = await channels.getChannel(payment.channelId);
    return channel !== undefined && mayUse(token, channel, deps.environment) ? payment : undefined;
  }

  function answer(c: Context, payment: Payment): Response {
    const { result, ndc, ...body } = paymentResponse(payment, deps.processors);
    return env.send(c, statusOf(payment.resultCode), result, body, ndc);
  }

  return {
    channels,
    admit,
    admitCheckout,
    authenticate,
    noSession,
    throttled,
    invalid,
    visible,
    answer,
    idem,
    serialize,
    using,
  };
}

export type Admission = ReturnType<typeof admission>;

/**
 * The body's bytes, or undefined past `limit`: a larger declared Content-Length is refused before
 * anything is read, and a body without one is read only until it passes the limit.
 */
export async function readLimited(c: Context, limit: number): Promise<Uint8Array | undefined> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) return undefined;
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

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
