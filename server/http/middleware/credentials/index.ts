/**
 * Credentials (spec: Authentication; decisions: Credentials): a Bearer token, or the legacy
 * `authentication.userId`/`authentication.password` parameters, both naming the same
 * `userId|secret`, checked against the stored tokens with failed logins throttled per client
 * address (server/security/auth-failures.ts): 401 missing or malformed, 403 wrong or of the other
 * environment, 429 past the limit. The middleware leaves the token on the context (`c.var.token`).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { type AccessToken, type Environment, tokenEnvironment } from '../../../../shared/engine/core/model';
import type { Store } from '../../../../shared/engine/core/ports';
import { ResultCodes } from '../../../../shared/result-codes';
import { type AuthFailures, authKeys } from '../../../security/auth-failures';
import {
  type Credentials,
  credentialsFromParams,
  parseAuthorization,
  verifySecret,
} from '../../../security/tokens';
import type { BodyEnv, OptionalTokenEnv, TokenEnv } from '../../context';
import { expiringMap } from '../../expiring';
import type { Envelope } from '../envelope';
import { tooManyRequests } from '../envelope/too-many';
import { storable } from '../storable';
import { clientAddress } from '../transport';
import { type TokenUseDeps, tokenUseRecorder } from './last-use';

export type Authenticated = { readonly ok: true; readonly token: AccessToken };
export type AuthFailure = { readonly ok: false; readonly status: 401 | 403; readonly description: string };

/** Reads credentials from the header, else from legacy parameters (body or query). */
export function credentialsOf(header: string | undefined, rawParams: () => URLSearchParams): Credentials {
  const fromHeader = parseAuthorization(header);
  if (fromHeader.kind !== 'missing') return fromHeader;
  const params = rawParams();
  const userId = params.get('authentication.userId') ?? undefined;
  const password = params.get('authentication.password') ?? undefined;
  return credentialsFromParams({
    ...(userId === undefined ? {} : { 'authentication.userId': userId }),
    ...(password === undefined ? {} : { 'authentication.password': password }),
  });
}

/**
 * Checks credentials against the stored tokens. Tokens are cached for a few seconds, so a burst
 * of payments does not read the same token thousands of times; revoking takes effect within that.
 */
export function tokenChecker(store: Store, now: () => number = Date.now, ttlMs = 5_000) {
  return tokenCheck(store, now, ttlMs).check;
}

/**
 * `check`, and `cached`: the verdict on credentials that matched a token still cached, without a
 * promise (a merchant's stream of requests sends the same ones); undefined when `check` must look.
 */
function tokenCheck(store: Store, now: () => number, ttlMs: number) {
  const tokens = expiringMap<AccessToken | undefined>(now);
  // Credentials that matched, for as long as their token stays cached: a merchant's stream of
  // requests then skips hashing the same secret again (a tenth of a status read's CPU).
  const verified = expiringMap<AccessToken>(now);
  const keyOf = (credentials: { readonly userId: string; readonly secret: string }) =>
    `${credentials.userId}|${credentials.secret}`;
  const cached = (credentials: Credentials): Authenticated | undefined => {
    if (credentials.kind !== 'credentials') return undefined;
    const hit = verified.get(keyOf(credentials));
    return hit === undefined ? undefined : { ok: true, token: hit.value };
  };
  const check = async (credentials: Credentials): Promise<Authenticated | AuthFailure> => {
    if (credentials.kind === 'missing') {
      return {
        ok: false,
        status: 401,
        description: 'missing authentication: send Authorization: Bearer <token>',
      };
    }
    if (credentials.kind === 'malformed') {
      return {
        ok: false,
        status: 401,
        description: 'malformed Authorization header: expected Bearer <token>',
      };
    }
    if (credentials.kind === 'unknown')
      return { ok: false, status: 403, description: 'invalid authentication information' };
    const hit = cached(credentials);
    if (hit !== undefined) return hit;
    const entry = await tokens.load(credentials.userId, ttlMs, () =>
      store.getTokenByUserId(credentials.userId),
    );
    const token = entry.value;
    if (
      token === undefined ||
      token.revokedAt !== null ||
      !verifySecret(credentials.secret, token.secretHash)
    ) {
      return { ok: false, status: 403, description: 'invalid authentication information' };
    }
    verified.set(keyOf(credentials), token, entry.until);
    return { ok: true, token };
  };
  /** The expired tokens and verdicts dropped, and the headers read forgotten (idle gateway). */
  const release = () => {
    tokens.release();
    verified.release();
    headers.clear();
  };
  return { check, cached, release };
}

/**
 * The answer past the failed-login limit (429 with Retry-After), before credentials are looked
 * at: the merchants' API and the operator's admin API alike.
 */
export function tooManyFailedAttempts(env: Envelope, c: Context, retryAfterSeconds: number): Response {
  return tooManyRequests(env, c, retryAfterSeconds, 'Too many failed authentication attempts; retry later');
}

