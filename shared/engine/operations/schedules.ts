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

import { fromMinor, type Minor } from '../../money';
import type { ParameterError } from '../../params/errors';
import { formatTs, parseTs } from '../../params/formats';
import type { RequestOf } from '../../params/requests';
import { describe, ResultCodes } from '../../result-codes';
import {
  type CronSchedule,
  expressionOfJob,
  fireTimesBetween,
  nextFireTime,
  parseCron,
} from '../../scheduling/cron';
import { readAmount } from '../core/amounts';
import type { Caller, EngineDeps } from '../core/deps';
import { newId, newPaymentNdc } from '../core/ids';
import type { Payment, Registration } from '../core/model';
import type { IdempotencyClaim, Store } from '../core/ports';
import { processorFor } from '../core/processor';
import { checkPaymentMethod } from '../steps/payment-method';
import { payWithRegistration } from './registrations';

// ---- Model -------------------------------------------------------------------------------------

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
   * Writes a new schedule and its CREATED notification, in one transaction; with a claim, the
   * schedule takes its request's Idempotency-Key in it too (as Store.insertPayment does).
   */
  insertSchedule(schedule: Schedule, claim?: IdempotencyClaim): Promise<void>;
  getSchedule(merchantId: string, id: string): Promise<ScheduleView | undefined>;
  /**
   * Descheduled: an ACTIVE schedule becomes CANCELLED (nothing further runs), with its DELETED
   * notification. Undefined (nothing changed) when it is not ACTIVE or not the merchant's.
   */
  cancelSchedule(merchantId: string, id: string, at: Date): Promise<ScheduleView | undefined>;
  /** ACTIVE schedules whose next run is due at `now`, the most overdue first. */
  dueSchedules(now: Date, limit: number): Promise<Schedule[]>;
  /**
   * Claims what `plan` says, if the schedule's next_run_at is still `read.nextRunAt`: in one
   * transaction, next_run_at moves on (null: ENDED), the skipped runs and the run to make are
   * inserted (unique per schedule and fire time), and, when no run is made now, an UPDATED
   * notification. False, and nothing changed, when another claimer was first.
   */
  claimRuns(read: Schedule, plan: RunClaim, at: Date): Promise<boolean>;
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
   * Records an IN_PROGRESS run's end and notifies the schedule UPDATED, in one transaction.
   * False when the run had been recorded already.
   */
  finishRun(run: ScheduleRun, finish: RunFinish, at: Date): Promise<boolean>;
}

export interface ScheduleDeps extends EngineDeps {
  readonly store: Store & SchedulePort;
}

// ---- Time --------------------------------------------------------------------------------------

const UNIT_MS: Readonly<Record<string, number>> = {
  WEEK: 7 * 86_400_000,
  DAY: 86_400_000,
  HOUR: 3_600_000,
  MINUTE: 60_000,
  SECOND: 1_000,
};

/** start + n units; months and years by the calendar (the 31st + 1 month is the last day of the next month). */
export function addDuration(start: Date, unit: string, n: number): Date {
  if (unit === 'YEAR' || unit === 'MONTH') {
    const months = unit === 'YEAR' ? n * 12 : n;
    const y = start.getUTCFullYear();
    const m = start.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    return new Date(
      Date.UTC(
        y,
        m,
        Math.min(start.getUTCDate(), lastDay),
        start.getUTCHours(),
        start.getUTCMinutes(),
        start.getUTCSeconds(),
        start.getUTCMilliseconds(),
      ),
    );
  }
  return new Date(start.getTime() + n * (UNIT_MS[unit] ?? 0));
}

/** Past the last instant a cron expression can name: a bound this far out is no bound. */
const NO_BOUND = Date.UTC(2100, 0, 1);

// ---- Create ------------------------------------------------------------------------------------

type ScheduleRequest = RequestOf<'schedule'>;

export type ScheduleOutcome =
  | { readonly kind: 'schedule'; readonly view: ScheduleView; readonly code: string; readonly ndc: string }
  | { readonly kind: 'refused'; readonly code: string }
  | { readonly kind: 'invalid'; readonly errors: ParameterError[] };

const CRON_FIELDS = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'] as const;

