/**
 * What every aggregate's store factory is made with: the database (or, for the writers, its
 * connection) and the account sealer. The notifications come with each change, rendered by the
 * engine (shared/engine/core/notification.ts).
 */
import type { Kysely } from 'kysely';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { Database } from './database';

export interface StoreContext {
  readonly db: Kysely<Database>;
  /**
   * Seals the account numbers (IBANs, bank account numbers) of every JSON document written, and
   * opens them when read (shared/sealing/account-data.ts): payments' and registrations'
   * details, checkouts' parameters, sessions' plans, webhook payloads, channels' settings.
   */
  readonly sealer: AccountSealer;
}
