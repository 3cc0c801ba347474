/**
 * Storage of scheduled payments (/scheduling/v1/schedules) and their runs: migration 0005 and
 * the ScheduleStore, over the same Kysely database as the rest of the store.
 *
 * `schedules.next_run_at` is what the scheduler claims with a compare-and-set; `schedule_runs`
 * has one row per fire time (primary key schedule id + fire time), inserted in the claim's
 * transaction with the payment id reserved for it (see shared/engine/operations/schedules.ts for the
 * exactly-once rule). Every change writes its SCHEDULE notification through the outbox in the
 * same transaction.
 */
import type { Kysely } from 'kysely';
import {
  RUNS_SHOWN,
  type RunStatus,
  type Schedule,
  type SchedulePort,
  type ScheduleRun,
  type ScheduleState,
  type ScheduleView,
} from '../../../shared/engine/core/schedule';
import type { Minor } from '../../../shared/money';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { Database } from '../core/database';
import { date, dateOrNull, int, msOrNull, NothingChanged } from '../core/rows';
import { claimWrite, writeClaim } from '../idempotency/claims';
import { writeOutbox } from '../webhooks/outbox';
import type { ScheduleRow, ScheduleRunRow } from './tables';

/** The schedules' storage is the engine's port (shared/engine/operations/schedules.ts). */
export type ScheduleStore = SchedulePort & {
  /** A merchant's schedules on these channels, newest first (the administration's list). */
  listMerchantSchedules(
    merchantId: string,
    channelIds: readonly string[],
    limit: number,
  ): Promise<Schedule[]>;
};

// ---- Row mapping -------------------------------------------------------------------------------

function rowToSchedule(r: ScheduleRow): Schedule {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    registrationId: r.registration_id,
    paymentType: r.payment_type,
    amount: int(r.amount) as Minor,
    currency: r.currency,
    expression: r.expression,
    job: JSON.parse(r.job) as Schedule['job'],
    payment: JSON.parse(r.payment) as Schedule['payment'],
    resultCode: r.result_code,
    startsAt: date(r.starts_at),
    endsAt: dateOrNull(r.ends_at),
    nextRunAt: dateOrNull(r.next_run_at),
    state: r.state as ScheduleState,
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    cancelledAt: dateOrNull(r.cancelled_at),
  };
}

function scheduleToRow(s: Schedule): ScheduleRow {
  return {
    id: s.id,
    merchant_id: s.merchantId,
    channel_id: s.channelId,
    registration_id: s.registrationId,
    payment_type: s.paymentType,
    amount: s.amount,
    currency: s.currency,
    expression: s.expression,
    job: JSON.stringify(s.job),
    payment: JSON.stringify(s.payment),
    result_code: s.resultCode,
    starts_at: s.startsAt.getTime(),
    ends_at: msOrNull(s.endsAt),
    next_run_at: msOrNull(s.nextRunAt),
    state: s.state,
    created_at: s.createdAt.getTime(),
    updated_at: s.updatedAt.getTime(),
    cancelled_at: msOrNull(s.cancelledAt),
  };
}

function rowToRun(r: ScheduleRunRow): ScheduleRun {
  return {
    scheduleId: r.schedule_id,
    merchantId: r.merchant_id,
    fireAt: date(r.fire_at),
    status: r.status as RunStatus,
    paymentId: r.payment_id,
    resultCode: r.result_code,
    leaseUntil: dateOrNull(r.lease_until),
    createdAt: date(r.created_at),
    completedAt: dateOrNull(r.completed_at),
  };
}

/** Rows per INSERT statement of skipped runs: 9 columns × 500 stays below both databases' limits. */
const RUNS_PER_STATEMENT = 500;

// ---- The store ---------------------------------------------------------------------------------

/** The schedule with its latest runs, oldest first, read on `q` (the database or a transaction). */
async function viewOf(q: Kysely<Database>, row: ScheduleRow): Promise<ScheduleView> {
  const runs = await q
    .selectFrom('schedule_runs')
    .selectAll()
    .where('schedule_id', '=', row.id)
    .orderBy('fire_at', 'desc')
    .limit(RUNS_SHOWN)
    .execute();
  return { schedule: rowToSchedule(row), runs: runs.reverse().map(rowToRun) };
}

