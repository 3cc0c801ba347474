/**
 * Moving the test clock: everything that became due between now and the target runs, in time
 * order, before the move is answered. The procedure steps the clock to each next due instant
 * (storage/due/store.ts reads them from the workers' own due columns, the settlement run's daily
 * cut-off is computed) and runs the workers there until none has anything left to do, so each
 * piece of work happens at the time it was due, once, and work it leaves (a notification, a
 * retry, the next fire time) is found by the next step. The workers' own polls are paused
 * meanwhile, so nothing runs at a time between two steps.
 */
import type { DueWorkStore } from '../storage/due/store';
import type { Poller } from '../workers/poller';
import type { TestClock } from './test-clock';

/** The workers, in the order they run at one instant: what ends a payment before what tells of it. */
export const DUE_KINDS = [
  'pendingPayments',
  'shopperResultUrl',
  'schedules',
  'webhooks',
  'settlement',
] as const;
export type DueKind = (typeof DUE_KINDS)[number];

/**
 * What a move ran: `checkoutExpiry` open checkouts whose 30 minutes ran out; each worker's own
 * count (payments ended by a timeout or a decoupled answer, shopperResultUrl calls made, schedule
 * runs, webhook notifications delivered, account days settled).
 */
export type Ran = Record<DueKind | 'checkoutExpiry', number>;

export interface DueWorker {
  readonly kind: DueKind;
  readonly poller: Poller;
  /** Polls on its own (autoStart): paused during a move, started again after it. */
  readonly polling: boolean;
}

export interface AdvanceDeps {
  readonly clock: TestClock;
  readonly due: DueWorkStore;
  readonly workers: readonly DueWorker[];
  /** The settlement run's daily cut-off after midnight (UTC). */
  readonly settlementCutoffMs: number;
  readonly onError: (kind: DueKind, error: unknown) => void;
}

const DAY_MS = 86_400_000;
/** At one instant the workers run again while any did something (a timeout leaves a notification …). */
const MAX_ROUNDS = 20;

/** The settlement run's next cut-off strictly after `at`. */
export function nextCutoffAfter(at: Date, cutoffMs: number): Date {
  const day = Math.floor((at.getTime() - cutoffMs) / DAY_MS);
  return new Date((day + 1) * DAY_MS + cutoffMs);
}

const emptyRan = (): Ran => ({
  checkoutExpiry: 0,
  pendingPayments: 0,
  shopperResultUrl: 0,
  schedules: 0,
  webhooks: 0,
  settlement: 0,
});

/** Moves the clock to `target` (not before now: the caller checks), running what became due. */
export async function advanceTo(deps: AdvanceDeps, target: Date): Promise<Ran> {
  const { clock, due } = deps;
  const ran = emptyRan();
  await Promise.all(deps.workers.map((w) => w.poller.stop()));
  try {
    let now = clock.now();
    await runDue(deps, ran);
    for (;;) {
      const candidates = [await due.nextDueAfter(now), nextCutoffAfter(now, deps.settlementCutoffMs)];
      const next = candidates
        .filter((at): at is Date => at !== undefined)
        .reduce((a, b) => (a.getTime() <= b.getTime() ? a : b));
      if (next.getTime() > target.getTime()) break;
      clock.set(next);
      ran.checkoutExpiry += await due.countCheckoutsExpiring(now, next);
      now = next;
      await runDue(deps, ran);
    }
    clock.set(target);
    ran.checkoutExpiry += await due.countCheckoutsExpiring(now, target);
    await runDue(deps, ran);
  } finally {
    for (const w of deps.workers) if (w.polling) w.poller.start();
  }
  return ran;
}

/** Runs the workers at the clock's time, in DUE_KINDS order, until none has anything left to do. */
async function runDue(deps: AdvanceDeps, ran: Ran): Promise<void> {
  const ordered = [...deps.workers].sort((a, b) => DUE_KINDS.indexOf(a.kind) - DUE_KINDS.indexOf(b.kind));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let done = 0;
    for (const worker of ordered) {
      try {
        const n = await worker.poller.runOnce();
        ran[worker.kind] += n;
        done += n;
      } catch (error) {
        deps.onError(worker.kind, error);
      }
    }
    if (done === 0) return;
  }
}