export interface AuthenticatorDeps extends Pick<TokenUseDeps, 'clock' | 'logger'> {
  readonly store: Store & TokenUseDeps['store'];
  readonly env: Envelope;
  readonly authFailures: AuthFailures;
  readonly environment: Environment;
  readonly trustProxy: boolean;
}

/**
 * Checks credentials and answers a failure itself: the token, or the 401/403/429 to send. Without
 * a promise when the credentials matched a token still cached (nearly every request).
 */
export type Authenticate = (
  c: Context,
  credentials: Credentials,
) => AccessToken | Response | Promise<AccessToken | Response>;

/**
 * Checks credentials with failed logins throttled per client address (never per user id: anyone
 * knows a merchant's, server/security/auth-failures.ts): past the limit, 429 with Retry-After
 * before the credentials are looked at. A valid token of the other environment is refused (403) as the family does, not
 * counted as a failed login.
 */
export function authenticator(deps: AuthenticatorDeps): Authenticate & { readonly release: () => void } {
  const { env } = deps;
  const tokens = tokenCheck(deps.store, Date.now, 5_000);
  const used = tokenUseRecorder(deps);
  const accepted = (c: Context, auth: Authenticated): AccessToken | Response => {
    if (tokenEnvironment(auth.token) !== deps.environment)
      return env.send(c, 403, {
        code: ResultCodes.INVALID_AUTH,
        description: `invalid authentication information: a ${tokenEnvironment(auth.token)} token on the ${deps.environment} address`,
      });
    used(auth.token.id);
    return auth.token;
  };
  const checked = async (c: Context, credentials: Credentials, keys: readonly string[]) => {
    const auth = await tokens.check(credentials);
    if (auth.ok) return accepted(c, auth);
    if (credentials.kind !== 'missing') deps.authFailures.fail(keys);
    return env.send(c, auth.status, { code: ResultCodes.INVALID_AUTH, description: auth.description });
  };
  const authenticate: Authenticate = (c, sent) => {
    const credentials = storableOnly(sent);
    const keys = authKeys(clientAddress(c, deps.trustProxy));
    if (credentials.kind !== 'missing') {
      const blocked = deps.authFailures.check(keys);
      if (!blocked.ok) return tooManyFailedAttempts(env, c, blocked.retryAfterSeconds);
    }
    const hit = tokens.cached(credentials);
    return hit !== undefined ? accepted(c, hit) : checked(c, credentials, keys);
  };
  return Object.assign(authenticate, { release: tokens.release });
}

/**
 * Authorization headers already read: a merchant sends the same header with every request, and
 * reading it (a regular expression, base64, UTF-8) is a pure function of its text. Bounded, and
 * emptied when full, so headers that differ each time cost no more than without it.
 */
const headers = new Map<string, Credentials>();

function fromHeader(header: string | undefined): Credentials {
  if (header === undefined) return parseAuthorization(header);
  let read = headers.get(header);
  if (read === undefined) {
    read = Object.freeze(parseAuthorization(header));
    if (headers.size >= 1_000) headers.clear();
    headers.set(header, read);
  }
  return read;
}

/** The request's credentials: the Authorization header, else the legacy parameters of `c.var.body`. */
const credentialsIn = (header: string | undefined, body: string): Credentials => {
  const read = fromHeader(header);
  return read.kind !== 'missing' ? read : credentialsOf(undefined, () => new URLSearchParams(body));
};

const UNKNOWN: Credentials = Object.freeze({ kind: 'unknown' });

/**
 * Credentials whose user id or secret cannot be stored (a NUL decoded from the token's base64)
 * name no one: refused as an unknown token (403, a failed login), never looked up (PostgreSQL
 * refuses NUL in text: a 500 before).
 */
const storableOnly = (read: Credentials): Credentials =>
  read.kind === 'credentials' && !(storable(read.userId) && storable(read.secret)) ? UNKNOWN : read;

/** Credentials required: `c.var.token`, or 401/403/429. After `body`. */
export function credentials(authenticate: Authenticate): MiddlewareHandler<BodyEnv & TokenEnv> {
  return (c, next) => {
    const token = authenticate(c, credentialsIn(c.req.header('authorization'), c.get('body')));
    const go = (known: AccessToken | Response): Promise<Response | undefined> => {
      if (known instanceof Response) return Promise.resolve(known);
      c.set('token', known);
      return next() as Promise<undefined>;
    };
    return token instanceof Promise ? token.then(go) : go(token);
  };
}

/**
 * Credentials optional (the checkout routes, opened by the checkout id): none sent leaves
 * `c.var.token` undefined; credentials sent must be valid (401/403/429 as everywhere).
 */
export function optionalCredentials(
  authenticate: Authenticate,
): MiddlewareHandler<BodyEnv & OptionalTokenEnv> {
  return async (c, next) => {
    const sent = credentialsIn(c.req.header('authorization'), c.get('body'));
    let token: AccessToken | undefined;
    if (sent.kind !== 'missing') {
      const authenticated = await authenticate(c, sent);
      if (authenticated instanceof Response) return authenticated;
      token = authenticated;
    }
    c.set('token', token);
    await next();
  };
}