async function scheduleRow(q: Kysely<Database>, id: string): Promise<ScheduleRow | undefined> {
  return q.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

export function scheduleStore(db: Kysely<Database>, sealer: AccountSealer): ScheduleStore {
  return {
    ...scheduleRecords(db, sealer),
    ...scheduleRuns(db, sealer),
    async listMerchantSchedules(merchantId, channelIds, limit) {
      if (channelIds.length === 0) return [];
      const rows = await db
        .selectFrom('schedules')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('channel_id', 'in', [...channelIds])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(rowToSchedule);
    },
  };
}

type ScheduleRecords = Pick<
  ScheduleStore,
  'insertSchedule' | 'getSchedule' | 'cancelSchedule' | 'dueSchedules'
>;
type ScheduleRuns = Pick<ScheduleStore, 'claimRuns' | 'claimStaleRuns' | 'finishRun'>;

/** Schedules: created, read, cancelled, found due. */
function scheduleRecords(db: Kysely<Database>, sealer: AccountSealer): ScheduleRecords {
  return {
    async insertSchedule(schedule, changes = [], claim) {
      const taking =
        claim === undefined
          ? undefined
          : claimWrite(claim, schedule.merchantId, { schedule_id: schedule.id });
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('schedules').values(scheduleToRow(schedule)).execute();
        await writeOutbox(trx, changes, sealer);
        if (taking !== undefined) await writeClaim(trx, taking);
      });
    },

    async getSchedule(merchantId, id) {
      const row = await scheduleRow(db, id);
      if (row === undefined || row.merchant_id !== merchantId) return undefined;
      return viewOf(db, row);
    },

    async cancelSchedule(merchantId, id, at, tell) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('schedules')
          .set({
            state: 'CANCELLED',
            next_run_at: null,
            cancelled_at: at.getTime(),
            updated_at: at.getTime(),
          })
          .where('id', '=', id)
          .where('merchant_id', '=', merchantId)
          .where('state', '=', 'ACTIVE')
          .returningAll()
          .executeTakeFirst();
        if (row === undefined) return undefined;
        const view = await viewOf(trx, row);
        if (tell !== undefined) await writeOutbox(trx, tell(view), sealer);
        return view;
      });
    },

    async dueSchedules(now, limit) {
      const rows = await db
        .selectFrom('schedules')
        .selectAll()
        .where('next_run_at', '<=', now.getTime())
        .where('state', '=', 'ACTIVE')
        .orderBy('next_run_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(rowToSchedule);
    },
  };
}

