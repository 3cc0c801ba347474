import { describe, expect, it } from 'vitest';
import { createWorkBudget, DEFAULT_WORK_BUDGET, type WorkBudgetLimits } from './budget';

const LIMITS: WorkBudgetLimits = {
  freeBytes: 100,
  bytesPerSecond: 1_000,
  burstBytes: 2_000,
  maxWaitMs: 3_000,
  maxSenders: 3,
};

function budget(limits = LIMITS) {
  let t = 0;
  const b = createWorkBudget(limits, () => t);
  return { b, tick: (ms: number) => (t += ms) };
}

describe('the work budget', () => {
  it('lets bodies within the free allowance through whatever the rate', () => {
    const { b } = budget();
    for (let i = 0; i < 10_000; i++) expect(b.admit('m', 100)).toEqual({ ok: true, waitMs: 0 });
  });

  it('takes a burst at once, then makes the sender wait its turn, then refuses with Retry-After', () => {
    const { b } = budget();
    // each body costs 1,000 (1,100 bytes, 100 free): two fill the burst
    expect(b.admit('m', 1_100)).toEqual({ ok: true, waitMs: 0 });
    expect(b.admit('m', 1_100)).toEqual({ ok: true, waitMs: 0 });
    expect(b.admit('m', 1_100)).toEqual({ ok: true, waitMs: 1_000 });
    expect(b.admit('m', 1_100)).toEqual({ ok: true, waitMs: 2_000 });
    expect(b.admit('m', 1_100)).toEqual({ ok: true, waitMs: 3_000 });
    // a fourth second of debt is past the longest wait: refused, and not charged
    expect(b.admit('m', 1_100)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(b.admit('m', 1_100)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('charges each sender alone: another is taken at once while the first waits', () => {
    const { b } = budget();
    for (let i = 0; i < 5; i++) b.admit('noisy', 1_100);
    expect(b.admit('noisy', 1_100).ok).toBe(false);
    expect(b.admit('quiet', 1_100)).toEqual({ ok: true, waitMs: 0 });
  });

  it('refills at its rate, up to the burst', () => {
    const { b, tick } = budget();
    b.admit('m', 1_100);
    b.admit('m', 1_100);
    tick(500);
    expect(b.admit('m', 1_100)).toEqual({ ok: true, waitMs: 500 });
    tick(60_000);
    expect(b.admit('m', 2_100)).toEqual({ ok: true, waitMs: 0 });
    expect(b.admit('m', 1_100)).toEqual({ ok: true, waitMs: 1_000 });
  });

  it('forgets senders whose buckets are full again first, then the oldest', () => {
    const { b, tick } = budget();
    b.admit('a', 2_100);
    b.admit('b', 2_100);
    tick(2_000); // a and b full again
    b.admit('c', 2_100);
    b.admit('d', 2_100); // a and b forgotten
    b.admit('e', 2_100);
    expect(b.admit('c', 1_100)).toEqual({ ok: true, waitMs: 1_000 });
    expect(b.admit('e', 1_100)).toEqual({ ok: true, waitMs: 1_000 });
  });

  it('takes the spec’s largest valid request (about 390 KiB) at once, in a burst of them', () => {
    const { b } = budget(DEFAULT_WORK_BUDGET);
    for (let i = 0; i < 5; i++) expect(b.admit('m', 390 * 1024)).toEqual({ ok: true, waitMs: 0 });
  });
});
