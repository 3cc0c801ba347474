/**
 * A schedule, its runs and the storage they need (the SchedulePort).
 */

import type { Minor } from '../../money';
import type { EngineDeps } from './deps';
import type { Change, Tell } from './notification';
import type { IdempotencyClaim, Store } from './ports';

export type ScheduleState = 'ACTIVE' | 'ENDED' | 'CANCELLED';

/**
 * What became of one fire time: IN_PROGRESS (claimed, its payment id reserved), EXECUTED (a
 * payment was made: see its result code), SKIPPED (missed, catch-up rule), FAILED (no payment
 * could be made: the registration was gone).
 */
export type RunStatus = 'IN_PROGRESS' | 'EXECUTED' | 'SKIPPED' | 'FAILED';

/** What the runs' payments carry besides amount, currency and type (as validated at creation). */
export interface ScheduledPayment {
  readonly merchantTransactionId?: string;
  readonly descriptor?: string;
  readonly testMode?: string;
  readonly customParameters?: Readonly<Record<string, string>>;
  readonly standingInstruction: Readonly<Record<string, string>>;
}

export interface Schedule {
  readonly id: string; // 32 hex
  readonly merchantId: string;
  readonly channelId: string;
  readonly registrationId: string;
  readonly paymentType: string;
  readonly amount: Minor;
  readonly currency: string;
  /** The 7-field cron expression the job fires on (job.expression, or the job.* fields). */
  readonly expression: string;
  /** The job.* parameters as sent (name, fields or expression, dates, notice, duration). */
  readonly job: Readonly<Record<string, string>>;
  readonly payment: ScheduledPayment;
  /** The creation's result code (test mode: 000.100.110). */
  readonly resultCode: string;
  readonly startsAt: Date;
  /** Exclusive: fire times are before it. min(job.endDate + 1 s, start + duration); null: open. */
  readonly endsAt: Date | null;
  /** The next fire time to run; null once ENDED or CANCELLED. */
  readonly nextRunAt: Date | null;
  readonly state: ScheduleState;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly cancelledAt: Date | null;
}

export interface ScheduleRun {
  readonly scheduleId: string;
  readonly merchantId: string;
  /** The fire time (the run's key with scheduleId). */
  readonly fireAt: Date;
  readonly status: RunStatus;
  /** Reserved when the run is claimed, before the payment exists. */
  readonly paymentId: string | null;
  readonly resultCode: string | null;
  /** While IN_PROGRESS: when another poll may take the run over. */
  readonly leaseUntil: Date | null;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
}

/** A schedule and its latest runs (at most RUNS_SHOWN, oldest first). */
export interface ScheduleView {
  readonly schedule: Schedule;
  readonly runs: readonly ScheduleRun[];
}

/** How many runs a schedule's answer (and its notifications) lists: the latest ones. */
export const RUNS_SHOWN = 100;

/** One claim's plan for a due schedule (see planRuns). */
export interface RunPlan {
  readonly skipped: readonly Date[];
  /** The fire time to pay now, if any. */
  readonly run?: Date;
  /** The next fire time after this claim; null: the schedule has ended. */
  readonly nextRunAt: Date | null;
}

/** What a claim writes: the plan, with the run's reserved payment id and lease. */
export interface RunClaim {
  readonly skipped: readonly Date[];
  readonly run?: { readonly fireAt: Date; readonly paymentId: string; readonly leaseUntil: Date };
  readonly nextRunAt: Date | null;
}

export type RunFinish =
  | { readonly status: 'EXECUTED'; readonly paymentId: string; readonly resultCode: string }
  | {
      readonly status: 'FAILED';
      readonly resultCode: string;
      /** No later run can succeed either (the registration is gone): the schedule ends. */
      readonly end: boolean;
    };

/** The storage the schedules need (implemented in server/storage/schedules.ts). */
export interface SchedulePort {
  /**
   * Writes a new schedule and its notifications (`changes`: its CREATED), in one transaction; with
   * a claim, the schedule takes its request's Idempotency-Key in it too (as Store.insertPayment
   * does).
   */
  insertSchedule(schedule: Schedule, changes?: readonly Change[], claim?: IdempotencyClaim): Promise<void>;
  getSchedule(merchantId: string, id: string): Promise<ScheduleView | undefined>;
  /**
   * Descheduled: an ACTIVE schedule becomes CANCELLED (nothing further runs), with what `tell`
   * renders of it (its DELETED notification). Undefined (nothing changed) when it is not ACTIVE or
   * not the merchant's.
   */
  cancelSchedule(
    merchantId: string,
    id: string,
    at: Date,
    tell?: Tell<ScheduleView>,
  ): Promise<ScheduleView | undefined>;
  /** ACTIVE schedules whose next run is due at `now`, the most overdue first. */
  dueSchedules(now: Date, limit: number): Promise<Schedule[]>;
  /**
   * Claims what `plan` says, if the schedule's next_run_at is still `read.nextRunAt`: in one
   * transaction, next_run_at moves on (null: ENDED), the skipped runs and the run to make are
   * inserted (unique per schedule and fire time), and, when no run is made now, what `tell`
   * renders of the schedule (its UPDATED notification). False, and nothing changed, when another
   * claimer was first.
   */
  claimRuns(read: Schedule, plan: RunClaim, at: Date, tell?: Tell<ScheduleView>): Promise<boolean>;
  /**
   * IN_PROGRESS runs whose lease is over at `now` (their claimer stopped), each taken over by a
   * compare-and-set on its lease, which moves to `leaseUntil`.
   */
  claimStaleRuns(
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<{ schedule: Schedule; run: ScheduleRun }[]>;
  /**
   * Records an IN_PROGRESS run's end with what `tell` renders of the schedule (its UPDATED
   * notification), in one transaction. False when the run had been recorded already.
   */
  finishRun(run: ScheduleRun, finish: RunFinish, at: Date, tell?: Tell<ScheduleView>): Promise<boolean>;
}

export interface ScheduleDeps extends EngineDeps {
  readonly store: Store & SchedulePort;
}
