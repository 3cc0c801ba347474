/**
 * The pending-payments worker's tick (server/workers/pending-payments.ts): every session due now
 * is claimed (a lease, so one process at a time handles it) and ended: by timeout once expired,
 * by the cardholder's answer in their banking app or the provider's (decoupled, provider), or,
 * for a connector's uncertain outcome, by asking its processor what happened (inquiry.ts).
 */
import type { PendingDeps } from './asynchronous';
import { ANSWERED_BY_THE_CLOCK, finishPending } from './asynchronous';
import { inquireDue, type Uncertain } from './inquiry';

/** Claims are leases: a worker that dies mid-way leaves its sessions due again after this. */
const LEASE_MS = 60_000;

/**
 * Returns how many payments (and uncertain registrations) it finished; `stopped` hears of each
 * uncertain payment or registration (paymentType RG) the gateway stopped asking about
 * (inquiry.ts), for the operator's log.
 */
export async function finishDue(
  deps: PendingDeps,
  limit = 100,
  stopped?: (payment: Uncertain) => void,
): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.store.claimDuePaymentSessions(now, new Date(now.getTime() + LEASE_MS), limit);
  let finished = 0;
  for (const session of due) {
    if (session.kind === 'inquiry') {
      const asked = await inquireDue(deps, session);
      if (asked.kind === 'finished') finished++;
      if (asked.kind === 'stopped') stopped?.(asked.payment);
      continue;
    }
    // Before its expiry only a decoupled authentication or a provider is due (its answer);
    // finishPending times out whatever has expired.
    const result = await finishPending(
      deps,
      session.id,
      ANSWERED_BY_THE_CLOCK.has(session.kind) ? 'approve' : 'timeout',
    );
    if (result.kind === 'finished') finished++;
  }
  return finished;
}
