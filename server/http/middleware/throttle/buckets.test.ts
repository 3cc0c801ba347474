import { describe, expect, it } from 'vitest';
import { createThrottle, DEFAULT_LIMIT_PER_MINUTE, type ThrottleKey } from './buckets';

function clock(start = 1_700_000_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const key = (over: Partial<ThrottleKey> = {}): ThrottleKey => ({
  tokenId: 'tok1',
  operation: 'payment.create',
  mode: 'LIVE',
  ...over,
});

function drain(take: () => { ok: boolean }, max: number): number {
  let n = 0;
  while (n < max && take().ok) n++;
  return n;
}

describe('throttle', () => {
  it('allows up to the limit, then refuses with a Retry-After that is enough', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    for (let i = 0; i < 10; i++) expect(th.take(key(), 10)).toEqual({ ok: true });
    const refused = th.take(key(), 10);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    // 10 a minute: one request every 6 s
    expect(refused.retryAfterSeconds).toBe(6);

    c.advance(refused.retryAfterSeconds * 1000 - 1);
    expect(th.take(key(), 10).ok).toBe(false);
    c.advance(1);
    expect(th.take(key(), 10)).toEqual({ ok: true });
    expect(th.take(key(), 10).ok).toBe(false);
  });

  it('keeps its promise for awkward limits and times (no rounding drift)', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    for (const limit of [1, 7, 13, 59, 61, 997, 6000, 100_000]) {
      const k = key({ operation: `op${limit}` });
      expect(drain(() => th.take(k, limit), limit + 1)).toBe(limit);
      for (let round = 0; round < 5; round++) {
        const r = th.take(k, limit);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(r.retryAfterSeconds).toBeLessThanOrEqual(60);
        c.advance(r.retryAfterSeconds * 1000);
        expect(th.take(k, limit).ok).toBe(true);
        c.advance(333);
        drain(() => th.take(k, limit), limit + 1);
      }
    }
  });

  it('refills at the steady rate after a burst', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    expect(drain(() => th.take(key(), 600), 1000)).toBe(600);
    c.advance(1000); // 600 a minute = 10 a second
    expect(drain(() => th.take(key(), 600), 1000)).toBe(10);
    c.advance(10 * 60_000); // never more than the bucket holds
    expect(drain(() => th.take(key(), 600), 1000)).toBe(600);
  });

  it('keeps separate buckets for TEST and LIVE, per operation and per token', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    expect(drain(() => th.take(key(), 3), 10)).toBe(3);
    expect(th.take(key(), 3).ok).toBe(false);
    expect(drain(() => th.take(key({ mode: 'TEST' }), 3), 10)).toBe(3);
    expect(drain(() => th.take(key({ operation: 'payment.capture' }), 3), 10)).toBe(3);
    expect(drain(() => th.take(key({ tokenId: 'tok2' }), 3), 10)).toBe(3);
    expect(th.size).toBe(4);
  });

  it('does not confuse keys whose parts run together', () => {
    const th = createThrottle({ now: clock().now });
    expect(drain(() => th.take({ tokenId: 'a', operation: 'bc', mode: 'LIVE' }, 1), 5)).toBe(1);
    expect(drain(() => th.take({ tokenId: 'ca', operation: 'b', mode: 'LIVE' }, 1), 5)).toBe(1);
  });

  it('applies a changed channel limit at once', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    expect(drain(() => th.take(key(), 100), 5)).toBe(5);
    // lowered to 3: the bucket holds at most 3, and 5 were used already
    expect(th.take(key(), 3).ok).toBe(true);
    expect(drain(() => th.take(key(), 3), 10)).toBe(2);
    expect(th.take(key(), 3).ok).toBe(false);
  });

  it('blocks with a zero or invalid limit, and never limits with Infinity', () => {
    const th = createThrottle({ now: clock().now });
    expect(th.take(key(), 0)).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(th.take(key(), -5).ok).toBe(false);
    expect(th.take(key(), Number.NaN).ok).toBe(false);
    expect(drain(() => th.take(key(), Number.POSITIVE_INFINITY), 50_000)).toBe(50_000);
    expect(th.size).toBe(0);
  });

  it('treats a limit below one a minute as one', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    expect(drain(() => th.take(key(), 0.5), 5)).toBe(1);
    const r = th.take(key(), 0.5);
    expect(r).toEqual({ ok: false, retryAfterSeconds: 60 });
  });

  it('caps the number of buckets, dropping the least recently used', () => {
    const c = clock();
    const th = createThrottle({ now: c.now, maxBuckets: 3 });
    for (const t of ['a', 'b', 'c']) expect(drain(() => th.take(key({ tokenId: t }), 2), 5)).toBe(2);
    // touch a: b is now the least recently used
    expect(th.take(key({ tokenId: 'a' }), 2).ok).toBe(false);
    expect(th.take(key({ tokenId: 'd' }), 2).ok).toBe(true);
    expect(th.size).toBe(3);
    // a and c were kept (still empty); b was dropped and starts afresh
    expect(th.take(key({ tokenId: 'a' }), 2).ok).toBe(false);
    expect(th.take(key({ tokenId: 'c' }), 2).ok).toBe(false);
    expect(th.size).toBe(3);

    const big = createThrottle({ now: c.now, maxBuckets: 1000 });
    for (let i = 0; i < 10_000; i++) big.take(key({ tokenId: `t${i}` }), 10);
    expect(big.size).toBe(1000);
  });

  it('drops buckets idle for a minute, which have refilled anyway', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    for (let i = 0; i < 100; i++) th.take(key({ tokenId: `t${i}` }), 10);
    expect(th.size).toBe(100);
    c.advance(30_000);
    th.take(key({ tokenId: 'fresh' }), 10);
    expect(th.size).toBe(101);
    c.advance(30_000);
    th.take(key({ tokenId: 'fresh' }), 10);
    expect(th.size).toBe(1);
    // and the dropped ones behave as full buckets would have
    expect(drain(() => th.take(key({ tokenId: 't0' }), 10), 20)).toBe(10);
  });

  it('tolerates a clock that steps back', () => {
    const c = clock();
    const th = createThrottle({ now: c.now });
    expect(drain(() => th.take(key(), 2), 5)).toBe(2);
    c.advance(-3_600_000);
    expect(th.take(key(), 2).ok).toBe(false);
    c.advance(3_600_000 + 30_000);
    expect(th.take(key(), 2).ok).toBe(true);
  });

  it('has a default limit that allows batch jobs', () => {
    expect(DEFAULT_LIMIT_PER_MINUTE).toBe(6000);
    const c = clock();
    const th = createThrottle({ now: c.now });
    expect(drain(() => th.take(key(), DEFAULT_LIMIT_PER_MINUTE), 10_000)).toBe(6000);
    c.advance(1000);
    expect(drain(() => th.take(key(), DEFAULT_LIMIT_PER_MINUTE), 10_000)).toBe(100);
  });

  it('uses the real clock by default', () => {
    const th = createThrottle();
    expect(th.take(key(), 1)).toEqual({ ok: true });
    const r = th.take(key(), 1);
    expect(r.ok).toBe(false);
  });
});