/** The job's parameters as sent, blank ones left out. */
function jobOf(request: ScheduleRequest): Record<string, string> {
  const job: Record<string, string> = {};
  for (const [k, v] of Object.entries((request.job ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null && String(v).trim() !== '') job[k] = String(v);
  }
  return job;
}

/**
 * The job's cron schedule, or parameter errors on the field at fault: job.expression when one
 * was sent, else the job.* field parseCron names (both day fields when both are restricted).
 */
function cronOf(job: Readonly<Record<string, string>>): CronSchedule | ParameterError[] {
  const hasExpression = job.expression !== undefined;
  if (!hasExpression && !CRON_FIELDS.some((f) => job[f] !== undefined)) {
    return [
      {
        name: 'job.expression',
        value: null,
        message:
          'is required, or the job.* fields (second, minute, hour, dayOfMonth, month, dayOfWeek, year)',
      },
    ];
  }
  const expression = expressionOfJob(job);
  const parsed = parseCron(expression);
  if (!('error' in parsed)) return parsed;
  if (hasExpression)
    return [{ name: 'job.expression', value: job.expression ?? null, message: parsed.error }];
  if (/are both restricted/.test(parsed.error)) {
    return (['dayOfMonth', 'dayOfWeek'] as const).map((f) => ({
      name: `job.${f}`,
      value: job[f] ?? null,
      message: parsed.error,
    }));
  }
  const field = CRON_FIELDS.find((f) => parsed.error.startsWith(`${f} `));
  return [
    {
      name: field === undefined ? 'job.expression' : `job.${field}`,
      value: field === undefined ? expression : (job[field] ?? null),
      message: parsed.error,
    },
  ];
}

/** Notice and duration come as a number with its unit. */
function pairErrors(job: Readonly<Record<string, string>>): ParameterError[] {
  const errors: ParameterError[] = [];
  for (const what of ['notice', 'duration'] as const) {
    const unit = job[`${what}Unit`];
    const number = job[`${what}Number`];
    if (number !== undefined && unit === undefined) {
      errors.push({ name: `job.${what}Unit`, value: null, message: `is required with job.${what}Number` });
    }
    if (unit !== undefined && number === undefined) {
      errors.push({ name: `job.${what}Number`, value: null, message: `is required with job.${what}Unit` });
    }
  }
  return errors;
}

/**
 * The standing instruction the runs' payments carry: what the merchant sent (type, recurringType,
 * expiry, frequency …) with mode REPEATED and source MIT, quoting the registration's agreement
 * ids. A registration stored without an initial cardholder-initiated payment has no agreement to
 * quote: its runs go without `source` (and so without the MIT checks of payWithRegistration).
 */
function instructionOf(
  sent: Readonly<Record<string, string>>,
  registration: Registration,
): Record<string, string> | ParameterError[] {
  const errors: ParameterError[] = [];
  if (sent.mode !== undefined && sent.mode !== 'REPEATED') {
    errors.push({
      name: 'standingInstruction.mode',
      value: sent.mode,
      message: 'must be REPEATED: the runs of a schedule repeat an agreement',
    });
  }
  if (sent.source !== undefined && sent.source !== 'MIT') {
    errors.push({
      name: 'standingInstruction.source',
      value: sent.source,
      message: 'must be MIT: the gateway starts the runs of a schedule',
    });
  }
  const agreed = registration.initialTransactionId !== undefined || registration.agreementId !== undefined;
  for (const [name, own] of [
    ['initialTransactionId', registration.initialTransactionId],
    ['agreementId', registration.agreementId],
  ] as const) {
    if (sent[name] !== undefined && sent[name] !== own) {
      errors.push({
        name: `standingInstruction.${name}`,
        value: sent[name] ?? null,
        message:
          'must be the initialTransactionId or agreementId returned for the initial payment of this registration',
      });
    }
  }
  if (errors.length > 0) return errors;
  return {
    ...sent,
    type: sent.type ?? 'RECURRING',
    ...((sent.type ?? 'RECURRING') === 'RECURRING'
      ? { recurringType: sent.recurringType ?? 'SUBSCRIPTION' }
      : {}),
    mode: 'REPEATED',
    ...(agreed ? { source: 'MIT' } : {}),
    ...(registration.initialTransactionId === undefined
      ? {}
      : { initialTransactionId: registration.initialTransactionId }),
    ...(registration.agreementId === undefined ? {} : { agreementId: registration.agreementId }),
  };
}

/** POST /scheduling/v1/schedules: validate → load → decide → record. */
export async function createSchedule(
  deps: ScheduleDeps,
  caller: Caller,
  request: ScheduleRequest,
): Promise<ScheduleOutcome> {
  const now = deps.clock.now();

  // validate: money, the job's timing, notice and duration
  const errors: ParameterError[] = [];
  const currency = request.currency ?? '';
  const amount = readAmount(request.amount ?? '', currency);
  if (typeof amount !== 'number') errors.push(amount);
  const job = jobOf(request);
  const cron = cronOf(job);
  if (Array.isArray(cron)) errors.push(...cron);
  errors.push(...pairErrors(job));
  if (errors.length > 0 || typeof amount !== 'number' || Array.isArray(cron))
    return { kind: 'invalid', errors };

  // load: the registration the runs pay with (the engine's codes for a missing or deleted one)
  const registrationId = request.registrationId ?? '';
  const registration = await deps.store.getRegistration(caller.merchantId, registrationId);
  if (registration === undefined) return { kind: 'refused', code: ResultCodes.REGISTRATION_NOT_FOUND };
  if (registration.deletedAt !== null)
    return { kind: 'refused', code: ResultCodes.REGISTRATION_DEREGISTERED };
  // the channel's brands and currencies: its runs would all be refused
  const accepted = checkPaymentMethod(registration.paymentBrand, { currency }, true, caller.channel);
  if (accepted.kind !== 'ok') return accepted;
  const instruction = instructionOf(
    (request.standingInstruction ?? {}) as Readonly<Record<string, string>>,
    registration,
  );
  if (Array.isArray(instruction)) return { kind: 'invalid', errors: instruction };

  // decide: the runs pay through the channel's processor (the simulators, or the connector of an
  // EXTERNAL or live channel). Without one they could only be refused: a live channel without a
  // connector has the family's "schedule module not configured for LIVE transaction mode".
  const processor = processorFor(deps.processors, caller.channel, request.testMode);
  if (processor.kind === 'none')
    return {
      kind: 'refused',
      code: processor.testMode === undefined ? '100.360.400' : ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
    };

  const startsAt = job.startDate === undefined ? now : parseTs(job.startDate);
  const bounds: number[] = [];
  if (job.endDate !== undefined) bounds.push(parseTs(job.endDate).getTime() + 1_000);
  if (job.durationUnit !== undefined && job.durationNumber !== undefined) {
    const end = addDuration(startsAt, job.durationUnit, Number(job.durationNumber)).getTime();
    if (Number.isFinite(end) && end < NO_BOUND) bounds.push(end);
  }
  const endsAt = bounds.length === 0 ? null : new Date(Math.min(...bounds));
  // The first fire time at or after the start, and after now.
  const first = nextFireTime(cron, new Date(Math.max(startsAt.getTime() - 1, now.getTime())));
  if (first === undefined || (endsAt !== null && first.getTime() >= endsAt.getTime())) {
    return { kind: 'invalid', errors: neverFires(job, cron.expression, first !== undefined) };
  }

  // record
  const schedule: Schedule = {
    id: newId(),
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    registrationId: registration.id,
    paymentType: request.paymentType ?? 'DB',
    amount,
    currency,
    expression: cron.expression,
    job,
    payment: {
      ...(request.merchantTransactionId === undefined
        ? {}
        : { merchantTransactionId: request.merchantTransactionId }),
      ...(request.descriptor === undefined ? {} : { descriptor: request.descriptor }),
      ...(request.testMode === undefined ? {} : { testMode: request.testMode }),
      ...(request.customParameters === undefined
        ? {}
        : { customParameters: request.customParameters as Readonly<Record<string, string>> }),
      standingInstruction: instruction,
    },
    resultCode:
      processor.testMode === 'INTERNAL'
        ? ResultCodes.SUCCESS_INTERNAL
        : processor.testMode === 'EXTERNAL'
          ? ResultCodes.SUCCESS_EXTERNAL
          : ResultCodes.SUCCESS_LIVE,
    startsAt,
    endsAt,
    nextRunAt: first,
    state: 'ACTIVE',
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
  };
  await deps.store.insertSchedule(schedule);
  return {
    kind: 'schedule',
    view: { schedule, runs: [] },
    code: schedule.resultCode,
    ndc: newPaymentNdc(caller.channel.id),
  };
}

/** A job that never fires between its start and its end: the error on the field that decides. */
function neverFires(
  job: Readonly<Record<string, string>>,
  expression: string,
  firesLater: boolean,
): ParameterError[] {
  const message = `never fires between the start (job.startDate, or now) and the end (job.endDate, job.duration*): ${expression}`;
  if (firesLater) {
    const name = job.endDate !== undefined ? 'job.endDate' : 'job.durationNumber';
    return [{ name, value: job.endDate ?? job.durationNumber ?? null, message }];
  }
  if (job.expression !== undefined) return [{ name: 'job.expression', value: job.expression, message }];
  return CRON_FIELDS.filter((f) => job[f] !== undefined).map((f) => ({
    name: `job.${f}`,
    value: job[f] ?? null,
    message,
  }));
}

// ---- Answer ------------------------------------------------------------------------------------

/** A schedule as its API answers it (creation, GET, DELETE) and as its notifications carry it. */
export function scheduleResponse(view: ScheduleView): Record<string, unknown> {
  const { schedule: s, runs } = view;
  const { standingInstruction, customParameters, ...payment } = s.payment;
  return {
    id: s.id,
    registrationId: s.registrationId,
    paymentType: s.paymentType,
    amount: fromMinor(s.amount, s.currency),
    currency: s.currency,
    ...payment,
    ...(customParameters === undefined ? {} : { customParameters }),
    standingInstruction,
    job: { ...s.job, expression: s.expression },
    state: s.state,
    ...(s.nextRunAt === null ? {} : { nextRunTime: formatTs(s.nextRunAt) }),
    runs: runs.map((r) => ({
      scheduledTime: formatTs(r.fireAt),
      status: r.status,
      ...(r.paymentId === null || r.status !== 'EXECUTED' ? {} : { paymentId: r.paymentId }),
      ...(r.resultCode === null
        ? {}
        : { result: { code: r.resultCode, description: describe(r.resultCode) ?? '' } }),
    })),
  };
}

// ---- Deschedule --------------------------------------------------------------------------------

export type DescheduleOutcome =
  | { readonly kind: 'cancelled'; readonly view: ScheduleView }
  | { readonly kind: 'not-found' }
  /** Known but no longer scheduled (ended or descheduled): 100.360.303. */
  | { readonly kind: 'refused'; readonly code: string };

/** DELETE /scheduling/v1/schedules/{id}: load → decide → record. */
export async function deschedule(
  deps: ScheduleDeps,
  visible: (s: Schedule) => boolean,
  merchantId: string,
  id: string,
): Promise<DescheduleOutcome> {
  const found = await deps.store.getSchedule(merchantId, id);
  if (found === undefined || !visible(found.schedule)) return { kind: 'not-found' };
  if (found.schedule.state !== 'ACTIVE') return { kind: 'refused', code: '100.360.303' };
  const cancelled = await deps.store.cancelSchedule(merchantId, id, deps.clock.now());
  // Ended (or descheduled by someone else) between the read and the write.
  if (cancelled === undefined) return { kind: 'refused', code: '100.360.303' };
  return { kind: 'cancelled', view: cancelled };
}

// ---- Runs --------------------------------------------------------------------------------------

export const DEFAULT_GRACE_MS = 24 * 3_600_000;
/** How long a claimed run is its claimer's before another poll may complete it. */
export const DEFAULT_RUN_LEASE_MS = 5 * 60_000;
/** Fire times one claim records at most; a longer missed stretch is worked off in several claims. */
const MAX_FIRE_TIMES_PER_CLAIM = 1_000;

const parsedCron = new Map<string, CronSchedule>();
function cronOfExpression(expression: string): CronSchedule {
  let cron = parsedCron.get(expression);
  if (cron === undefined) {
    const parsed = parseCron(expression);
    if ('error' in parsed) throw new Error(`stored schedule expression "${expression}": ${parsed.error}`);
    cron = parsed;
    if (parsedCron.size >= 1_000) parsedCron.clear();
    parsedCron.set(expression, cron);
  }
  return cron;
}

/**
 * The catch-up rule, for a schedule due at `now` (nextRunAt ≤ now): the fire times from
 * nextRunAt up to now (and before the end); the latest of them runs when it is at most
 * `graceMs` old, every other one is skipped; the next run is the first fire time after now.
 * At most `max` fire times per plan: a longer stretch ends the plan early (all skipped, the next
 * run is the following fire time, still due), and the next plan goes on from there.
 */
export function planRuns(
  schedule: Pick<Schedule, 'expression' | 'nextRunAt' | 'endsAt'>,
  now: Date,
  graceMs: number,
  max = MAX_FIRE_TIMES_PER_CLAIM,
): RunPlan {
  const first = schedule.nextRunAt;
  if (first === null || first.getTime() > now.getTime()) return { skipped: [], nextRunAt: first };
  const cron = cronOfExpression(schedule.expression);
  const end = schedule.endsAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const within = (t: Date | undefined): t is Date => t !== undefined && t.getTime() < end;
  const until = new Date(Math.min(now.getTime(), end - 1));
  const due = [first, ...fireTimesBetween(cron, first, until, Math.max(0, max - 1))];
  const last = due[due.length - 1] ?? first;
  if (due.length >= max) {
    const following = nextFireTime(cron, last);
    if (within(following) && following.getTime() <= now.getTime())
      return { skipped: due, nextRunAt: following };
  }
  const after = nextFireTime(cron, now);
  const nextRunAt = within(after) ? after : null;
  if (now.getTime() - last.getTime() <= graceMs) return { skipped: due.slice(0, -1), run: last, nextRunAt };
  return { skipped: due, nextRunAt };
}

/** A Store that writes the payment under the run's reserved id (see the exactly-once rule above). */
function writingAs(store: Store, id: string): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'insertPayment') return (payment: Payment) => target.insertPayment({ ...payment, id });
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
      { ...deps, store: writingAs(deps.store, paymentId) },
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

async function completeRun(deps: ScheduleDeps, schedule: Schedule, run: ScheduleRun): Promise<void> {
  const finish = await payRun(deps, schedule, run);
  await deps.store.finishRun(run, finish, deps.clock.now());
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
      if (!(await deps.store.claimRuns(schedule, claim, at))) continue;
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
