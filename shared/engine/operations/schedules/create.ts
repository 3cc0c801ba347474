/**
 * POST /scheduling/v1/schedules: validate → load → decide → record.
 */

import type { ParameterError } from '../../../params/errors';
import { parseTs } from '../../../params/formats';
import { ResultCodes } from '../../../result-codes';
import { nextFireTime } from '../../../scheduling/cron';
import { scheduleChange } from '../../answers/notifications';
import { readAmount } from '../../core/amounts';
import type { Caller } from '../../core/deps';
import { type Invalid, invalid, type Refused, refused } from '../../core/failure';
import { newId, newPaymentNdc } from '../../core/ids';
import { processorFor, successCodeOf } from '../../core/processor';
import type { Schedule, ScheduleDeps, ScheduleView } from '../../core/schedule';
import { checkPaymentMethod } from '../../steps/payment-method';
import { usableRegistration } from '../registrations';
import { endOf } from './time';
import { cronOf, instructionOf, jobOf, neverFires, pairErrors, type ScheduleRequest } from './validation';

export type ScheduleOutcome =
  | { readonly kind: 'schedule'; readonly view: ScheduleView; readonly code: string; readonly ndc: string }
  | Refused
  | Invalid;

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
  const money = readAmount(request.amount ?? '', currency);
  if (money.kind === 'invalid') errors.push(...money.errors);
  const job = jobOf(request);
  const read = cronOf(job);
  if (read.kind === 'invalid') errors.push(...read.errors);
  errors.push(...pairErrors(job));
  if (errors.length > 0 || money.kind === 'invalid' || read.kind === 'invalid') return invalid(errors);
  const { amount } = money;
  const { cron } = read;

  // load: the registration the runs pay with (the engine's codes for a missing or deleted one)
  const registrationId = request.registrationId ?? '';
  const usable = await usableRegistration(deps.store, caller.merchantId, registrationId);
  if (usable.kind === 'refused') return usable;
  const { registration } = usable;
  // the channel's brands and currencies: its runs would all be refused
  const accepted = checkPaymentMethod(registration.paymentBrand, { currency }, true, caller.channel);
  if (accepted.kind !== 'ok') return accepted;
  const instructed = instructionOf(
    (request.standingInstruction ?? {}) as Readonly<Record<string, string>>,
    registration,
  );
  if (instructed.kind === 'invalid') return instructed;
  const { instruction } = instructed;

  // decide: the runs pay through the channel's processor (the simulators, or the connector of an
  // EXTERNAL or live channel). Without one they could only be refused: a live channel without a
  // connector has the family's "schedule module not configured for LIVE transaction mode".
  const processor = processorFor(deps.processors, caller.channel, request.testMode);
  if (processor.kind === 'none')
    return refused(
      processor.testMode === undefined ? '100.360.400' : ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
    );

  const startsAt = job.startDate === undefined ? now : parseTs(job.startDate);
  const endsAt = endOf(job, startsAt);
  // The first fire time at or after the start, and after now.
  const first = nextFireTime(cron, new Date(Math.max(startsAt.getTime() - 1, now.getTime())));
  if (first === undefined || (endsAt !== null && first.getTime() >= endsAt.getTime())) {
    return invalid(neverFires(job, cron.expression, first !== undefined));
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
    resultCode: successCodeOf(processor.testMode),
    startsAt,
    endsAt,
    nextRunAt: first,
    state: 'ACTIVE',
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
  };
  await deps.store.insertSchedule(schedule, [scheduleChange({ schedule, runs: [] }, 'CREATED', now)]);
  return {
    kind: 'schedule',
    view: { schedule, runs: [] },
    code: schedule.resultCode,
    ndc: newPaymentNdc(caller.channel.id),
  };
}
