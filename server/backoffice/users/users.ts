/**
 * The administration's users as the back office changes them, each change audited: created (the
 * rules of accounts.ts: a username's format and uniqueness, a role, a merchant for non-operators,
 * a password's strength; one generated when none is given), disabled (their sessions ended), a new
 * password generated, unlocked. Who may change whom is the face's to decide first (the admin API's
 * merchant scope; the CLI acts as operator).
 */
import type { AdminUser } from '../../storage/admin-users/store';
import type { BackofficeContext } from '../context';
import { invalid } from '../errors';
import {
  type AccountStore,
  createUser,
  disableUser,
  type NewUserInput,
  resetPassword,
  type UserView,
  unlockUser,
  userView,
} from './accounts';

type UsersContext = Omit<BackofficeContext, 'store'> & { readonly store: AccountStore };

/** A face's context on a store that keeps the administration's users too. */
export const contextOf = (ctx: BackofficeContext, store: AccountStore): UsersContext => ({ ...ctx, store });

export interface UserAnswer {
  readonly user: UserView;
  /** Shown once: a generated password. */
  readonly password?: string;
}

export async function createAdminUser(ctx: UsersContext, input: NewUserInput): Promise<UserAnswer> {
  const created = await createUser(ctx.store, ctx.clock, input);
  if (created.kind === 'invalid') throw invalid(created.errors);
  await ctx.audit('user.create', created.user.id, created.user.merchantId);
  const user = userView(created.user);
  return created.password === undefined ? { user } : { user, password: created.password };
}

export async function disableAdminUser(ctx: UsersContext, user: AdminUser): Promise<UserAnswer> {
  const disabled = await disableUser(ctx.store, ctx.clock, user);
  await ctx.audit('user.disable', user.id, user.merchantId);
  return { user: userView(disabled) };
}

export async function resetAdminPassword(ctx: UsersContext, user: AdminUser): Promise<UserAnswer> {
  const reset = await resetPassword(ctx.store, user);
  await ctx.audit('user.reset-password', user.id, user.merchantId);
  return { user: userView(reset.user), password: reset.password };
}

export async function unlockAdminUser(ctx: UsersContext, user: AdminUser): Promise<UserAnswer> {
  const unlocked = await unlockUser(ctx.store, user);
  await ctx.audit('user.unlock', user.id, user.merchantId);
  return { user: userView(unlocked) };
}
