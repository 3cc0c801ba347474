/**
 * Merchants, their channels and their access tokens: tables, and their part of migrations 0001
 * and 0010 (the migration list is migrations.ts).
 */
import { type Generated, type Kysely, type Migration, type Selectable, sql } from 'kysely';
import { createIndex, createTable, type EpochMs, type JsonText } from '../core/columns';

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
  await createTable(db, 'merchants', {
    id: 'text primary key',
    name: 'text not null',
    created_at: 'bigint not null',
  }).execute();

  await createTable(db, 'channels', {
    id: 'text primary key',
    merchant_id: 'text not null',
    name: 'text not null',
    mode: 'text not null',
    settings: 'text not null',
    created_at: 'bigint not null',
  }).execute();
  await createIndex(db, 'channels_merchant', 'channels', ['merchant_id', 'created_at']).execute();

  await createTable(db, 'access_tokens', {
    id: 'text primary key',
    merchant_id: 'text not null',
    user_id: 'text not null',
    secret_hash: 'text not null',
    channel_ids: 'text not null',
    revoked_at: 'bigint',
    created_at: 'bigint not null',
  }).execute();
  await createIndex(db, 'access_tokens_user', 'access_tokens', ['user_id']).unique().execute();
  await createIndex(db, 'access_tokens_merchant', 'access_tokens', ['merchant_id', 'created_at']).execute();
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
