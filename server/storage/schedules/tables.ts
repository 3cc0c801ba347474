/** Scheduled payments and their runs: the tables and their migration (0005). */
import type { Kysely, Migration, Selectable } from 'kysely';
import type { EpochMs, JsonText } from '../core/columns';

export interface SchedulesTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  registration_id: string;
  payment_type: string;
  /** Minor units. */
  amount: number;
  currency: string;
  /** The 7-field cron expression. */
  expression: string;
  /** The job.* parameters as sent (JSON). */
  job: JsonText;
  /** ScheduledPayment as JSON: what the runs' payments carry besides the money. */
  payment: JsonText;
  result_code: string;
  starts_at: EpochMs;
  /** Exclusive end; null: none. */
  ends_at: EpochMs | null;
  /** The next fire time to run; null once ENDED or CANCELLED. */
  next_run_at: EpochMs | null;
  /** ACTIVE, ENDED or CANCELLED. */
  state: string;
  created_at: EpochMs;
  updated_at: EpochMs;
  cancelled_at: EpochMs | null;
}

export interface ScheduleRunsTable {
  schedule_id: string;
  /** The fire time; unique with schedule_id. */
  fire_at: EpochMs;
  merchant_id: string;
  /** IN_PROGRESS, EXECUTED, SKIPPED or FAILED. */
  status: string;
  /** Reserved at the claim, before the payment exists. */
  payment_id: string | null;
  result_code: string | null;
  /** While IN_PROGRESS: when another poll may take the run over. */
  lease_until: EpochMs | null;
  created_at: EpochMs;
  completed_at: EpochMs | null;
}

export type ScheduleRow = Selectable<SchedulesTable>;
export type ScheduleRunRow = Selectable<ScheduleRunsTable>;

/** 0005: schedules and their runs. */
export const schedulesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('schedules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('registration_id', 'text', (c) => c.notNull())
      .addColumn('payment_type', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('expression', 'text', (c) => c.notNull())
      .addColumn('job', 'text', (c) => c.notNull())
      .addColumn('payment', 'text', (c) => c.notNull())
      .addColumn('result_code', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('ends_at', 'bigint')
      .addColumn('next_run_at', 'bigint')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('cancelled_at', 'bigint')
      .execute();
    // The scheduler's poll: due schedules by next run (null once ended or cancelled).
    await db.schema.createIndex('schedules_next_run').on('schedules').column('next_run_at').execute();
    await db.schema
      .createIndex('schedules_merchant')
      .on('schedules')
      .columns(['merchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('schedule_runs')
      .addColumn('schedule_id', 'text', (c) => c.notNull())
      .addColumn('fire_at', 'bigint', (c) => c.notNull())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('payment_id', 'text')
      .addColumn('result_code', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('completed_at', 'bigint')
      .addPrimaryKeyConstraint('schedule_runs_pk', ['schedule_id', 'fire_at'])
      .execute();
    // Runs left in progress by a stopped claimer (null once recorded).
    await db.schema.createIndex('schedule_runs_lease').on('schedule_runs').column('lease_until').execute();
  },
};
