/**
 * Signing in to the dashboard: the password (scrypt), then the TOTP code when the user has
 * a second factor. Ten wrong passwords (or codes) lock the account for 30 minutes, or until an
 * operator unlocks it (PCI DSS v4 8.3.4; counted in the store, so every process counts together).
 * A locked, disabled or unknown account answers exactly like a wrong password, after the same
 * scrypt work (a decoy hash for an unknown name): neither the answer nor its time tells whether a
 * username exists or is locked. A TOTP code is good once.
 */
import type { Clock } from '../../../shared/engine/core/ports';
import { decoyHash, verifyPassword } from '../../security/passwords';
import { checkTotp } from '../../security/totp';
import type { AdminUser, AdminUserStore } from '../../storage/admin-users/store';

export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 30 * 60_000;

export type SignIn =
  | { readonly kind: 'signed-in'; readonly user: AdminUser }
  /** `user`: the account tried, when it exists (for the audit log; never told to the caller). */
  | { readonly kind: 'wrong'; readonly user?: AdminUser }
  | { readonly kind: 'totp-required'; readonly user: AdminUser }
  /** Answered as `wrong`: only the audit log tells a lock apart. */
  | { readonly kind: 'locked'; readonly user: AdminUser };

export interface SignInDeps {
  readonly store: AdminUserStore;
  readonly clock: Clock;
  /** Opens a sealed TOTP secret. */
  readonly unseal: (sealed: string) => string;
}

const isLocked = (user: AdminUser, now: Date): boolean => (user.lockedUntil?.getTime() ?? 0) > now.getTime();

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
  // checked even when locked: a locked account must take as long to answer as any other
  const matches = await verifyPassword(input.password, user.passwordHash);
  if (isLocked(user, clock.now())) return { kind: 'locked', user };
  if (!matches) {
    const until = await store.recordLoginFailure(user.id, clock.now(), LOCK_AFTER_FAILURES, LOCK_MS);
    return until !== null ? { kind: 'locked', user } : { kind: 'wrong', user };
  }
  if (user.disabledAt !== null) return { kind: 'wrong', user };
  if (user.totpSecret !== null) {
    if (input.totp === undefined) return { kind: 'totp-required', user };
    const step = checkTotp(deps.unseal(user.totpSecret), input.totp, clock.now(), user.totpStep ?? undefined);
    if (step === undefined) {
      // a wrong code counts like a wrong password: six digits must not be guessable at leisure
      const until = await store.recordLoginFailure(user.id, clock.now(), LOCK_AFTER_FAILURES, LOCK_MS);
      return until !== null ? { kind: 'locked', user } : { kind: 'totp-required', user };
    }
    await store.updateAdminUser(user.id, { totpStep: step });
  }
  if (user.failedLogins > 0 || user.lockedUntil !== null)
    await store.updateAdminUser(user.id, { failedLogins: 0, lockedUntil: null });
  return { kind: 'signed-in', user };
}
