/**
 * The administration's users (`/admin/v1/users`) and the audit log (`/admin/v1/audit`).
 * Operators see and manage everyone; a merchant admin their merchant's users (never operators,
 * never another merchant's: 404); a viewer reads their merchant's list. Passwords are generated
 * when not given and shown once; a locked account is unlocked here by whoever may manage it.
 */
import { auditPage, readAuditQuery } from '../../../backoffice/audit/log-query';
import { userView } from '../../../backoffice/users/accounts';
import { mayActOn } from '../../../backoffice/users/principal';
import * as users from '../../../backoffice/users/users';
import type { AdminUser } from '../../../storage/admin-users/store';
import type { RouteDeps } from '../../context';
import { type AdminContext, type AdminKit, param } from './shared';

export function userRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, forbidden, body, route, act } = kit;
  const { store } = deps;

  route('GET', '/admin/v1/users', 'read', async (c) => {
    const own = c.var.admin.merchantId;
    const asked = c.req.query('merchantId');
    const listed = await store.listAdminUsers(own ?? asked);
    return env.send(c, 200, ok, { users: listed.map(userView) });
  });

  route('POST', '/admin/v1/users', 'write', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    const own = c.var.admin.merchantId;
    if (own !== null && input.role === 'operator')
      return forbidden(c, 'only an operator may create operators');
    if (own !== null && input.merchantId !== undefined && input.merchantId !== own)
      return notFound(c, 'merchant');
    return act(c, async (ctx) => {
      const created = await users.createAdminUser(users.contextOf(ctx, store), {
        username: input.username,
        role: input.role,
        password: input.password,
        merchantId: own ?? input.merchantId,
      });
      return env.send(c, 201, ok, created);
    });
  });

  /** The path's user, when the principal may manage them (another merchant's: undefined, 404). */
  const userOf = async (c: AdminContext): Promise<AdminUser | undefined> => {
    const user = await store.getAdminUser(param(c, 'id'));
    if (user === undefined) return undefined;
    if (c.var.admin.merchantId === null) return user;
    return user.merchantId !== null && mayActOn(c.var.admin, user.merchantId) ? user : undefined;
  };

  route('POST', '/admin/v1/users/:id/disable', 'write', async (c) => {
    const user = await userOf(c);
    if (user === undefined) return notFound(c, 'user');
    return act(c, async (ctx) =>
      env.send(c, 200, ok, await users.disableAdminUser(users.contextOf(ctx, store), user)),
    );
  });

  route('POST', '/admin/v1/users/:id/reset-password', 'write', async (c) => {
    const user = await userOf(c);
    if (user === undefined) return notFound(c, 'user');
    return act(c, async (ctx) =>
      env.send(c, 200, ok, await users.resetAdminPassword(users.contextOf(ctx, store), user)),
    );
  });

  // a lock lasts until it ends or until someone who may manage the user lifts it (PCI DSS 8.3.4)
  route('POST', '/admin/v1/users/:id/unlock', 'write', async (c) => {
    const user = await userOf(c);
    if (user === undefined) return notFound(c, 'user');
    return act(c, async (ctx) =>
      env.send(c, 200, ok, await users.unlockAdminUser(users.contextOf(ctx, store), user)),
    );
  });

  route('GET', '/admin/v1/audit', 'write', async (c) => {
    const asked = readAuditQuery((name) => c.req.query(name));
    if (Array.isArray(asked)) return invalid(c, asked);
    const own = c.var.admin.merchantId;
    const page = await auditPage(store, { ...asked, ...(own === null ? {} : { merchantId: own }) });
    return env.send(c, 200, ok, { ...page });
  });
}
