/**
 * A schedule request's job: its cron fields or expression, notice and duration, and the standing
 * instruction it makes the runs' payments.
 */

import type { ParameterError } from '../../../params/errors';
import type { RequestOf } from '../../../params/requests';
import { type CronSchedule, expressionOfJob, parseCron } from '../../../scheduling/cron';
import { type Checked, invalid } from '../../core/failure';
import type { Registration } from '../../core/model';

export type ScheduleRequest = RequestOf<'schedule'>;

const CRON_FIELDS = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'] as const;

/** The job's parameters as sent, blank ones left out. */
export function jobOf(request: ScheduleRequest): Record<string, string> {
  const job: Record<string, string> = {};
  for (const [k, v] of Object.entries((request.job ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null && String(v).trim() !== '') job[k] = String(v);
  }
  return job;
}

/**
 * The job's cron schedule, or parameter errors on the field at fault: job.expression when one
 * was sent, else the job.* field parseCron names (both day fields when both are restricted).
 * Fields not sent take the spec's defaults.
 */
export function cronOf(job: Readonly<Record<string, string>>): Checked<{ cron: CronSchedule }> {
  // No job.* field at all takes the spec's defaults (second, minute, hour 0, dayOfMonth and month 1,
  // dayOfWeek `?` as Quartz needs, year *): once a year on 1 January (expressionOfJob).
  const hasExpression = job.expression !== undefined;
  const expression = expressionOfJob(job);
  const parsed = parseCron(expression);
  // parseCron (shared/scheduling) answers its own shape, read here into the engine's
  if (!('error' in parsed)) return { kind: 'ok', cron: parsed };
  if (hasExpression)
    return invalid([{ name: 'job.expression', value: job.expression ?? null, message: parsed.error }]);
  if (/are both restricted/.test(parsed.error)) {
    return invalid(
      (['dayOfMonth', 'dayOfWeek'] as const).map((f) => ({
        name: `job.${f}`,
        value: job[f] ?? null,
        message: parsed.error,
      })),
    );
  }
  const field = CRON_FIELDS.find((f) => parsed.error.startsWith(`${f} `));
  return invalid([
    {
      name: field === undefined ? 'job.expression' : `job.${field}`,
      value: field === undefined ? expression : (job[field] ?? null),
      message: parsed.error,
    },
  ]);
}

/** Notice and duration come as a number with its unit. */
export function pairErrors(job: Readonly<Record<string, string>>): ParameterError[] {
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
export function instructionOf(
  sent: Readonly<Record<string, string>>,
  registration: Registration,
): Checked<{ instruction: Record<string, string> }> {
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
  if (errors.length > 0) return invalid(errors);
  const instruction = {
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
  return { kind: 'ok', instruction };
}

/** A job that never fires between its start and its end: the error on the field that decides. */
export function neverFires(
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
