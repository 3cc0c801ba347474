/**
 * The administration's user accounts: creating one (a password given, or generated and shown
 * once), disabling it, resetting its password. The admin API (routes/admin/users.ts), the CLI
 * (`gateway user …`) and the developer default's demo users all go through here, so the rules
 * are the same everywhere: usernames 3–64 of [A-Za-z0-9._@-], unique; operators belong to no
 * merchant, the others to exactly one that exists; passwords by password-rules.ts (12 characters
 * at least, not trivial, not common, not the username), stored as scrypt hashes
 * (server/security/passwords.ts).
 */
import * as z from 'zod';
import { newUserInput, USERNAME } from '../../../shared/contract/admin-inputs';
import { newId } from '../../../shared/engine/core/ids';
import type { Clock, MerchantDirectory } from '../../../shared/engine/core/ports';
import { generatePassword, hashPassword } from '../../security/passwords';
import {
  ADMIN_ROLES,
  type AdminRole,
  type AdminUser,
  type AdminUserStore,
} from '../../storage/admin-users/store';
import { checked, type FieldError } from '../errors';
import { passwordProblem } from './password-rules';

export { passwordProblem };

export type AccountStore = AdminUserStore & Pick<MerchantDirectory, 'getMerchant'>;

/** A new account's state: no second factor yet, no failed sign-ins, neither locked nor disabled. */
export const NEW_ACCOUNT = {
  totpSecret: null,
  totpPending: null,
  totpStep: null,
  failedLogins: 0,
  lockedUntil: null,
  disabledAt: null,
} as const satisfies Partial<AdminUser>;

export type { FieldError };

/** What is shown of a user: never the hash, the TOTP secret or the lock counters. */
export interface UserView {
  readonly id: string;
  readonly username: string;
  readonly role: AdminRole;
  readonly merchantId: string | null;
  readonly totpEnabled: boolean;
  readonly disabled: boolean;
  readonly createdAt: string;
}

export const userView = (u: AdminUser): UserView => ({
  id: u.id,
  username: u.username,
  role: u.role,
  merchantId: u.merchantId,
  totpEnabled: u.totpSecret !== null,
  disabled: u.disabledAt !== null,
  createdAt: u.createdAt.toISOString(),
});

export const isRole = (value: unknown): value is AdminRole =>
  typeof value === 'string' && (ADMIN_ROLES as readonly string[]).includes(value);

export interface NewUserInput {
  readonly username: unknown;
  readonly role: unknown;
  readonly merchantId?: unknown;
  readonly password?: unknown;
}

export type CreatedUser =
  | { readonly kind: 'created'; readonly user: AdminUser; readonly password?: string }
  | { readonly kind: 'invalid'; readonly errors: readonly FieldError[] };

const USERNAME_RULE = 'must be 3 to 64 of A-Z a-z 0-9 . _ @ -';
const FIELD_ORDER = Object.keys(newUserInput.shape);

/**
 * The contract's new user (`newUserInput`), each field's fault in the admin API's words; a
 * merchant for every role but operator, none for an operator; the password by password-rules.ts.
 * Whether the merchant exists and the username is free are the store's to say (createUser).
 */
const newUserBody = newUserInput
  .extend({
    username: z.string({ error: USERNAME_RULE }).regex(USERNAME, USERNAME_RULE),
    role: z.enum(ADMIN_ROLES, { error: `must be one of ${ADMIN_ROLES.join(', ')}` }),
    merchantId: z.unknown().optional(),
    password: z.unknown().optional(),
  })
  .superRefine(
    // said with the other fields' faults, from the body as given
    (
      body: {
        readonly role?: unknown;
        readonly merchantId?: unknown;
        readonly password?: unknown;
        readonly username?: unknown;
      },
      ctx,
    ) => {
      // null is no merchant id either: the contract's merchantId is text when given
      if (body.role === 'operator' && body.merchantId !== undefined)
        ctx.addIssue({ code: 'custom', path: ['merchantId'], message: 'an operator belongs to no merchant' });
      else if (isRole(body.role) && body.role !== 'operator' && typeof body.merchantId !== 'string')
        ctx.addIssue({ code: 'custom', path: ['merchantId'], message: NO_MERCHANT });
      const problem = body.password === undefined ? undefined : passwordProblem(body.password, body.username);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    },
    { when: () => true },
  );

