/**
 * Scheduled payments (POST/GET/DELETE /scheduling/v1/schedules, spec "Scheduling (subscription
 * jobs)", facts §7.3: RG → SD → the platform runs DB/PA/CD → optional DS), and their runs.
 *
 * Creation is a pipeline like the payment's: validate (money, the job's cron expression, notice
 * and duration) → load (the registration) → decide (channel, first fire time) → record.
 *
 * Each fire time is run once as a merchant-initiated payment with the stored registration
 * (payWithRegistration, standingInstruction source MIT, mode REPEATED, type RECURRING,
 * recurringType SUBSCRIPTION, the registration's agreement ids).
 *
 * Exactly once, across processes and crashes:
 * 1. Claim: a compare-and-set on the schedule's next_run_at (the value just read), in the
 *    transaction that inserts the fire time's run row (primary key schedule id + fire time) with
 *    a payment id reserved up front, and moves next_run_at on. One claimer per fire time; a crash
 *    before the commit leaves nothing behind.
 * 2. Pay: the payment is written under the reserved id (payments' primary key), so a run can
 *    produce at most one payment, whoever completes it.
 * 3. Record: the run gets its result. A run still IN_PROGRESS after its lease (the process died
 *    between claim and record) is completed by the next poll: when the payment with its id
 *    exists it is only recorded, otherwise it is paid now. Never twice, never skipped.
 *
 * Catch-up (the gateway was down, or polls were late): of the fire times due at a claim, only the
 * latest is paid, and only when it is at most `graceMs` (24 h by default) old; every other due fire
 * time is recorded SKIPPED. So a missed stretch costs at most one late payment, never a burst.
 *
 * Time is UTC with second precision (shared/scheduling/cron.ts).
 */

export { scheduleResponse } from '../../answers/schedule';
export {
  RUNS_SHOWN,
  type RunClaim,
  type RunFinish,
  type RunPlan,
  type RunStatus,
  type Schedule,
  type ScheduleDeps,
  type ScheduledPayment,
  type SchedulePort,
  type ScheduleRun,
  type ScheduleState,
  type ScheduleView,
} from '../../core/schedule';
export { DEFAULT_GRACE_MS, DEFAULT_RUN_LEASE_MS, planRuns } from './catch-up';
export { createSchedule, type ScheduleOutcome } from './create';
export { type DescheduleOutcome, deschedule } from './deschedule';
export { payRun, type RunOptions, runDueSchedules } from './runs';
export { addDuration } from './time';
