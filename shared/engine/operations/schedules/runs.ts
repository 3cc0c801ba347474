/**
 * The runs: claim → pay with the registration as MIT → record, exactly once per fire time.
 */

import { fromMinor } from '../../../money';
import type { RequestOf } from '../../../params/requests';
import { ResultCodes } from '../../../result-codes';
import { paymentChanges, scheduleChange } from '../../answers/notifications';
import type { IssuerLookup } from '../../answers/response';
import { newId } from '../../core/ids';
import type { Payment } from '../../core/model';
import type { IdempotencyClaim, Store } from '../../core/ports';
import type {
  RunClaim,
  RunFinish,
  Schedule,
  ScheduleDeps,
  ScheduleRun,
  ScheduleView,
} from '../../core/schedule';
import { payWithRegistration } from '../registrations';
import { DEFAULT_GRACE_MS, DEFAULT_RUN_LEASE_MS, planRuns } from './catch-up';

/**
 * A Store that writes the payment under the run's reserved id (see the exactly-once rule above),
 * with its notifications rendered for that id.
 */
function writingAs(store: Store, id: string, issuers: IssuerLookup): Store {
  const insertAs = (target: Store, payment: Payment, claim?: IdempotencyClaim) => {
    const reserved = { ...payment, id };
    return target.insertPayment(reserved, paymentChanges(reserved, reserved.createdAt, issuers), claim);
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'insertPayment')
        return (payment: Payment, _changes: unknown, claim?: IdempotencyClaim) =>
          insertAs(target, payment, claim);
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The payment request a run makes with the schedule's registration. */
function runRequest(s: Schedule): RequestOf<'registrationPayment'> {
  const p = s.payment;
  return {
    amount: fromMinor(s.amount, s.currency),
    currency: s.currency,
    paymentType: s.paymentType,
    ...(p.merchantTransactionId === undefined ? {} : { merchantTransactionId: p.merchantTransactionId }),
    ...(p.descriptor === undefined ? {} : { descriptor: p.descriptor }),
    ...(p.testMode === undefined ? {} : { testMode: p.testMode }),
    ...(p.customParameters === undefined ? {} : { customParameters: { ...p.customParameters } }),
    standingInstruction: { ...p.standingInstruction },
  } as RequestOf<'registrationPayment'>;
}

/**
 * Makes a claimed run's payment, under its reserved id, unless that payment exists already (a
 * claimer that stopped after paying). Returns how the run ended, for finishRun.
 */
export async function payRun(deps: ScheduleDeps, schedule: Schedule, run: ScheduleRun): Promise<RunFinish> {
  const paymentId = run.paymentId ?? '';
  const existing = await deps.store.getPayment(schedule.merchantId, paymentId);
  if (existing !== undefined) return { status: 'EXECUTED', paymentId, resultCode: existing.resultCode };
  const channel = await deps.store.getChannel(schedule.channelId);
  if (channel === undefined) return { status: 'FAILED', resultCode: ResultCodes.ENTITY_NOT_FOUND, end: true };
  let outcome: Awaited<ReturnType<typeof payWithRegistration>>;
  try {
    outcome = await payWithRegistration(
      { ...deps, store: writingAs(deps.store, paymentId, deps.processors) },
      { merchantId: schedule.merchantId, channel },
      schedule.registrationId,
      runRequest(schedule),
    );
  } catch (error) {
    // Another process completing the same run wrote the payment first (same id).
    const written = await deps.store.getPayment(schedule.merchantId, paymentId);
    if (written !== undefined) return { status: 'EXECUTED', paymentId, resultCode: written.resultCode };
    throw error;
  }
  if (outcome.kind === 'payment') {
    return { status: 'EXECUTED', paymentId, resultCode: outcome.payment.resultCode };
  }
  if (outcome.kind === 'refused') {
    const gone =
      outcome.code === ResultCodes.REGISTRATION_NOT_FOUND ||
      outcome.code === ResultCodes.REGISTRATION_DEREGISTERED;
    return { status: 'FAILED', resultCode: outcome.code, end: gone };
  }
  return { status: 'FAILED', resultCode: ResultCodes.INVALID_PARAMETER, end: false };
}

/** A schedule's UPDATED notification, as the store reads it in the transaction of its change. */
const updated = (at: Date) => (view: ScheduleView) => [scheduleChange(view, 'UPDATED', at)];

async function completeRun(deps: ScheduleDeps, schedule: Schedule, run: ScheduleRun): Promise<void> {
  const finish = await payRun(deps, schedule, run);
  const at = deps.clock.now();
  await deps.store.finishRun(run, finish, at, updated(at));
}

export interface RunOptions {
  readonly graceMs?: number;
  readonly leaseMs?: number;
  /** Schedules (and stale runs) taken per query. */
  readonly batch?: number;
}

/**
 * One poll of the scheduler: first the runs a stopped claimer left IN_PROGRESS (lease over),
 * then every due schedule, claimed and run by the catch-up rule. Returns the runs handled
 * (made, recovered or skipped).
 */
export async function runDueSchedules(deps: ScheduleDeps, options: RunOptions = {}): Promise<number> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_RUN_LEASE_MS;
  const batch = options.batch ?? 100;
  let handled = 0;

  const now = deps.clock.now();
  for (const { schedule, run } of await deps.store.claimStaleRuns(
    now,
    new Date(now.getTime() + leaseMs),
    batch,
  )) {
    await completeRun(deps, schedule, run);
    handled++;
  }

  for (;;) {
    const at = deps.clock.now();
    const due = await deps.store.dueSchedules(at, batch);
    let claimed = false;
    for (const schedule of due) {
      const plan = planRuns(schedule, at, graceMs);
      const claim: RunClaim = {
        skipped: plan.skipped,
        nextRunAt: plan.nextRunAt,
        ...(plan.run === undefined
          ? {}
          : { run: { fireAt: plan.run, paymentId: newId(), leaseUntil: new Date(at.getTime() + leaseMs) } }),
      };
      if (!(await deps.store.claimRuns(schedule, claim, at, updated(at)))) continue;
      claimed = true;
      handled += plan.skipped.length;
      if (claim.run !== undefined) {
        await completeRun(deps, schedule, {
          scheduleId: schedule.id,
          merchantId: schedule.merchantId,
          fireAt: claim.run.fireAt,
          status: 'IN_PROGRESS',
          paymentId: claim.run.paymentId,
          resultCode: null,
          leaseUntil: claim.run.leaseUntil,
          createdAt: at,
          completedAt: null,
        });
        handled++;
      }
    }
    // Nothing due, or others claimed it all: done until the next poll. Otherwise look again: a
    // long missed stretch takes several claims, and a full batch may have more behind it.
    if (due.length === 0 || !claimed) break;
  }
  return handled;
}
