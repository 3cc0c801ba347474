/**
 * The administration's users, sessions and audit log (admin_users, admin_sessions, admin_audit),
 * and the access tokens' last use: the AdminUserStore the admin API, the CLI and the developer
 * default's demo users share. Secrets arrive hashed or sealed (server/backoffice/users/): this store never
 * sees a password or a session's secret.
 */
import { sql } from 'kysely';
import type { StoreContext } from '../core/context';
import { date, dateOrNull, int, ms, msOrNull } from '../core/rows';
import type { AdminAuditRow, AdminSessionRow, AdminUserRow } from './tables';

export type AdminRole = 'operator' | 'merchant-admin' | 'merchant-viewer';
export const ADMIN_ROLES: readonly AdminRole[] = ['operator', 'merchant-admin', 'merchant-viewer'];

/** Which audit entries: the filters are exact (actor, action) or a half-open time range [from, to). */
export interface AuditQuery {
  readonly merchantId?: string;
  readonly after?: number;
  readonly before?: number;
  readonly actor?: string;
  readonly action?: string;
  readonly from?: Date;
  readonly to?: Date;
  /** The dashboard's order; the CLI and tests page oldest first with `after`. */
  readonly newestFirst?: boolean;
  readonly limit: number;
}

export interface AdminUser {
  readonly id: string;
  readonly username: string;
  readonly role: AdminRole;
  /** null for operators. */
  readonly merchantId: string | null;
  /** `scrypt$N$r$p$salt$key` (server/security/passwords.ts). */
  readonly passwordHash: string;
  /** Sealed by the vault; null without a second factor. */
  readonly totpSecret: string | null;
  readonly totpPending: string | null;
  readonly totpStep: number | null;
  readonly failedLogins: number;
  readonly lockedUntil: Date | null;
  readonly disabledAt: Date | null;
  readonly createdAt: Date;
}

export type AdminUserChange = Partial<
  Pick<
    AdminUser,
    'passwordHash' | 'totpSecret' | 'totpPending' | 'totpStep' | 'failedLogins' | 'lockedUntil' | 'disabledAt'
  >
>;

export interface AdminSession {
  readonly idHash: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly address: string | null;
}

export interface AuditEntry {
  readonly at: Date;
  readonly actor: string;
  readonly actorId: string | null;
  readonly role: string;
  readonly action: string;
  readonly target: string | null;
  readonly merchantId: string | null;
  readonly address: string | null;
}

export interface StoredAuditEntry extends AuditEntry {
  readonly id: number;
}

export interface AdminUserStore {
  /** false when the username is taken. */
  insertAdminUser(user: AdminUser): Promise<boolean>;
  getAdminUser(id: string): Promise<AdminUser | undefined>;
  getAdminUserByUsername(username: string): Promise<AdminUser | undefined>;
  /** Every user, or a merchant's; oldest first. */
  listAdminUsers(merchantId?: string): Promise<AdminUser[]>;
  countAdminUsers(): Promise<number>;
  updateAdminUser(id: string, change: AdminUserChange): Promise<boolean>;
  /**
   * One more wrong password, counted in the database (several processes count together); at
   * `limit` the account is locked until `at + lockMs` and the count starts again.
   */
  recordLoginFailure(id: string, at: Date, limit: number, lockMs: number): Promise<Date | null>;
  insertAdminSession(session: AdminSession): Promise<void>;
  getAdminSession(idHash: string): Promise<AdminSession | undefined>;
  touchAdminSession(idHash: string, at: Date): Promise<void>;
  deleteAdminSession(idHash: string): Promise<void>;
  /** Ends a user's sessions (all, or all but one: a password change keeps the session that made it). */
  deleteAdminSessions(userId: string, exceptIdHash?: string): Promise<void>;
  appendAudit(entry: AuditEntry): Promise<void>;
  /** Oldest first after `after`, or newest first before `before`; a merchant's, or every entry. */
  listAudit(query: AuditQuery): Promise<StoredAuditEntry[]>;
  recordTokenUse(tokenId: string, at: Date): Promise<void>;
  /** token id → last use, for a merchant's tokens used at least once. */
  tokenLastUse(merchantId: string): Promise<Map<string, Date>>;
}

const rowToUser = (r: AdminUserRow): AdminUser => ({
  id: r.id,
  username: r.username,
  role: r.role as AdminRole,
  merchantId: r.merchant_id,
  passwordHash: r.password_hash,
  totpSecret: r.totp_secret,
  totpPending: r.totp_pending,
  totpStep: r.totp_step === null ? null : int(r.totp_step),
  failedLogins: int(r.failed_logins),
  lockedUntil: dateOrNull(r.locked_until),
  disabledAt: dateOrNull(r.disabled_at),
  createdAt: date(r.created_at),
});

const rowToSession = (r: AdminSessionRow): AdminSession => ({
  idHash: r.id_hash,
  userId: r.user_id,
  createdAt: date(r.created_at),
  lastSeenAt: date(r.last_seen_at),
  address: r.address,
});

const rowToAudit = (r: AdminAuditRow): StoredAuditEntry => ({
  id: int(r.seq),
  at: date(r.at),
  actor: r.actor,
  actorId: r.actor_id,
  role: r.role,
  action: r.action,
  target: r.target,
  merchantId: r.merchant_id,
  address: r.address,
});