/** The runs: claimed by the scheduler (compare-and-set on the next run), taken over when stale, finished. */
function scheduleRuns(db: Kysely<Database>, sealer: AccountSealer): ScheduleRuns {
  return {
    claimRuns: (read, plan, at, tell) => claimRuns(db, sealer, { read, plan, at, tell }),

    async claimStaleRuns(now, leaseUntil, limit) {
      const stale = await db
        .selectFrom('schedule_runs')
        .selectAll()
        .where('lease_until', '<=', now.getTime())
        .where('status', '=', 'IN_PROGRESS')
        .orderBy('lease_until')
        .limit(limit)
        .execute();
      const claimed: { schedule: Schedule; run: ScheduleRun }[] = [];
      for (const row of stale) {
        // Compare-and-set on the lease just read: one poll takes the run over.
        const result = await db
          .updateTable('schedule_runs')
          .set({ lease_until: leaseUntil.getTime() })
          .where('schedule_id', '=', row.schedule_id)
          .where('fire_at', '=', row.fire_at)
          .where('status', '=', 'IN_PROGRESS')
          .where('lease_until', '=', row.lease_until)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) continue;
        const schedule = await scheduleRow(db, row.schedule_id);
        if (schedule === undefined) continue;
        claimed.push({
          schedule: rowToSchedule(schedule),
          run: rowToRun({ ...row, lease_until: leaseUntil.getTime() }),
        });
      }
      return claimed;
    },

    async finishRun(run, finish, at, tell) {
      try {
        await db.transaction().execute(async (trx) => {
          const updated = await trx
            .updateTable('schedule_runs')
            .set({
              status: finish.status,
              payment_id: finish.status === 'EXECUTED' ? finish.paymentId : null,
              result_code: finish.resultCode,
              lease_until: null,
              completed_at: at.getTime(),
            })
            .where('schedule_id', '=', run.scheduleId)
            .where('fire_at', '=', run.fireAt.getTime())
            .where('status', '=', 'IN_PROGRESS')
            .executeTakeFirst();
          if (updated.numUpdatedRows === 0n) throw new NothingChanged();
          if (finish.status === 'FAILED' && finish.end) {
            await trx
              .updateTable('schedules')
              .set({ state: 'ENDED', next_run_at: null, updated_at: at.getTime() })
              .where('id', '=', run.scheduleId)
              .where('state', '=', 'ACTIVE')
              .execute();
          }
          const row = tell === undefined ? undefined : await scheduleRow(trx, run.scheduleId);
          if (row !== undefined && tell !== undefined)
            await writeOutbox(trx, tell(await viewOf(trx, row)), sealer);
        });
        return true;
      } catch (error) {
        if (error instanceof NothingChanged) return false;
        throw error;
      }
    },
  };
}

type Claim = Parameters<ScheduleStore['claimRuns']>;

/** claimRuns: the next run moved (compare-and-set), the runs' rows written, in one transaction. */
async function claimRuns(
  db: Kysely<Database>,
  sealer: AccountSealer,
  { read, plan, at, tell }: { read: Claim[0]; plan: Claim[1]; at: Date; tell: Claim[3] },
): Promise<boolean> {
  if (read.nextRunAt === null) return false;
  const expected = read.nextRunAt.getTime();
  try {
    await db.transaction().execute(async (trx) => {
      // Compare-and-set on the next run just read: of several claimers exactly one moves it.
      const row = await trx
        .updateTable('schedules')
        .set({
          next_run_at: msOrNull(plan.nextRunAt),
          state: plan.nextRunAt === null ? 'ENDED' : 'ACTIVE',
          updated_at: at.getTime(),
        })
        .where('id', '=', read.id)
        .where('state', '=', 'ACTIVE')
        .where('next_run_at', '=', expected)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) throw new NothingChanged();
      const runs = runRows(read, plan, at);
      for (let i = 0; i < runs.length; i += RUNS_PER_STATEMENT) {
        await trx
          .insertInto('schedule_runs')
          .values(runs.slice(i, i + RUNS_PER_STATEMENT))
          .execute();
      }
      // A run being made is notified once it has its result (finishRun).
      if (plan.run === undefined && tell !== undefined)
        await writeOutbox(trx, tell(await viewOf(trx, row)), sealer);
    });
    return true;
  } catch (error) {
    if (error instanceof NothingChanged) return false;
    throw error;
  }
}

/** The rows of a claim's runs: the fire times skipped, and the run being made. */
function runRows(read: Claim[0], plan: Claim[1], at: Date): ScheduleRunRow[] {
  const runs: ScheduleRunRow[] = plan.skipped.map((fireAt) => ({
    schedule_id: read.id,
    fire_at: fireAt.getTime(),
    merchant_id: read.merchantId,
    status: 'SKIPPED',
    payment_id: null,
    result_code: null,
    lease_until: null,
    created_at: at.getTime(),
    completed_at: at.getTime(),
  }));
  if (plan.run !== undefined) {
    runs.push({
      schedule_id: read.id,
      fire_at: plan.run.fireAt.getTime(),
      merchant_id: read.merchantId,
      status: 'IN_PROGRESS',
      payment_id: plan.run.paymentId,
      result_code: null,
      lease_until: plan.run.leaseUntil.getTime(),
      created_at: at.getTime(),
      completed_at: null,
    });
  }
  return runs;
}
