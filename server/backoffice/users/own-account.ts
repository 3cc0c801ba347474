/**
 * A signed-in user's own account: changing the password (the current one first), starting a
 * second factor (the password and, replacing one, a current code: whoever finds a session left
 * open must not put their own authenticator in the owner's place) and confirming it with a code.
 * A wrong password or code counts as a wrong sign-in (the account locks after ten). Signing in and
 * out stay the admin API's (a session is that face's). Audited as `session.password`,
 * `session.totp-setup`, `session.totp-enabled`.
 */
import { passwordChangeInput, totpConfirmInput, totpStartInput } from '../../../shared/contract/admin-inputs';
import { hashPassword, verifyPassword } from '../../security/passwords';
import { checkTotp, newTotpSecret, otpauthUrl } from '../../security/totp';
import type { Vault } from '../../security/vault';
import type { AdminUser } from '../../storage/admin-users/store';
import type { BackofficeContext } from '../context';
import { type FieldError, invalid } from '../errors';
import { type AccountStore, passwordProblem, type UserView, userView } from './accounts';
import { LOCK_AFTER_FAILURES, LOCK_MS } from './sign-in';

type AccountContext = Omit<BackofficeContext, 'store'> & { readonly store: AccountStore };
/** Seals a new TOTP secret and opens the stored ones. */
export type TotpVault = Pick<Vault, 'encrypt' | 'decrypt'>;

// the bodies' schemas are the contract's: text fields as given, anything else no text (a wrong
// password, a wrong code)
const passwordChange = passwordChangeInput;
const totpStart = totpStartInput;
const totpConfirm = totpConfirmInput;

const wrong = (name: string, message: string): FieldError => ({ name, value: null, message });

/** A wrong password or code: counted as a wrong sign-in, then every field named. */
async function refuse(ctx: AccountContext, user: AdminUser, errors: FieldError[]): Promise<never> {
  await ctx.store.recordLoginFailure(user.id, ctx.clock.now(), LOCK_AFTER_FAILURES, LOCK_MS);
  throw invalid(errors);
}

/**
 * A new password, by the rules of password-rules.ts; every other session of the user ends (an old
 * password's), the one named by `keepSessionHash` stays.
 */
export async function changeOwnPassword(
  ctx: AccountContext,
  user: AdminUser,
  input: unknown,
  keepSessionHash: string | undefined,
): Promise<{ readonly user: UserView }> {
  const { currentPassword, newPassword } = passwordChange.parse(input);
  const problem = passwordProblem(newPassword, user.username);
  const current = currentPassword !== undefined && (await verifyPassword(currentPassword, user.passwordHash));
  const errors = [
    ...(current ? [] : [wrong('currentPassword', 'is not the current password')]),
    ...(problem === undefined ? [] : [wrong('newPassword', problem)]),
  ];
  // a wrong current password counts as a wrong sign-in: a left-open session must not guess at leisure
  if (!current) await refuse(ctx, user, errors);
  if (errors.length > 0) throw invalid(errors);
  await ctx.store.updateAdminUser(user.id, { passwordHash: await hashPassword(newPassword as string) });
  await ctx.store.deleteAdminSessions(user.id, keepSessionHash);
  await ctx.audit('session.password', user.id, user.merchantId);
  return { user: userView(user) };
}

/** A new TOTP secret, pending until confirmed: shown once, with its otpauth:// URL. */
export async function startOwnTotp(
  ctx: AccountContext,
  vault: TotpVault,
  user: AdminUser,
  input: unknown,
): Promise<{ readonly secret: string; readonly otpauthUrl: string }> {
  const { password, code } = totpStart.parse(input);
  const passwordOk = password !== undefined && (await verifyPassword(password, user.passwordHash));
  const codeOk =
    user.totpSecret === null ||
    (code !== undefined &&
      checkTotp(vault.decrypt(user.totpSecret), code, ctx.clock.now(), user.totpStep ?? undefined) !==
        undefined);
  if (!passwordOk || !codeOk)
    await refuse(ctx, user, [
      ...(passwordOk ? [] : [wrong('password', 'is not the current password')]),
      ...(codeOk ? [] : [wrong('code', 'is not the current code of the authenticator')]),
    ]);
  const secret = newTotpSecret();
  await ctx.store.updateAdminUser(user.id, { totpPending: vault.encrypt(secret) });
  await ctx.audit('session.totp-setup', user.id, user.merchantId);
  return { secret, otpauthUrl: otpauthUrl(secret, user.username) };
}

/** The pending secret made the second factor by a current code from it. */
export async function confirmOwnTotp(
  ctx: AccountContext,
  vault: TotpVault,
  user: AdminUser,
  input: unknown,
): Promise<{ readonly user: UserView }> {
  const { code } = totpConfirm.parse(input);
  const step =
    user.totpPending === null
      ? undefined
      : checkTotp(vault.decrypt(user.totpPending), code ?? '', ctx.clock.now());
  if (user.totpPending === null || step === undefined)
    throw invalid([
      wrong(
        'code',
        user.totpPending === null ? 'start with POST /admin/v1/session/totp' : 'is not the current code',
      ),
    ]);
  const change = { totpSecret: user.totpPending, totpPending: null, totpStep: step };
  await ctx.store.updateAdminUser(user.id, change);
  await ctx.audit('session.totp-enabled', user.id, user.merchantId);
  return { user: userView({ ...user, ...change }) };
}
