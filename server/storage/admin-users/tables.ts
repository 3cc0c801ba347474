/**
 * The administration's users, their sessions and the audit log of what they did: tables and
 * their migration (0013_admin_users, with the access tokens' last use and the payments list's
 * index, migrations.ts). Passwords are stored as scrypt hashes with their salt and cost
 * (server/security/passwords.ts), sessions as a SHA-256 of their secret, TOTP secrets sealed.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import { ascendingKey, type EpochMs } from '../core/columns';

export interface AdminUsersTable {
  id: string;
  username: string;
  /** operator | merchant-admin | merchant-viewer */
  role: string;
  /** The merchant of a merchant-admin or merchant-viewer; null for operators. */
  merchant_id: string | null;
  /** `scrypt$N$r$p$salt$key` */
  password_hash: string;
  /** The confirmed TOTP secret, sealed by the vault; null without a second factor. */
  totp_secret: string | null;
  /** A secret awaiting its first code (POST /admin/v1/session/totp), sealed. */
  totp_pending: string | null;
  /** The last TOTP step accepted: a code is good once. */
  totp_step: number | null;
  /** Wrong passwords since the last sign-in or lock. */
  failed_logins: Generated<number>;
  locked_until: EpochMs | null;
  disabled_at: EpochMs | null;
  created_at: EpochMs;
}

export interface AdminSessionsTable {
  /** sha256 hex of the cookie's secret: a stolen database opens no session. */
  id_hash: string;
  user_id: string;
  created_at: EpochMs;
  last_seen_at: EpochMs;
  address: string | null;
}

export interface AdminAuditTable {
  seq: Generated<number>;
  at: EpochMs;
  /** The username, or `operator-token` for the operator's bearer token. */
  actor: string;
  actor_id: string | null;
  role: string;
  action: string;
  target: string | null;
  /** The merchant the action concerns (null: the gateway's own, e.g. a new merchant by an operator). */
  merchant_id: string | null;
  address: string | null;
}

export type AdminUserRow = Selectable<AdminUsersTable>;
export type AdminSessionRow = Selectable<AdminSessionsTable>;
export type AdminAuditRow = Selectable<AdminAuditTable>;

/** 0013 (first part): users, sessions, audit log. */
export async function createAdminUserTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('admin_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending', 'text')
    .addColumn('totp_step', 'bigint')
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('disabled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('admin_users_merchant')
    .on('admin_users')
    .columns(['merchant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('admin_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text')
    .execute();
  await db.schema.createIndex('admin_sessions_user').on('admin_sessions').column('user_id').execute();

  const [seqType, seqKey] = ascendingKey(db);
  await db.schema
    .createTable('admin_audit')
    .addColumn('seq', seqType, seqKey)
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('merchant_id', 'text')
    .addColumn('address', 'text')
    .execute();
  await db.schema
    .createIndex('admin_audit_merchant')
    .on('admin_audit')
    .columns(['merchant_id', 'seq'])
    .execute();
}
