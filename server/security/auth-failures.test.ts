import { describe, expect, it } from 'vitest';
import { authKeys, createAuthFailures } from './auth-failures';

describe('failed-login counter (leaky bucket per key)', () => {
  it('blocks a key after `limit` failures, for as long as one more failure needs to drain', () => {
    let t = 0;
    const failures = createAuthFailures({ limit: 10, windowMs: 60_000, now: () => t });
    const keys = authKeys('203.0.113.1');
    for (let i = 0; i < 9; i++) failures.fail(keys);
    expect(failures.check(keys)).toEqual({ ok: true });
    failures.fail(keys);
    expect(failures.check(keys)).toEqual({ ok: false, retryAfterSeconds: 6 });
    t = 5_999;
    expect(failures.check(keys).ok).toBe(false);
    t = 6_000;
    expect(failures.check(keys)).toEqual({ ok: true });
    failures.fail(keys); // one more try, then blocked again
    expect(failures.check(keys).ok).toBe(false);
    t += 60_000;
    expect(failures.check(keys)).toEqual({ ok: true });
  });

  it('keeps addresses apart: one blocked, others not; scopes apart; no address, no key', () => {
    const failures = createAuthFailures({ limit: 2 });
    failures.fail(authKeys('a'));
    failures.fail(authKeys('a'));
    expect(failures.check(authKeys('a')).ok).toBe(false);
    expect(failures.check(authKeys('b')).ok).toBe(true);
    expect(failures.check(authKeys('a', 'admin')).ok).toBe(true);
    expect(authKeys(undefined)).toEqual([]);
  });

  it('counts an IPv6 address by its /64 and an IPv4-mapped one as its IPv4', () => {
    expect(authKeys('2001:db8:1:2:aaaa::1')).toEqual(['ip:2001:db8:1:2::/64']);
    expect(authKeys('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toEqual(['ip:2001:db8:1:2::/64']);
    expect(authKeys('::1')).toEqual(['ip:0:0:0:0::/64']);
    expect(authKeys('::ffff:192.0.2.1')).toEqual(authKeys('192.0.2.1'));
    expect(authKeys('fe80::1%eth0')).toEqual(['ip:fe80:0:0:0::/64']);
    expect(authKeys('not an address')).toEqual(['ip:not an address']);
  });

  it('holds at most maxKeys keys, dropping the least recently failed', () => {
    const failures = createAuthFailures({ limit: 1, maxKeys: 100 });
    for (let i = 0; i < 1_000; i++) failures.fail(authKeys(`10.0.${i >> 8}.${i & 255}`));
    expect(failures.size).toBe(100);
    expect(failures.check(authKeys('10.0.3.231')).ok).toBe(false); // the last one
    expect(failures.check(authKeys('10.0.0.0')).ok).toBe(true); // dropped long ago
  });
});
