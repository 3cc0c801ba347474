/**
 * The dashboard's session (`/admin/v1/session`): sign in with username, password and, once set
 * up, a TOTP code; read it (the user and the CSRF token); sign out; change one's password; set
 * up the second factor (a secret, active once a code from it is confirmed; replacing one takes
 * the password and a current code). Wrong passwords lock the account after ten
 * (server/backoffice/users/sign-in.ts), answered like any wrong password, and are slowed per client address
 * (server/security/auth-failures.ts, `admin-login:<address>`) and per address and username
 * (`SIGN_IN_DELAY`), the same for a username that exists and one that does not.
 */
import type { Context } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import { userView } from '../../../backoffice/users/accounts';
import { changeOwnPassword, confirmOwnTotp, startOwnTotp } from '../../../backoffice/users/own-account';
import {
  csrfTokenOf,
  openSession,
  sessionCookie,
  sessionHash,
  sessionSecretIn,
} from '../../../backoffice/users/sessions';
import { type SignIn, signIn } from '../../../backoffice/users/sign-in';
import { contextOf } from '../../../backoffice/users/users';
import { addressKey, authKeys, createAuthFailures } from '../../../security/auth-failures';
import type { AdminUser } from '../../../storage/admin-users/store';
import type { RouteDeps } from '../../context';
import { tooManyFailedAttempts } from '../../middleware/credentials';
import { clientAddress, isHttps } from '../../middleware/transport';
import type { AdminContext, AdminDeps, AdminKit } from './shared';

const text = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));

/**
 * Wrong sign-ins one address may make at one username, known or not: five, then one every three
 * minutes. Another address (the real user's) is not slowed by them.
 */
export const SIGN_IN_DELAY = { limit: 5, windowMs: 15 * 60_000 } as const;

export function sessionRoutes(deps: RouteDeps, admin: AdminDeps, kit: AdminKit): void {
  const { env, ok, body, audit, route, act } = kit;
  const { store } = deps;
  const vault = admin.vault;
  const unseal = (sealed: string) => {
    if (vault.decrypt === undefined) throw new Error('the admin API needs the vault’s decrypt for TOTP');
    return vault.decrypt(sealed);
  };
  const secure = (c: Context) => isHttps(c, { tls: deps.tls ?? false, trustProxy: deps.trustProxy });
  const signedInUser = async (c: AdminContext): Promise<AdminUser | undefined> =>
    c.var.admin.userId === null ? undefined : store.getAdminUser(c.var.admin.userId);
  const noUser = (c: Context) =>
    env.send(c, 400, {
      code: ResultCodes.INVALID_PARAMETER,
      description: 'the operator’s token has no session',
    });

  signInRoute(deps, admin, kit, { unseal, secure });
  totpRoutes(deps, admin, kit, { unseal, signedInUser, noUser });

  route('GET', '/admin/v1/session', 'read', async (c) => {
    const user = await signedInUser(c);
    const secret = sessionSecretIn(c.req.header('cookie'));
    if (user === undefined || secret === undefined) return noUser(c);
    return env.send(c, 200, ok, {
      user: userView(user),
      csrfToken: csrfTokenOf(secret),
      ...setupOf(admin, user),
    });
  });

  route('DELETE', '/admin/v1/session', 'read', async (c) => {
    const secret = sessionSecretIn(c.req.header('cookie'));
    if (c.var.admin.userId === null || secret === undefined) return noUser(c);
    await store.deleteAdminSession(sessionHash(secret));
    c.header('Set-Cookie', sessionCookie(undefined, secure(c)));
    await audit(c, 'session.sign-out', c.var.admin.userId, c.var.admin.merchantId);
    return env.send(c, 200, ok);
  });

  route('POST', '/admin/v1/session/password', 'read', async (c) => {
    const user = await signedInUser(c);
    if (user === undefined) return noUser(c);
    const input = await body(c);
    if (input instanceof Response) return input;
    // whoever else held a session (an old password's) is signed out; this one stays
    const secret = sessionSecretIn(c.req.header('cookie'));
    return act(c, async (ctx) =>
      env.send(
        c,
        200,
        ok,
        await changeOwnPassword(
          { ...contextOf(ctx, store), clock: deps.clock },
          user,
          input,
          secret === undefined ? undefined : sessionHash(secret),
        ),
      ),
    );
  });
}

/** `totpSetupRequired` when a second factor is required and the user has none yet. */
const setupOf = (admin: AdminDeps, user: AdminUser) =>
  admin.requireTotp === true && user.totpSecret === null ? { totpSetupRequired: true } : {};

interface SessionHelpers {
  readonly unseal: (sealed: string) => string;
  readonly secure: (c: Context) => boolean;
}

/** A known account's failed sign-in is told to its admins (unknown names are only throttled). */
async function auditFailure(kit: AdminKit, c: Context, outcome: Exclude<SignIn, { kind: 'signed-in' }>) {
  const tried = outcome.user;
  if (tried === undefined) return;
  c.set('admin', {
    kind: 'session',
    role: tried.role,
    merchantId: tried.merchantId,
    userId: tried.id,
    actor: tried.username,
  });
  const action = outcome.kind === 'locked' ? 'session.sign-in-locked' : 'session.sign-in-failed';
  await kit.audit(c as AdminContext, action, tried.id, tried.merchantId);
}

