/**
 * Storage of scheduled payments (/scheduling/v1/schedules) and their runs: migration 0005 and
 * the ScheduleStore, over the same Kysely database as the rest of the store.
 */
import type { Kysely, Migration } from 'kysely';
import type { Database } from './schema';

export const schedulesMigration: Migration = {
  async up(_db: Kysely<unknown>): Promise<void> {},
};

// biome-ignore lint/suspicious/noEmptyInterface: filled by the scheduling feature
export interface ScheduleStore {}

export function scheduleStore(_db: Kysely<Database>): ScheduleStore {
  return {};
}
