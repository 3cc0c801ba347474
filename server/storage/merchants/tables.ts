/**
 * Merchants, their channels and their access tokens: tables, and their part of migrations 0001
 * and 0010 (the migration list is migrations.ts).
 */
import { type Generated, type Kysely, type Migration, type Selectable, sql } from 'kysely';
import type { EpochMs, JsonText } from '../core/columns';

export interface MerchantsTable {
  id: string;
  name: string;
  /** Channel dispatching: 0 or 1 (0010_environments). */
  dispatching: Generated<number>;
  created_at: EpochMs;
}

export interface ChannelsTable {
  id: string;
  merchant_id: string;
  name: string;
  mode: string;
  /** ChannelSettings as JSON. */
  settings: JsonText;
  created_at: EpochMs;
}

export interface AccessTokensTable {
  id: string;
  merchant_id: string;
  user_id: string;
  secret_hash: string;
  /** string[] as JSON. */
  channel_ids: JsonText;
  /** `test` or `live` (0010_environments). */
  environment: Generated<string>;
  revoked_at: EpochMs | null;
  created_at: EpochMs;
  /** When the token last opened a request, to the minute (0013_admin_users). */
  last_used_at?: EpochMs | null;
}

export type MerchantRow = Selectable<MerchantsTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type AccessTokenRow = Selectable<AccessTokensTable>;

/** 0001 (first part): merchants, channels, access tokens. */
export async function createMerchantTables(db: Kysely<unknown>): Promise<void> {
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
  await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').unique().execute();
  await db.schema
    .createIndex('access_tokens_merchant')
    .on('access_tokens')
    .columns(['merchant_id', 'created_at'])
    .execute();
}

/**
 * Environments (decisions, "Payment methods and environments"): every access token belongs to
 * test or live (`access_tokens.environment`; existing tokens take the environment of their
 * channels, test when they name none or only test ones), and a merchant may turn channel
 * dispatching on (`merchants.dispatching`, 0 or 1).
 */
export const environmentsMigration: Migration = {
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

/** 0013 (part): when each access token was last used (written at most once a minute per token). */
export async function addTokenLastUse(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('access_tokens').addColumn('last_used_at', 'bigint').execute();
}
