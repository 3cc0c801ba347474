/**
 * When work comes due, read across the aggregates' own due columns: the test clock's reading
 * (server/clock/). Each worker keeps what it must do, and when, in the database (checkouts'
 * expires_at and notify_due_at, payment_sessions.due_at, schedules.next_run_at and the runs'
 * leases, webhook_deliveries.next_attempt_at); moving the clock steps through these instants in
 * order so that each worker runs at the time its work was due. Read-only.
 */
import type { StoreContext } from '../core/context';
import { int } from '../core/rows';

export interface DueWorkStore {
  /** The earliest instant after `after` at which a worker has something to do; undefined: none. */
  nextDueAfter(after: Date): Promise<Date | undefined>;
  /** How many open checkouts (no completed payment or registration) expire in (from, to]. */
  countCheckoutsExpiring(from: Date, to: Date): Promise<number>;
}

export function dueWorkStore({ db }: StoreContext): DueWorkStore {
  return {
    async nextDueAfter(after) {
      const t = after.getTime();
      const firsts = await Promise.all([
        db
          .selectFrom('checkouts')
          .select((eb) => eb.fn.min('expires_at').as('at'))
          .where('completed_at', 'is', null)
          .where('expires_at', '>', t)
          .executeTakeFirst(),
        db
          .selectFrom('checkouts')
          .select((eb) => eb.fn.min('notify_due_at').as('at'))
          .where('notify_due_at', '>', t)
          .executeTakeFirst(),
        db
          .selectFrom('payment_sessions')
          .select((eb) => eb.fn.min('due_at').as('at'))
          .where('finished_at', 'is', null)
          .where('due_at', '>', t)
          .executeTakeFirst(),
        db
          .selectFrom('schedules')
          .select((eb) => eb.fn.min('next_run_at').as('at'))
          .where('next_run_at', '>', t)
          .executeTakeFirst(),
        db
          .selectFrom('schedule_runs')
          .select((eb) => eb.fn.min('lease_until').as('at'))
          .where('status', '=', 'IN_PROGRESS')
          .where('lease_until', '>', t)
          .executeTakeFirst(),
        db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.min('next_attempt_at').as('at'))
          .where('status', '=', 'pending')
          .where('next_attempt_at', '>', t)
          .executeTakeFirst(),
      ]);
      const times = firsts
        .map((row) => row?.at)
        .filter((at): at is number => at !== null && at !== undefined)
        .map((at) => int(at));
      return times.length === 0 ? undefined : new Date(Math.min(...times));
    },

    async countCheckoutsExpiring(from, to) {
      const row = await db
        .selectFrom('checkouts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('completed_at', 'is', null)
        .where('expires_at', '>', from.getTime())
        .where('expires_at', '<=', to.getTime())
        .executeTakeFirst();
      return row === undefined ? 0 : int(row.n as number);
    },
  };
}
