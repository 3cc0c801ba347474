/**
 * What every aggregate's store factory is made with: the database (or, for the writers, its
 * connection), the account sealer, and the issuer lookup of the notifications.
 */
import type { Kysely } from 'kysely';
import type { IssuerLookup } from '../../../shared/engine/answers/response';
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
  /** The issuer lookup of the notifications' card.type, card.level, card.issuer.* (the processors). */
  readonly issuers?: IssuerLookup;
}
