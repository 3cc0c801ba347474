/**
 * Request throttling: a token bucket per (access token, operation, channel and its mode), refused
 * requests answered by the caller with 429 and `Retry-After` (decisions, Wire format).
 *
 * A bucket holds up to `limitPerMinute` requests and refills continuously at that rate, so a
 * client may burst up to a minute's allowance and then goes at the steady rate. Pure: no HTTP, an
 * injectable clock, and bounded memory (idle buckets are dropped, the least recently used go
 * first when the cap is reached).
 */

export type ChannelMode = 'TEST' | 'LIVE';

export interface ThrottleKey {
  /** The access token's id (not its secret). */
  readonly tokenId: string;
  /** What is being done, e.g. `payment.create`, `payment.capture`, `query`. */
  readonly operation: string;
  readonly mode: ChannelMode;
  /**
   * The channel (entityId) the request acts for: each channel's limit is counted on its own, so
   * a low limit on one channel never throttles another (nor a busy channel its neighbour).
   * Undefined: one bucket for every channel of the mode (checkouts' public requests name theirs).
   */
  readonly channelId?: string;
}

export type TakeResult = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

export interface ThrottleOptions {
  /** Milliseconds since some epoch; `Date.now` by default. */
  readonly now?: () => number;
  /** Most buckets kept at once; the least recently used is dropped beyond it. */
  readonly maxBuckets?: number;
}

export interface Throttle {
  /**
   * Takes one request from the key's bucket, under the channel's limit (requests per minute;
   * Infinity for none, 0 or less to block, fractions below 1 count as 1).
   */
  take(key: ThrottleKey, limitPerMinute: number): TakeResult;
  /** Buckets currently held. */
  readonly size: number;
}

/**
 * Default per token and operation, per minute. The family publishes far lower limits, but per
 * resource id (one payment, one checkout) rather than per token: merchants run batch captures and
 * refunds of thousands of payments a minute through one token, and a per-token limit that low
 * would break them. 6,000 a minute (100 a second sustained) stops a runaway client or a leaked
 * token from flooding the gateway while leaving batch jobs room.
 */
export const DEFAULT_LIMIT_PER_MINUTE = 6_000;

export const DEFAULT_MAX_BUCKETS = 100_000;

const MINUTE_MS = 60_000;

/**
 * Credit is kept in integer units where one request costs a minute's worth of milliseconds and
 * each millisecond adds `limit` units: refill and cost stay exact, with no floating drift that
 * could refuse a request at the instant Retry-After promised.
 */
const COST = MINUTE_MS;

interface Bucket {
  credit: number;
  limit: number;
  at: number;
}

const keyString = (k: ThrottleKey): string =>
  `${k.mode}\u0000${k.channelId ?? ''}\u0000${k.operation}\u0000${k.tokenId}`;

export function createThrottle(options: ThrottleOptions = {}): Throttle {
  const now = options.now ?? Date.now;
  const maxBuckets = Math.max(1, Math.floor(options.maxBuckets ?? DEFAULT_MAX_BUCKETS));
  // Map iteration follows insertion order; re-inserting on every take keeps it in LRU order.
  const buckets = new Map<string, Bucket>();

  /**
   * Drops buckets untouched for a minute from the old end: they have refilled completely, so
   * dropping them changes nothing. Amortised O(1) per take.
   */
  function sweep(t: number): void {
    for (const [k, b] of buckets) {
      if (t - b.at < MINUTE_MS) break;
      buckets.delete(k);
    }
  }

  return {
    take(key: ThrottleKey, limitPerMinute: number): TakeResult {
      if (limitPerMinute === Number.POSITIVE_INFINITY) return { ok: true };
      // A zero, negative or nonsensical limit blocks the operation (a channel switched off).
      if (!(limitPerMinute > 0) || !Number.isFinite(limitPerMinute))
        return { ok: false, retryAfterSeconds: 60 };
      // Below one a minute, a bucket could never hold a whole request.
      const limit = Math.max(1, limitPerMinute);
      const capacity = limit * COST;
      const t = Math.floor(now());
      sweep(t);

      const id = keyString(key);
      let b = buckets.get(id);
      if (b === undefined) {
        b = { credit: capacity, limit, at: t };
        while (buckets.size >= maxBuckets) {
          const oldest = buckets.keys().next();
          if (oldest.done === true) break;
          buckets.delete(oldest.value);
        }
      } else {
        buckets.delete(id);
        // A changed channel limit applies at once; credit above the new capacity is cut.
        b.credit = Math.min(capacity, b.credit + Math.max(0, t - b.at) * b.limit);
        b.limit = limit;
        b.at = Math.max(b.at, t);
      }
      buckets.set(id, b);

      if (b.credit >= COST) {
        b.credit -= COST;
        return { ok: true };
      }
      const waitMs = Math.ceil((COST - b.credit) / limit);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },

    get size() {
      return buckets.size;
    },
  };
}
