/**
 * DELETE /scheduling/v1/schedules/{id}: load → decide → record.
 */

import { scheduleChange } from '../../answers/notifications';
import { NOT_FOUND, type NotFound, type Refused, refused } from '../../core/failure';
import type { Schedule, ScheduleDeps, ScheduleView } from '../../core/schedule';

export type DescheduleOutcome =
  | { readonly kind: 'cancelled'; readonly view: ScheduleView }
  | NotFound
  /** Known but no longer scheduled (ended or descheduled): 100.360.303. */
  | Refused;

/** DELETE /scheduling/v1/schedules/{id}: load → decide → record. */
export async function deschedule(
  deps: ScheduleDeps,
  visible: (s: Schedule) => boolean,
  merchantId: string,
  id: string,
): Promise<DescheduleOutcome> {
  const found = await deps.store.getSchedule(merchantId, id);
  if (found === undefined || !visible(found.schedule)) return NOT_FOUND;
  if (found.schedule.state !== 'ACTIVE') return refused(NOT_SCHEDULED);
  const at = deps.clock.now();
  const cancelled = await deps.store.cancelSchedule(merchantId, id, at, (view) => [
    scheduleChange(view, 'DELETED', at),
  ]);
  // Ended (or descheduled by someone else) between the read and the write.
  if (cancelled === undefined) return refused(NOT_SCHEDULED);
  return { kind: 'cancelled', view: cancelled };
}

/** The family's answer to descheduling what no longer runs. */
const NOT_SCHEDULED = '100.360.303';
