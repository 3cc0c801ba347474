/**
 * Signing in to the dashboard: the password (scrypt), then the TOTP code when the user has
 * a second factor. Ten wrong passwords lock the account for 15 minutes (counted in the store,
 * so every process counts together); a locked, disabled or unknown account answers like a wrong
 * password, except the lock, which says when to retry. A TOTP code is good once.
 */
import type { Clock } from '../../shared/engine/core/ports';
import { decoyHash, verifyPassword } from '../security/passwords';
import { checkTotp } from '../security/totp';
import type { AdminUser, AdminUserStore } from '../storage/admin-users/store';

export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 15 * 60_000;

export type SignIn =
  | { readonly kind: 'signed-in'; readonly user: AdminUser }
  /** `user`: the account tried, when it exists (for the audit log; never told to the caller). */
  | { readonly kind: 'wrong'; readonly user?: AdminUser }
  | { readonly kind: 'totp-required'; readonly user: AdminUser }
  | { readonly kind: 'locked'; readonly retryAfterSeconds: number; readonly user: AdminUser };

export interface SignInDeps {
  readonly store: AdminUserStore;
  readonly clock: Clock;
  /** Opens a sealed TOTP secret. */
  readonly unseal: (sealed: string) => string;
}

const lockedFor = (user: AdminUser, now: Date): number | undefined => {
  const left = (user.lockedUntil?.getTime() ?? 0) - now.getTime();
  return left > 0 ? Math.ceil(left / 1000) : undefined;
};

export async function signIn(
  deps: SignInDeps,
  input: { readonly username: string; readonly password: string; readonly totp?: string },
): Promise<SignIn> {
  const { store, clock } = deps;
  const user = await store.getAdminUserByUsername(input.username);
  if (user === undefined) {
    await verifyPassword(input.password, await decoyHash()); // the same time as a real check
    return { kind: 'wrong' };
  }
  const locked = lockedFor(user, clock.now());
  if (locked !== undefined) return { kind: 'locked', retryAfterSeconds: locked, user };
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    const until = await store.recordLoginFailure(user.id, clock.now(), LOCK_AFTER_FAILURES, LOCK_MS);
    if (until !== null) return { kind: 'locked', retryAfterSeconds: Math.ceil(LOCK_MS / 1000), user };
    return { kind: 'wrong', user };
  }
  if (user.disabledAt !== null) return { kind: 'wrong', user };
  if (user.totpSecret !== null) {
    if (input.totp === undefined) return { kind: 'totp-required', user };
    const step = checkTotp(deps.unseal(user.totpSecret), input.totp, clock.now(), user.totpStep ?? undefined);
    if (step === undefined) {
      // a wrong code counts like a wrong password: six digits must not be guessable at leisure
      const until = await store.recordLoginFailure(user.id, clock.now(), LOCK_AFTER_FAILURES, LOCK_MS);
      if (until !== null) return { kind: 'locked', retryAfterSeconds: Math.ceil(LOCK_MS / 1000), user };
      return { kind: 'totp-required', user };
    }
    await store.updateAdminUser(user.id, { totpStep: step });
  }
  if (user.failedLogins > 0 || user.lockedUntil !== null)
    await store.updateAdminUser(user.id, { failedLogins: 0, lockedUntil: null });
  return { kind: 'signed-in', user };
}
