/**
 * A schedule as its API answers it and as its notifications carry it.
 */

import type { ScheduleAnswer } from '../../contract';
import { fromMinor } from '../../money';
import { formatTs } from '../../params/formats';
import { describe } from '../../result-codes';
import type { ScheduleView } from '../core/schedule';

/** A schedule as its API answers it (creation, GET, DELETE) and as its notifications carry it. */
export function scheduleResponse(view: ScheduleView): ScheduleAnswer {
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