function changeToRow(change: AdminUserChange) {
  return {
    ...(change.passwordHash === undefined ? {} : { password_hash: change.passwordHash }),
    ...(change.totpSecret === undefined ? {} : { totp_secret: change.totpSecret }),
    ...(change.totpPending === undefined ? {} : { totp_pending: change.totpPending }),
    ...(change.totpStep === undefined ? {} : { totp_step: change.totpStep }),
    ...(change.failedLogins === undefined ? {} : { failed_logins: change.failedLogins }),
    ...(change.lockedUntil === undefined ? {} : { locked_until: msOrNull(change.lockedUntil) }),
    ...(change.disabledAt === undefined ? {} : { disabled_at: msOrNull(change.disabledAt) }),
  };
}

export function adminUserStore({ db }: StoreContext): AdminUserStore {
  const users = {
    async insertAdminUser(u: AdminUser) {
      const result = await db
        .insertInto('admin_users')
        .values({
          id: u.id,
          username: u.username,
          role: u.role,
          merchant_id: u.merchantId,
          password_hash: u.passwordHash,
          totp_secret: u.totpSecret,
          totp_pending: u.totpPending,
          totp_step: u.totpStep,
          failed_logins: u.failedLogins,
          locked_until: msOrNull(u.lockedUntil),
          disabled_at: msOrNull(u.disabledAt),
          created_at: ms(u.createdAt),
        })
        .onConflict((oc) => oc.column('username').doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
    async getAdminUser(id: string) {
      const row = await db.selectFrom('admin_users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && rowToUser(row);
    },
    async getAdminUserByUsername(username: string) {
      const row = await db
        .selectFrom('admin_users')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirst();
      return row && rowToUser(row);
    },
    async listAdminUsers(merchantId?: string) {
      let query = db.selectFrom('admin_users').selectAll();
      if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId);
      return (await query.orderBy('created_at').orderBy('id').execute()).map(rowToUser);
    },
    async countAdminUsers() {
      const row = await db
        .selectFrom('admin_users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return int(row.n);
    },
    async updateAdminUser(id: string, change: AdminUserChange) {
      const values = changeToRow(change);
      if (Object.keys(values).length === 0) return true;
      const result = await db.updateTable('admin_users').set(values).where('id', '=', id).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async recordLoginFailure(id: string, at: Date, limit: number, lockMs: number) {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('admin_users')
          .set({ failed_logins: sql`failed_logins + 1` })
          .where('id', '=', id)
          .execute();
        const row = await trx
          .selectFrom('admin_users')
          .select('failed_logins')
          .where('id', '=', id)
          .executeTakeFirst();
        if (row === undefined || int(row.failed_logins) < limit) return null;
        const until = new Date(at.getTime() + lockMs);
        await trx
          .updateTable('admin_users')
          .set({ failed_logins: 0, locked_until: ms(until) })
          .where('id', '=', id)
          .execute();
        return until;
      });
    },
  };
  return { ...users, ...sessionsAndAudit({ db }) };
}

function sessionsAndAudit({ db }: Pick<StoreContext, 'db'>) {
  return {
    async insertAdminSession(s: AdminSession) {
      await db
        .insertInto('admin_sessions')
        .values({
          id_hash: s.idHash,
          user_id: s.userId,
          created_at: ms(s.createdAt),
          last_seen_at: ms(s.lastSeenAt),
          address: s.address,
        })
        .execute();
    },
    async getAdminSession(idHash: string) {
      const row = await db
        .selectFrom('admin_sessions')
        .selectAll()
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return row && rowToSession(row);
    },
    async touchAdminSession(idHash: string, at: Date) {
      await db
        .updateTable('admin_sessions')
        .set({ last_seen_at: ms(at) })
        .where('id_hash', '=', idHash)
        .execute();
    },
    async deleteAdminSession(idHash: string) {
      await db.deleteFrom('admin_sessions').where('id_hash', '=', idHash).execute();
    },
    async deleteAdminSessions(userId: string, exceptIdHash?: string) {
      let query = db.deleteFrom('admin_sessions').where('user_id', '=', userId);
      if (exceptIdHash !== undefined) query = query.where('id_hash', '<>', exceptIdHash);
      await query.execute();
    },
    async appendAudit(e: AuditEntry) {
      await db
        .insertInto('admin_audit')
        .values({
          at: ms(e.at),
          actor: e.actor,
          actor_id: e.actorId,
          role: e.role,
          action: e.action,
          target: e.target,
          merchant_id: e.merchantId,
          address: e.address,
        })
        .execute();
    },
    async listAudit(q: AuditQuery) {
      let query = db.selectFrom('admin_audit').selectAll();
      if (q.merchantId !== undefined) query = query.where('merchant_id', '=', q.merchantId);
      if (q.after !== undefined) query = query.where('seq', '>', q.after);
      if (q.before !== undefined) query = query.where('seq', '<', q.before);
      if (q.actor !== undefined) query = query.where('actor', '=', q.actor);
      if (q.action !== undefined) query = query.where('action', '=', q.action);
      if (q.from !== undefined) query = query.where('at', '>=', ms(q.from));
      if (q.to !== undefined) query = query.where('at', '<', ms(q.to));
      const order = q.newestFirst === true ? 'desc' : 'asc';
      return (await query.orderBy('seq', order).limit(q.limit).execute()).map(rowToAudit);
    },
    async recordTokenUse(tokenId: string, at: Date) {
      await db
        .updateTable('access_tokens')
        .set({ last_used_at: ms(at) })
        .where('id', '=', tokenId)
        .execute();
    },
    async tokenLastUse(merchantId: string) {
      const rows = await db
        .selectFrom('access_tokens')
        .select(['id', 'last_used_at'])
        .where('merchant_id', '=', merchantId)
        .where('last_used_at', 'is not', null)
        .execute();
      return new Map(rows.map((r) => [r.id, date(r.last_used_at!)]));
    },
  };
}
