/**
 * The one migration set, written with Kysely's schema builder so that it runs unchanged on SQLite
 * and PostgreSQL. Migrations are kept in code (not files on disk) and applied by `migrate` at open.
 * Never edit a migration that has shipped: add a new one with the next name.
 *
 * Column types are limited to those both databases understand alike: `text`, `integer` and
 * `bigint` (SQLite gives `bigint` INTEGER affinity). Dates are epoch milliseconds (see schema.ts).
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { accountSealer } from '../security/account-data';
import type { Vault } from '../security/vault';
import { riskMigration } from './risk';
import { ascendingKey } from './rows';
import { schedulesMigration } from './schedules';
import { settlementsMigration } from './settlements';

const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('merchants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('channels')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('channels_merchant')
      .on('channels')
      .columns(['merchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('access_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('channel_ids', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('access_tokens_user')
      .on('access_tokens')
      .column('user_id')
      .unique()
      .execute();
    await db.schema
      .createIndex('access_tokens_merchant')
      .on('access_tokens')
      .columns(['merchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('payments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('payment_type', 'text', (c) => c.notNull())
      .addColumn('payment_brand', 'text')
      .addColumn('amount', 'bigint')
      .addColumn('currency', 'text')
      .addColumn('result_code', 'text', (c) => c.notNull())
      .addColumn('result_description', 'text', (c) => c.notNull())
      .addColumn('referenced_id', 'text')
      .addColumn('registration_id', 'text')
      .addColumn('merchant_transaction_id', 'text')
      .addColumn('short_id', 'text', (c) => c.notNull())
      .addColumn('descriptor', 'text')
      .addColumn('ndc', 'text', (c) => c.notNull())
      .addColumn('test_mode', 'text')
      .addColumn('card', 'text')
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('payments_referenced')
      .on('payments')
      .columns(['merchant_id', 'referenced_id'])
      .execute();
    await db.schema
      .createIndex('payments_merchant_transaction')
      .on('payments')
      .columns(['merchant_id', 'merchant_transaction_id'])
      .execute();
    await db.schema
      .createIndex('payments_created')
      .on('payments')
      .columns(['merchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('registrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('payment_brand', 'text', (c) => c.notNull())
      .addColumn('card', 'text')
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('initial_transaction_id', 'text')
      .addColumn('agreement_id', 'text')
      .addColumn('deleted_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('idempotent_responses')
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotent_responses_pk', ['merchant_id', 'key'])
      .execute();
  },
};

/**
 * Checkouts (issue 4): the merchant's parameters waiting for the widget's submission, and the
 * state of the shopperResultUrl notification, kept here so that a restart (or another process
 * on the same PostgreSQL) picks it up.
 */
