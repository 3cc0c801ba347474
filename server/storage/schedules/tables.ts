/** Scheduled payments and their runs: the tables and their migration (0005). */
import type { Kysely, Migration, Selectable } from 'kysely';
import { createIndex, createTable, type EpochMs, type JsonText } from '../core/columns';

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
    await createTable(db, 'schedules', {
      id: 'text primary key',
      merchant_id: 'text not null',
      channel_id: 'text not null',
      registration_id: 'text not null',
      payment_type: 'text not null',
      amount: 'bigint not null',
      currency: 'text not null',
      expression: 'text not null',
      job: 'text not null',
      payment: 'text not null',
      result_code: 'text not null',
      starts_at: 'bigint not null',
      ends_at: 'bigint',
      next_run_at: 'bigint',
      state: 'text not null',
      created_at: 'bigint not null',
      updated_at: 'bigint not null',
      cancelled_at: 'bigint',
    }).execute();
    // The scheduler's poll: due schedules by next run (null once ended or cancelled).
    await createIndex(db, 'schedules_next_run', 'schedules', ['next_run_at']).execute();
    await createIndex(db, 'schedules_merchant', 'schedules', ['merchant_id', 'created_at']).execute();

    await createTable(db, 'schedule_runs', {
      schedule_id: 'text not null',
      fire_at: 'bigint not null',
      merchant_id: 'text not null',
      status: 'text not null',
      payment_id: 'text',
      result_code: 'text',
      lease_until: 'bigint',
      created_at: 'bigint not null',
      completed_at: 'bigint',
    })
      .addPrimaryKeyConstraint('schedule_runs_pk', ['schedule_id', 'fire_at'])
      .execute();
    // Runs left in progress by a stopped claimer (null once recorded).
    await createIndex(db, 'schedule_runs_lease', 'schedule_runs', ['lease_until']).execute();
  },
};
