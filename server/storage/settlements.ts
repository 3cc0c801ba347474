/**
 * Storage of settlement runs, their records and reconciliation files: migration 0006 and the
 * SettlementStore, over the same Kysely database as the rest of the store.
 */
import type { Kysely, Migration } from 'kysely';
import type { Database } from './schema';

export const settlementsMigration: Migration = {
  async up(_db: Kysely<unknown>): Promise<void> {},
};

// biome-ignore lint/suspicious/noEmptyInterface: filled by the settlement feature
export interface SettlementStore {}

export function settlementStore(_db: Kysely<Database>): SettlementStore {
  return {};
}