const checkouts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('checkouts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('parameters', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('shopper_result_url', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('payment_id', 'text')
      .addColumn('registration_id', 'text')
      .addColumn('result_code', 'text')
      .addColumn('submitted_at', 'bigint')
      .addColumn('completed_at', 'bigint')
      .addColumn('status_fetched_at', 'bigint')
      .addColumn('notify_due_at', 'bigint')
      .addColumn('notify_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('notified_at', 'bigint')
      .execute();
    // The notifier's poll: only checkouts still to notify, so the index stays small however many
    // checkouts were notified or never submitted (both databases support partial indexes).
    await db.schema
      .createIndex('checkouts_notify_due')
      .on('checkouts')
      .column('notify_due_at')
      .where(sql.ref('notified_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('checkouts_merchant')
      .on('checkouts')
      .columns(['merchant_id', 'created_at'])
      .execute();
  },
};

const paymentSessions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('payment_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('payment_id', 'text', (c) => c.notNull())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('checkout_id', 'text')
      .addColumn('return_url', 'text')
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('due_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      .addColumn('outcome', 'text')
      .execute();
    await db.schema
      .createIndex('payment_sessions_payment')
      .on('payment_sessions')
      .column('payment_id')
      .execute();
    // The worker's poll: only open sessions, so the index stays small however many have finished.
    await db.schema
      .createIndex('payment_sessions_due')
      .on('payment_sessions')
      .column('due_at')
      .where(sql.ref('finished_at'), 'is', null)
      .execute();
  },
};

const webhooks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('payments').addColumn('checkout_id', 'text').execute();
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('encrypted', 'integer', (c) => c.notNull())
      .addColumn('types', 'text', (c) => c.notNull())
      .addColumn('payment_types', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('webhooks_merchant')
      .on('webhooks')
      .columns(['merchant_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('seq', ...ascendingKey(db))
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('webhook_id', 'text')
      .addColumn('callback_url', 'text')
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('order_key', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('action', 'text')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('retry_from', 'bigint', (c) => c.notNull())
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'bigint')
      .execute();
    // The dispatcher's poll and its in-order check see pending rows only.
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .column('next_attempt_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_order')
      .on('webhook_deliveries')
      .columns(['target', 'order_key', 'seq'])
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    // The delivery log.
    await db.schema
      .createIndex('webhook_deliveries_merchant')
      .on('webhook_deliveries')
      .columns(['merchant_id', 'seq'])
      .execute();
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
 * document that may hold one is read and written back sealed (server/security/account-data.ts),
 * page by page in key order; documents without one are left as they are. The vault's key is
 * needed, so this migration is made with the store's vault. A key that cannot open what is
 * sealed already (a card number, a webhook key) is refused first: sealing under the wrong key
 * would make the account numbers unreadable for the gateway that has the right one.
 */
function sealAccountData(vault: Pick<Vault, 'encrypt' | 'decrypt'>): Migration {
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

/**
 * Idempotency-Key claims (idempotency-claims.ts): the payment or schedule that took a key, written
 * in its own transaction; its response (status, body) follows once answered.
 */
const idempotencyClaims: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('idempotent_responses').addColumn('payment_id', 'text').execute();
    await db.schema.alterTable('idempotent_responses').addColumn('schedule_id', 'text').execute();
  },
};

/**
 * Environments (decisions, "Payment methods and environments"): every access token belongs to
 * test or live (`access_tokens.environment`; existing tokens take the environment of their
 * channels, test when they name none or only test ones), and a merchant may turn channel
 * dispatching on (`merchants.dispatching`, 0 or 1).
 */
const environments: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('access_tokens')
      .addColumn('environment', 'text', (c) => c.notNull().defaultTo('test'))
      .execute();
    await db.schema
      .alterTable('merchants')
      .addColumn('dispatching', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    const live = new Set(
      (await sql<{ id: string }>`SELECT id FROM channels WHERE mode = 'LIVE'`.execute(db)).rows.map(
        (r) => r.id,
      ),
    );
    if (live.size === 0) return;
    const tokens = await sql<{ id: string; channel_ids: string }>`
      SELECT id, channel_ids FROM access_tokens WHERE channel_ids <> '[]'`.execute(db);
    for (const t of tokens.rows) {
      const ids = JSON.parse(t.channel_ids) as string[];
      if (ids.some((id) => live.has(id)))
        await sql`UPDATE access_tokens SET environment = 'live' WHERE id = ${t.id}`.execute(db);
    }
  },
};

/** All migrations by name; names sort in the order they apply. */
export const migrations: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_checkouts': checkouts,
  '0003_payment_sessions': paymentSessions,
  '0004_webhooks': webhooks,
  '0005_schedules': schedulesMigration,
  '0006_settlements': settlementsMigration,
  '0007_risk': riskMigration,
  '0008_idempotency_claims': idempotencyClaims,
  // 0009_account_data_sealed is added by migrate (it needs the vault)
  '0010_environments': environments,
};

/**
 * Brings the schema up to date, and seals account numbers stored before they were sealed
 * (`0009_account_data_sealed`). Kysely's migrator takes a lock table first, so several gateway
 * processes starting against one PostgreSQL apply each migration once.
 */
export async function migrate(db: Kysely<unknown>, vault: Pick<Vault, 'encrypt' | 'decrypt'>): Promise<void> {
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