function signInRoute(deps: RouteDeps, admin: AdminDeps, kit: AdminKit, helpers: SessionHelpers): void {
  const { env, ok, invalid, body, audit, publicRoute } = kit;
  const { store, clock } = deps;
  const { unseal, secure } = helpers;
  const perAccount = createAuthFailures(SIGN_IN_DELAY);
  publicRoute('POST', '/admin/v1/session', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    const { username, password, totp } = input;
    const errors = [
      ...(typeof username === 'string' && username !== ''
        ? []
        : [{ name: 'username', value: text(username), message: 'is required' }]),
      ...(typeof password === 'string' && password !== ''
        ? []
        : [{ name: 'password', value: null, message: 'is required' }]),
      ...(totp === undefined || typeof totp === 'string'
        ? []
        : [{ name: 'totp', value: null, message: 'must be a string' }]),
    ];
    if (errors.length > 0) return invalid(c, errors);
    const address = clientAddress(c, deps.trustProxy);
    const keys = authKeys(address, 'admin-login');
    // by the name asked for, whether it exists or not: the delay is no oracle
    const accountKeys =
      address === undefined
        ? []
        : [`${addressKey(address)}|${(username as string).toLowerCase().slice(0, 64)}`];
    const blocked = deps.authFailures.check(keys);
    const delayed = perAccount.check(accountKeys);
    if (!blocked.ok) return tooManyFailedAttempts(env, c, blocked.retryAfterSeconds);
    if (!delayed.ok) return tooManyFailedAttempts(env, c, delayed.retryAfterSeconds);
    const outcome = await signIn(
      { store, clock, unseal },
      {
        username: username as string,
        password: password as string,
        ...(typeof totp === 'string' ? { totp } : {}),
      },
    );
    if (outcome.kind !== 'signed-in') {
      // the first step of a two-step sign-in (the right password, no code yet) guesses nothing
      if (!(outcome.kind === 'totp-required' && typeof totp !== 'string')) {
        deps.authFailures.fail(keys);
        perAccount.fail(accountKeys);
      }
      await auditFailure(kit, c, outcome);
    }
    switch (outcome.kind) {
      case 'locked':
      case 'wrong':
        return env.send(c, 401, {
          code: ResultCodes.INVALID_AUTH,
          description: 'wrong username or password',
        });
      case 'totp-required':
        return env.send(
          c,
          401,
          {
            code: ResultCodes.INVALID_AUTH,
            description: 'a valid code of the authenticator app is needed (totp)',
          },
          { totpRequired: true },
        );
      case 'signed-in': {
        const { secret, csrfToken } = await openSession(store, clock, outcome.user, address);
        c.header('Set-Cookie', sessionCookie(secret, secure(c)));
        c.set('admin', {
          kind: 'session',
          role: outcome.user.role,
          merchantId: outcome.user.merchantId,
          userId: outcome.user.id,
          actor: outcome.user.username,
        });
        await audit(c, 'session.sign-in', outcome.user.id, outcome.user.merchantId);
        return env.send(c, 200, ok, {
          user: userView(outcome.user),
          csrfToken,
          ...setupOf(admin, outcome.user),
        });
      }
    }
  });
}

function totpRoutes(
  deps: RouteDeps,
  admin: AdminDeps,
  kit: AdminKit,
  helpers: Pick<SessionHelpers, 'unseal'> & {
    readonly signedInUser: (c: AdminContext) => Promise<AdminUser | undefined>;
    readonly noUser: (c: Context) => Response;
  },
): void {
  const { env, ok, body, route, act } = kit;
  const { store } = deps;
  const { unseal, signedInUser, noUser } = helpers;
  // the back office's TOTP procedures seal new secrets and open stored ones (backoffice/users/own-account.ts)
  const totpVault = { encrypt: (secret: string) => admin.vault.encrypt(secret), decrypt: unseal };
  route('POST', '/admin/v1/session/totp', 'read', async (c) => {
    const user = await signedInUser(c);
    if (user === undefined) return noUser(c);
    const input = await body(c);
    if (input instanceof Response) return input;
    return act(c, async (ctx) =>
      env.send(
        c,
        200,
        ok,
        await startOwnTotp({ ...contextOf(ctx, store), clock: deps.clock }, totpVault, user, input),
      ),
    );
  });

  route('POST', '/admin/v1/session/totp/confirm', 'read', async (c) => {
    const user = await signedInUser(c);
    if (user === undefined) return noUser(c);
    const input = await body(c);
    if (input instanceof Response) return input;
    return act(c, async (ctx) =>
      env.send(
        c,
        200,
        ok,
        await confirmOwnTotp({ ...contextOf(ctx, store), clock: deps.clock }, totpVault, user, input),
      ),
    );
  });
}
