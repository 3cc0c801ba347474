/**
 * Failed logins, throttled: merchant credentials on the API (Bearer or the legacy
 * `authentication.*` parameters), the admin token, and FTP logins all count their failures here,
 * per client address, so guessing is slowed to a few tries a minute whatever the protocol.
 *
 * Never per user id alone: the user id is the first half of every token, the FTP user name and
 * shown to dashboard viewers, so a count kept per user id would let anyone lock a merchant out of
 * its own API with ten wrong secrets a minute. Tokens carry 256 random bits, so online guessing is
 * hopeless anyway; what the throttle must stop is one client's volume, and that is per address.
 * IPv6 addresses count per /64 (one subscriber's prefix: a host picks any address in it).
 *
 * Each key has a leaky bucket: a failure adds one, the level drains at `limit` per `windowMs`,
 * and once it holds `limit` the key is blocked until it drains below that again: further attempts
 * are refused (429 with Retry-After, FTP 530) before the credentials are even looked at. A burst
 * of `limit` failures is allowed, then one more every `windowMs / limit`. Successes cost nothing
 * and reset nothing; another address's failures never block an address. Memory is bounded: at
 * most `maxKeys` keys, the least recently failed dropped first.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface AuthFailureOptions {
  /** Failures allowed per key within `windowMs`; 10 by default. */
  readonly limit?: number;
  /** The window; one minute by default. */
  readonly windowMs?: number;
  /** Most keys kept; 10,000 by default. */
  readonly maxKeys?: number;
  readonly now?: () => number;
}

export type AuthFailureCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly retryAfterSeconds: number };

export interface AuthFailures {
  /** Whether any of the keys is blocked now; keys are e.g. `ip:1.2.3.4`, `admin:<address>`. */
  check(keys: readonly string[]): AuthFailureCheck;
  /** Counts one failure against each key. */
  fail(keys: readonly string[]): void;
  /** Keys currently held. */
  readonly size: number;
}

export const DEFAULT_AUTH_FAILURE_LIMIT = 10;
export const DEFAULT_AUTH_FAILURE_WINDOW_MS = 60_000;
export const DEFAULT_AUTH_FAILURE_KEYS = 10_000;

/**
 * The keys of one attempt: the client's address (none when unknown: a request without a socket,
 * as in-process tests send), within a scope (the admin token counts apart from the API's). Whose
 * credentials were tried does not count (see above).
 */
export function authKeys(address: string | undefined, scope = 'ip'): string[] {
  return address === undefined ? [] : [`${scope}:${addressKey(address)}`];
}

/**
 * An address as the throttle counts it: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4),
 * IPv6 by its /64, anything else (a proxy's odd X-Forwarded-For) as its text, bounded.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address.slice(0, 64);
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::');
  const part = (text: string | undefined) => (text === undefined || text === '' ? [] : text.split(':'));
  const expand = (groups: string[]) =>
    groups.flatMap((g) => {
      if (!g.includes('.')) return [g];
      const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const left = expand(part(head));
  const right = expand(part(tail));
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16).toString(16));
}

const NOT_BLOCKED: AuthFailureCheck = Object.freeze({ ok: true });

interface Bucket {
  level: number;
  at: number;
}

export function createAuthFailures(options: AuthFailureOptions = {}): AuthFailures {
  const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_AUTH_FAILURE_LIMIT));
  const windowMs = Math.max(1, options.windowMs ?? DEFAULT_AUTH_FAILURE_WINDOW_MS);
  const maxKeys = Math.max(1, Math.floor(options.maxKeys ?? DEFAULT_AUTH_FAILURE_KEYS));
  const now = options.now ?? Date.now;
  const drainPerMs = limit / windowMs;
  // Insertion order is recency order: a failure re-inserts its key.
  const buckets = new Map<string, Bucket>();

  const levelOf = (bucket: Bucket, t: number): number =>
    Math.max(0, bucket.level - Math.max(0, t - bucket.at) * drainPerMs);

  return {
    check(keys) {
      const t = now();
      let waitMs = 0;
      for (const key of keys) {
        const bucket = buckets.get(key);
        if (bucket === undefined) continue;
        const level = levelOf(bucket, t);
        // Blocked while a further failure would take it past the limit.
        if (level > limit - 1) waitMs = Math.max(waitMs, (level - (limit - 1)) / drainPerMs);
      }
      return waitMs === 0
        ? NOT_BLOCKED
        : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },

    fail(keys) {
      const t = now();
      for (const key of keys) {
        const bucket = buckets.get(key);
        const level = bucket === undefined ? 0 : levelOf(bucket, t);
        buckets.delete(key);
        while (buckets.size >= maxKeys) {
          const oldest = buckets.keys().next();
          if (oldest.done === true) break;
          buckets.delete(oldest.value);
        }
        buckets.set(key, { level: Math.min(limit, level + 1), at: t });
      }
    },

    get size() {
      return buckets.size;
    },
  };
}
