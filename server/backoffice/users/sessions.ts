/**
 * The dashboard's sessions: a random secret in the `gw_admin` cookie (HttpOnly, SameSite=Strict,
 * Path=/admin, Secure over TLS); the store keeps only its SHA-256, so a copy of the database
 * opens no session. The CSRF token is derived from the secret (HMAC), so it is bound to the
 * session without being stored. A session ends after 15 minutes without a request (idle: PCI DSS
 * v4 8.2.8) or 12 hours after sign-in (absolute); its last use is written at most once a minute.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../../shared/engine/core/ports';
import type { AdminSession, AdminUser, AdminUserStore } from '../../storage/admin-users/store';

export const SESSION_COOKIE = 'gw_admin';
export const IDLE_MS = 15 * 60_000;
export const ABSOLUTE_MS = 12 * 60 * 60_000;
const TOUCH_EVERY_MS = 60_000;

export const sessionHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
export const csrfTokenOf = (secret: string): string =>
  createHmac('sha256', secret).update('gw_admin csrf').digest('base64url');

/** Whether the X-CSRF-Token sent is the session's (constant-time). */
export function csrfMatches(secret: string, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const expected = Buffer.from(csrfTokenOf(secret));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A new session for the user: the secret goes in the cookie, its hash in the store. */
export async function openSession(
  store: AdminUserStore,
  clock: Clock,
  user: AdminUser,
  address: string | undefined,
): Promise<{ secret: string; csrfToken: string }> {
  const secret = randomBytes(32).toString('base64url');
  const now = clock.now();
  await store.insertAdminSession({
    idHash: sessionHash(secret),
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    address: address ?? null,
  });
  return { secret, csrfToken: csrfTokenOf(secret) };
}

/** The live session and its user for a cookie's secret; expired ones are deleted. */
export async function readSession(
  store: AdminUserStore,
  clock: Clock,
  secret: string,
): Promise<{ session: AdminSession; user: AdminUser } | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  const session = await store.getAdminSession(sessionHash(secret));
  if (session === undefined) return undefined;
  const now = clock.now().getTime();
  const expired =
    now - session.lastSeenAt.getTime() > IDLE_MS || now - session.createdAt.getTime() > ABSOLUTE_MS;
  const user = expired ? undefined : await store.getAdminUser(session.userId);
  if (user === undefined || user.disabledAt !== null) {
    await store.deleteAdminSession(session.idHash);
    return undefined;
  }
  if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS)
    await store.touchAdminSession(session.idHash, new Date(now));
  return { session, user };
}

/** The Set-Cookie value of a new session, or (secret undefined) of its end. */
export function sessionCookie(secret: string | undefined, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${secret ?? ''}`,
    'Path=/admin',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${secret === undefined ? 0 : ABSOLUTE_MS / 1000}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** The session secret in a Cookie header, if any. */
export function sessionSecretIn(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}
