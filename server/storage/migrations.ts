/**
 * The one migration set, written with Kysely's schema builder so that it runs unchanged on SQLite
 * and PostgreSQL. Migrations are kept in code (not files on disk) and applied by `migrate` at open.
 * Never edit a migration that has shipped: add a new one with the next name.
 *
 * Column types are limited to those both databases understand alike: `text`, `integer` and
 * `bigint` (SQLite gives `bigint` INTEGER affinity). Dates are epoch milliseconds (see core/database.ts).
 *
 * Each aggregate keeps its tables and their migrations in its own `tables.ts`; this file lists
 * them by name, in the order they apply. Migrations that touch several aggregates' tables
 * (0001, 0004) run their parts in the order they always ran; 0009 (the account numbers of every
 * aggregate's documents, sealed) lives here.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { accountSealer, type SealingVault } from '../../shared/sealing/account-data';
import { acquirerRecordsMigration } from './acquirer-records/tables';
import { createAdminUserTables } from './admin-users/tables';
import { apiRequestsMigration } from './api-requests/tables';
import { checkoutsMigration } from './checkouts/tables';
import { connectorAttemptsMigration } from './connector-attempts/tables';
import { createIdempotencyTable, idempotencyClaimsMigration } from './idempotency/tables';
import { createInboxTable } from './inbox/tables';
import { addTokenLastUse, createMerchantTables, environmentsMigration } from './merchants/tables';
import {
  addPaymentsCheckoutColumn,
  addPaymentsListIndex,
  createPaymentsTable,
  partialPaymentIndexes,
} from './payments/tables';
import { processorEventsMigration, waitingProcessorEventsMigration } from './processor-events/tables';
import { createRegistrationsTable, registrationsMerchantTransactionMigration } from './registrations/tables';
import { riskMigration } from './risk/tables';
import { schedulesMigration } from './schedules/tables';
import { paymentSessionsMigration } from './sessions/tables';
import { settlementRecordsTimeIndex, settlementsMigration } from './settlements/tables';
import { addDeliveriesByOrderKeyIndex, addWebhooksInboxColumn, createWebhookTables } from './webhooks/tables';

/** 0001: merchants, channels, access tokens, payments, registrations, idempotent responses. */
const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createMerchantTables(db);
    await createPaymentsTable(db);
    await createRegistrationsTable(db);
    await createIdempotencyTable(db);
  },
};

/** 0004: payments.checkout_id, then webhooks and their outbox. */
const webhooks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await addPaymentsCheckoutColumn(db);
    await createWebhookTables(db);
  },
};

/** 0014: the webhook inbox (its table, and webhooks.inbox marking the webhooks that deliver there). */
const webhookInbox: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await addWebhooksInboxColumn(db);
    await createInboxTable(db);
  },
};

/** 0013: the administration's users, sessions and audit log; tokens' last use; the payments list's index. */
const adminUsers: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createAdminUserTables(db);
    await addTokenLastUse(db);
    await addPaymentsListIndex(db);
    await addDeliveriesByOrderKeyIndex(db);
  },
};

/** The JSON documents that may hold account numbers: their table, key and column. */
const ACCOUNT_DOCUMENTS = [
  { table: 'payments', key: 'id', column: 'details' },
  { table: 'registrations', key: 'id', column: 'details' },
  { table: 'checkouts', key: 'id', column: 'parameters' },
  { table: 'payment_sessions', key: 'id', column: 'plan' },
  { table: 'webhook_deliveries', key: 'seq', column: 'payload' },
] as const;

const SEAL_PAGE = 500;

/**
 * Account numbers (IBANs, bank account numbers) written before they were sealed: every stored
 * document that may hold one is read and written back sealed (shared/sealing/account-data.ts),
 * page by page in key order; documents without one are left as they are. The vault's key is
 * needed, so this migration is made with the store's vault. A key that cannot open what is
 * sealed already (a card number, a webhook key) is refused first: sealing under the wrong key
 * would make the account numbers unreadable for the gateway that has the right one.
 */
