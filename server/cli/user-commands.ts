/**
 * `gateway user …`: the administration's users from the command line, above all the first
 * operator of a production gateway (which creates none by itself). The rules are the admin API's
 * (server/backoffice/users/). A password is read from standard input when one is piped in, else
 * generated and printed once; only its scrypt hash is stored.
 */
import { type UserView, userView } from '../backoffice/users/accounts';
import * as users from '../backoffice/users/users';
import type { AdminUser } from '../storage/admin-users/store';
import { failure, translated } from './args';
import { backoffice, printJson, printList } from './commands';
import type { WebhookCommandContext } from './webhook-commands';

const PASSWORD_NOTICE = 'This password is shown only once: only a hash of it is stored. Keep it secret.';

export interface CreateUserInput {
  readonly username: string;
  readonly role: string;
  readonly merchantId?: string;
}

/** The user named, or the command fails. */
async function requireUser(ctx: WebhookCommandContext, username: string): Promise<AdminUser> {
  const user = await ctx.store.getAdminUserByUsername(username);
  if (user === undefined) throw failure(`unknown user ${username}`);
  return user;
}

function printPassword(ctx: WebhookCommandContext, view: UserView, password: string, verb: string): void {
  if (ctx.json) {
    printJson(ctx, { user: view, password });
    return;
  }
  ctx.output.err(
    `${verb} ${view.role} ${view.username}${view.merchantId === null ? '' : ` of merchant ${view.merchantId}`}.`,
  );
  ctx.output.err(PASSWORD_NOTICE);
  ctx.output.out(password);
}

export async function createAdminUser(ctx: WebhookCommandContext, input: CreateUserInput): Promise<UserView> {
  // a piped password: its first line, without the line end
  const piped = (await ctx.readStdin?.())?.split(/\r?\n/)[0];
  const password = piped === undefined || piped === '' ? undefined : piped;
  const created = await translated(() =>
    users.createAdminUser(users.contextOf(backoffice(ctx), ctx.store), {
      username: input.username,
      role: input.role,
      ...(input.merchantId === undefined ? {} : { merchantId: input.merchantId }),
      ...(password === undefined ? {} : { password }),
    }),
  );
  const view = created.user;
  if (created.password !== undefined) printPassword(ctx, view, created.password, 'Created');
  else if (ctx.json) printJson(ctx, { user: view });
  else ctx.output.out(view.id);
  return view;
}

export async function listAdminUsers(ctx: WebhookCommandContext, input: { readonly merchantId?: string }) {
  const users = (await ctx.store.listAdminUsers(input.merchantId)).map(userView);
  printList(ctx, users, ['USERNAME', 'ROLE', 'MERCHANT', 'TOTP', 'DISABLED', 'CREATED'], (u) => [
    u.username,
    u.role,
    u.merchantId ?? '-',
    u.totpEnabled ? 'yes' : 'no',
    u.disabled ? 'yes' : 'no',
    u.createdAt,
  ]);
  return users;
}

export async function disableAdminUser(ctx: WebhookCommandContext, input: { readonly username: string }) {
  const { user } = await users.disableAdminUser(
    users.contextOf(backoffice(ctx), ctx.store),
    await requireUser(ctx, input.username),
  );
  if (ctx.json) printJson(ctx, user);
  else ctx.output.out(`disabled ${user.username} (sessions ended)`);
  return user;
}

export async function resetAdminPassword(ctx: WebhookCommandContext, input: { readonly username: string }) {
  const reset = await users.resetAdminPassword(
    users.contextOf(backoffice(ctx), ctx.store),
    await requireUser(ctx, input.username),
  );
  printPassword(ctx, reset.user, reset.password ?? '', 'New password for');
  return reset.user;
}

/** Lifts the lock of ten failed sign-ins: how an operator locked out with every other gets back in. */
export async function unlockAdminUser(ctx: WebhookCommandContext, input: { readonly username: string }) {
  const { user } = await users.unlockAdminUser(
    users.contextOf(backoffice(ctx), ctx.store),
    await requireUser(ctx, input.username),
  );
  if (ctx.json) printJson(ctx, user);
  else ctx.output.out(`unlocked ${user.username}`);
  return user;
}
