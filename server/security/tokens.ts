/**
 * Access tokens in the family's format (decisions, Credentials): the token is the base64 of
 * `userId|secret`, sent as `Authorization: Bearer <token>`, or as the legacy parameters
 * `authentication.userId` and `authentication.password`. Only the userId and a hash of the
 * secret are stored (model `AccessToken`).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface NewToken {
  /** 32 lowercase hex characters. */
  readonly userId: string;
  /** 256 random bits, base64url (43 characters). Shown to the merchant once, never stored. */
  readonly secret: string;
  /** base64 of `userId|secret`: what the merchant sends after `Bearer`. */
  readonly token: string;
  /** `sha256:<hex>` of the secret: what is stored. */
  readonly secretHash: string;
}

export type Credentials =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  /** A well-formed `Bearer <token>` whose token names no one: an invalid token, not a missing one. */
  | { readonly kind: 'unknown' }
  | { readonly kind: 'credentials'; readonly userId: string; readonly secret: string };

const MISSING: Credentials = Object.freeze({ kind: 'missing' });
const MALFORMED: Credentials = Object.freeze({ kind: 'malformed' });
const UNKNOWN: Credentials = Object.freeze({ kind: 'unknown' });

/** Longest token accepted; ours are 104 characters. Longer ones are refused before decoding. */
const MAX_TOKEN_LENGTH = 1024;

/** The token for a userId and secret: base64 of `userId|secret`. */
export function encodeToken(userId: string, secret: string): string {
  return Buffer.from(`${userId}|${secret}`, 'utf8').toString('base64');
}

export function newToken(): NewToken {
  const userId = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { userId, secret, token: encodeToken(userId, secret), secretHash: hashSecret(secret) };
}

/**
 * `sha256:<hex>` of the secret. A plain SHA-256, not scrypt or argon2, on purpose: it is checked on
 * every request, at thousands per second, where a password hash would cost milliseconds each. Slow
 * hashes protect low-entropy passwords from guessing; these secrets are 256 random bits, so a
 * leaked hash cannot be brute-forced whatever the hash speed. The prefix leaves room for another
 * scheme later.
 */
export function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`;
}

/**
 * Whether the secret matches a stored hash. The comparison is constant-time over the fixed-length
 * digests, so timing reveals nothing about how much of the hash matched. An unknown or damaged
 * stored hash never matches.
 */
export function verifySecret(secret: string, hash: string): boolean {
  const m = /^sha256:([0-9a-f]{64})$/.exec(hash);
  if (m === null) return false;
  const expected = Buffer.from(m[1]!, 'hex');
  const actual = createHash('sha256').update(secret, 'utf8').digest();
  return timingSafeEqual(actual, expected);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** userId and secret from a token, or malformed: not base64, not UTF-8, no `|`, or an empty half. */
export function decodeToken(token: string): Credentials {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return MALFORMED;
  // Standard or url-safe alphabet, padding optional; a length of 4n+1 is never valid base64.
  const body = token.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9+/_-]+$/.test(body) || body.length % 4 === 1) return MALFORMED;
  let text: string;
  try {
    text = utf8.decode(Buffer.from(body, 'base64'));
  } catch {
    return MALFORMED;
  }
  const bar = text.indexOf('|');
  if (bar <= 0 || bar === text.length - 1) return MALFORMED;
  return { kind: 'credentials', userId: text.slice(0, bar), secret: text.slice(bar + 1) };
}

/**
 * Credentials from an Authorization header value (HTTP has already stripped the spaces around it,
 * so `Authorization:Bearer x` arrives like `Authorization: Bearer x`). "Bearer" in any case, with
 * any whitespace before the token. Missing when there is no header or an empty one; malformed for
 * another scheme (`Basic …`) or more than one token; unknown for a token that does not decode
 * (`Bearer nope`): the header is well formed and the token invalid, which the family answers 403.
 */
export function parseAuthorization(header: string | undefined): Credentials {
  if (header === undefined || header.trim() === '') return MISSING;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (m === null) return MALFORMED;
  const decoded = decodeToken(m[1]!);
  return decoded.kind === 'malformed' ? UNKNOWN : decoded;
}

export interface LegacyAuthParams {
  readonly 'authentication.userId'?: string | undefined;
  readonly 'authentication.password'?: string | undefined;
}

/**
 * Credentials from the deprecated parameter form. Missing when neither is given (or both are
 * empty); malformed when only one of them is.
 */
export function credentialsFromParams(params: LegacyAuthParams): Credentials {
  const userId = params['authentication.userId'] ?? '';
  const secret = params['authentication.password'] ?? '';
  if (userId === '' && secret === '') return MISSING;
  if (userId === '' || secret === '') return MALFORMED;
  return { kind: 'credentials', userId, secret };
}