function sealAccountData(vault: SealingVault): Migration {
  const sealer = accountSealer(vault);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const one = (query: string) => sql<{ v: string }>`${sql.raw(query)}`.execute(db);
      const [hookKey] = (await one('SELECT secret AS v FROM webhooks LIMIT 1')).rows;
      const [card] = (await one('SELECT card AS v FROM payments WHERE card IS NOT NULL LIMIT 1')).rows;
      if (hookKey !== undefined) vault.decrypt(hookKey.v);
      if (card !== undefined)
        vault.decrypt((JSON.parse(card.v) as { encryptedNumber: string }).encryptedNumber);
      for (const { table, key, column } of ACCOUNT_DOCUMENTS) {
        const [k, c] = [sql.ref(key), sql.ref(column)];
        // a cheap filter: only documents naming an account field can hold one
        const mayHold = sql`(${c} LIKE ${'%iban%'} OR ${c} LIKE ${'%ccountNumber%'} OR ${c} LIKE ${'%"number"%'})`;
        let after: string | number | undefined;
        for (;;) {
          const from = after === undefined ? sql`1 = 1` : sql`${k} > ${after}`;
          const page = await sql<{ k: string | number; v: string }>`
            SELECT ${k} AS k, ${c} AS v FROM ${sql.table(table)}
            WHERE ${from} AND ${mayHold} ORDER BY ${k} LIMIT ${SEAL_PAGE}`.execute(db);
          for (const row of page.rows) {
            const stored = JSON.parse(row.v) as unknown;
            const sealed = sealer.seal(stored);
            if (sealed !== stored)
              await sql`UPDATE ${sql.table(table)} SET ${c} = ${JSON.stringify(sealed)} WHERE ${k} = ${row.k}`.execute(
                db,
              );
          }
          if (page.rows.length < SEAL_PAGE) break;
          after = page.rows[page.rows.length - 1]!.k;
        }
      }
    },
  };
}

/** All migrations by name; names sort in the order they apply. */
export const migrations: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_checkouts': checkoutsMigration,
  '0003_payment_sessions': paymentSessionsMigration,
  '0004_webhooks': webhooks,
  '0005_schedules': schedulesMigration,
  '0006_settlements': settlementsMigration,
  '0007_risk': riskMigration,
  '0008_idempotency_claims': idempotencyClaimsMigration,
  // 0009_account_data_sealed is added by migrate (it needs the vault)
  '0010_environments': environmentsMigration,
  '0012_acquirer_records': acquirerRecordsMigration,
  '0013_admin_users': adminUsers,
  '0014_webhook_inbox': webhookInbox,
  '0015_payments_partial_indexes': { up: partialPaymentIndexes },
  '0016_settlement_records_time': { up: settlementRecordsTimeIndex },
  '0017_processor_events': { up: processorEventsMigration },
  '0018_connector_attempts': { up: connectorAttemptsMigration },
  '0019_api_requests': { up: apiRequestsMigration },
  '0020_processor_events_waiting': { up: waitingProcessorEventsMigration },
  '0021_registrations_merchant_transaction': { up: registrationsMerchantTransactionMigration },
};

/**
 * Brings the schema up to date, and seals account numbers stored before they were sealed
 * (`0009_account_data_sealed`). Kysely's migrator takes a lock table first, so several gateway
 * processes starting against one PostgreSQL apply each migration once.
 */
export async function migrate(db: Kysely<unknown>, vault: SealingVault): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () => ({ ...migrations, '0009_account_data_sealed': sealAccountData(vault) }),
  };
  // Unordered: a data migration such as 0009 may be applied to a store whose schema is already
  // past it (an upgrade re-sealing rows, or its own test); each migration stands on its own.
  const { error, results } = await new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
  }).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Storage migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/**
 * The migrations not yet applied to this database (readyz: empty when the schema is current).
 * Reading the migrator's table is also the trivial query that shows the storage is reachable.
 */
export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  const names = [...Object.keys(migrations), '0009_account_data_sealed'];
  const listed = Object.fromEntries(names.map((name) => [name, { up: async () => {} }]));
  const known = await new Migrator({ db, provider: { getMigrations: async () => listed } }).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
