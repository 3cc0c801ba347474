/**
 * Storage of the risk checks' history (velocity counts): migration 0007 and the RiskStore, over
 * the same Kysely database as the rest of the store.
 */
import type { Kysely, Migration } from 'kysely';
import type { Database } from './schema';

export const riskMigration: Migration = {
  async up(_db: Kysely<unknown>): Promise<void> {},
};

// biome-ignore lint/suspicious/noEmptyInterface: filled by the risk feature
export interface RiskStore {}

export function riskStore(_db: Kysely<Database>): RiskStore {
  return {};
}
