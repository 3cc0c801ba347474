/**
 * The work budget's buckets: parse cost, in body bytes past the free allowance, that one sender
 * (a token, else a client address) may make the gateway decode and validate per second. A sender
 * within its burst goes at once; one past it waits its turn (the debt its earlier bodies left,
 * paid at the refill rate, first come first served); one whose wait would pass the longest wait
 * is refused, with the seconds after which its body would be taken.
 */

export interface WorkBudgetLimits {
  /** Bytes of each body that cost nothing: every ordinary request is smaller. */
  readonly freeBytes: number;
  /** Bytes a second each sender's bucket refills. */
  readonly bytesPerSecond: number;
  /** What a full bucket holds: the heavy bodies a sender may send at once. */
  readonly burstBytes: number;
  /** The longest a body waits for its turn; past it the answer is 429. */
  readonly maxWaitMs: number;
  /** Senders tracked at most; buckets that are full again are the first forgotten. */
  readonly maxSenders: number;
}

/**
 * The spec's largest valid request (every group, 1,000 cart items) is about 390 KiB: it fits the
 * burst, so it is taken at once however it comes. The widget's biggest legitimate submission is
 * under 40 KB and a real one under 8 KB, a typical API request under 2 KB: free.
 * At 1 MiB a second a sender keeps at most two of the largest bodies the limits allow (512 KiB)
 * in work each second: about a sixth of one core, whatever it sends.
 */
export const DEFAULT_WORK_BUDGET: WorkBudgetLimits = {
  freeBytes: 16 * 1024,
  bytesPerSecond: 1024 * 1024,
  burstBytes: 2 * 1024 * 1024,
  maxWaitMs: 5_000,
  maxSenders: 100_000,
};

export type Admission =
  | { readonly ok: true; readonly waitMs: number }
  | { readonly ok: false; readonly retryAfterSeconds: number };

export interface WorkBudget {
  /** Charges `bytes` (a body's length) to `sender`: at once, after `waitMs`, or refused. */
  admit(sender: string, bytes: number): Admission;
  /** What {@link admit} would answer, nothing charged. */
  peek(sender: string, bytes: number): Admission;
  readonly limits: WorkBudgetLimits;
}

const NOW: Admission = Object.freeze({ ok: true, waitMs: 0 });

export function createWorkBudget(
  limits: WorkBudgetLimits = DEFAULT_WORK_BUDGET,
  now: () => number = Date.now,
): WorkBudget {
  // A sender's level (bytes; negative: the debt of bodies admitted to wait) at `at` (ms).
  const buckets = new Map<string, { level: number; at: number }>();
  const perMs = limits.bytesPerSecond / 1000;

  function forgetFull(t: number): void {
    for (const [sender, b] of buckets)
      if (b.level + (t - b.at) * perMs >= limits.burstBytes) buckets.delete(sender);
    // every bucket still in debt: the oldest go (Map order), as a sender that stopped would
    while (buckets.size >= limits.maxSenders) buckets.delete(buckets.keys().next().value as string);
  }

  /** The sender's level now, and the wait a body of `cost` would have. */
  function quote(sender: string, cost: number, t: number) {
    const bucket = buckets.get(sender);
    const level =
      bucket === undefined
        ? limits.burstBytes
        : Math.min(limits.burstBytes, bucket.level + (t - bucket.at) * perMs);
    return { level, waitMs: level >= cost ? 0 : (cost - level) / perMs };
  }

  const refusal = (waitMs: number): Admission => ({
    ok: false,
    retryAfterSeconds: Math.max(1, Math.ceil((waitMs - limits.maxWaitMs) / 1000)),
  });

  return {
    limits,
    admit(sender, bytes) {
      const cost = bytes - limits.freeBytes;
      if (cost <= 0) return NOW;
      const t = now();
      const { level, waitMs } = quote(sender, cost, t);
      if (waitMs > limits.maxWaitMs) return refusal(waitMs);
      if (!buckets.has(sender) && buckets.size >= limits.maxSenders) forgetFull(t);
      buckets.set(sender, { level: level - cost, at: t });
      return waitMs === 0 ? NOW : { ok: true, waitMs: Math.ceil(waitMs) };
    },
    peek(sender, bytes) {
      const cost = bytes - limits.freeBytes;
      if (cost <= 0) return NOW;
      const { waitMs } = quote(sender, cost, now());
      if (waitMs > limits.maxWaitMs) return refusal(waitMs);
      return waitMs === 0 ? NOW : { ok: true, waitMs: Math.ceil(waitMs) };
    },
  };
}
