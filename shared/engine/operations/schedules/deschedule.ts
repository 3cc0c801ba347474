/**
 * DELETE /scheduling/v1/schedules/{id}: load → decide → record.
 */

import { scheduleChange } from '../../answers/notifications';
import type { Schedule, ScheduleDeps, ScheduleView } from '../../core/schedule';

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
  const at = deps.clock.now();
  const cancelled = await deps.store.cancelSchedule(merchantId, id, at, (view) => [
    scheduleChange(view, 'DELETED', at),
  ]);
  // Ended (or descheduled by someone else) between the read and the write.
  if (cancelled === undefined) return { kind: 'refused', code: '100.360.303' };
  return { kind: 'cancelled', view: cancelled };
}