const NO_MERCHANT = 'must name an existing merchant';

/** A value as a user's error shows it: as text; never a password. */
const shownAs = (error: FieldError, input: NewUserInput): FieldError => {
  if (error.name === 'password') return { ...error, value: null };
  const given = input[error.name as keyof NewUserInput];
  return { ...error, value: given === undefined || given === null ? null : String(given) };
};

/** Checks and creates a user; `password` is returned only when it was generated here. */
export async function createUser(
  store: AccountStore,
  clock: Clock,
  input: NewUserInput,
): Promise<CreatedUser> {
  const verdict = checked(newUserBody, input);
  const errors = verdict.ok ? [] : verdict.errors.map((e) => shownAs(e, input));
  const { role, merchantId } = input;
  if (
    isRole(role) &&
    role !== 'operator' &&
    typeof merchantId === 'string' &&
    (await store.getMerchant(merchantId)) === undefined
  )
    errors.push({ name: 'merchantId', value: merchantId, message: NO_MERCHANT });
  if (!verdict.ok || errors.length > 0) {
    const at = (e: FieldError) => FIELD_ORDER.indexOf(e.name);
    return { kind: 'invalid', errors: errors.sort((a, b) => at(a) - at(b)) };
  }
  const { username, password } = verdict.value as { username: string; password?: string };
  if ((await store.getAdminUserByUsername(username)) !== undefined)
    return { kind: 'invalid', errors: [{ name: 'username', value: username, message: 'is taken' }] };

  const generated = password === undefined ? generatePassword() : undefined;
  const user: AdminUser = {
    id: newId(),
    username,
    role: verdict.value.role,
    merchantId: verdict.value.role === 'operator' ? null : (merchantId as string),
    passwordHash: await hashPassword(password ?? generated!),
    ...NEW_ACCOUNT,
    createdAt: clock.now(),
  };
  if (!(await store.insertAdminUser(user)))
    return { kind: 'invalid', errors: [{ name: 'username', value: user.username, message: 'is taken' }] };
  return generated === undefined ? { kind: 'created', user } : { kind: 'created', user, password: generated };
}

/** Disables a user and ends their sessions; the user as it is now. */
export async function disableUser(store: AccountStore, clock: Clock, user: AdminUser): Promise<AdminUser> {
  const disabledAt = user.disabledAt ?? clock.now();
  await store.updateAdminUser(user.id, { disabledAt });
  await store.deleteAdminSessions(user.id);
  return { ...user, disabledAt };
}

/**
 * A new generated password (shown once), the lock lifted and every session ended: what an
 * operator or merchant admin does for a user who lost theirs.
 */
export async function resetPassword(
  store: AccountStore,
  user: AdminUser,
): Promise<{ user: AdminUser; password: string }> {
  const password = generatePassword();
  const change = { passwordHash: await hashPassword(password), failedLogins: 0, lockedUntil: null };
  await store.updateAdminUser(user.id, change);
  await store.deleteAdminSessions(user.id);
  return { user: { ...user, ...change }, password };
}

/**
 * Lifts a lock (and the count of wrong passwords) without touching the password: another operator
 * or the user's merchant admin, having confirmed who asks (PCI DSS 8.3.4), or the CLI.
 */
export async function unlockUser(store: AccountStore, user: AdminUser): Promise<AdminUser> {
  const change = { failedLogins: 0, lockedUntil: null };
  await store.updateAdminUser(user.id, change);
  return { ...user, ...change };
}
