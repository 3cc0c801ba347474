/**
 * What each role may do on the admin API, per route (server/backoffice/users/access.ts): `read`
 * (every role), `write` (operators and merchant admins: a viewer's state-changing request is 403),
 * `operator` (403 for the others).
 * A path naming a merchant (`:merchantId`) that is not the user's own answers 404 before any
 * role check: another merchant's existence is never told. Reads `c.var.admin` (admin-session).
 */
import type { MiddlewareHandler } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import { type Access, allowed } from '../../../backoffice/users/access';
import { mayActOn } from '../../../backoffice/users/principal';
import type { AdminEnv } from '../../context';
import type { Envelope } from '../envelope';

export { type Access, allowed };

export function adminRole(env: Envelope, access: Access): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const principal = c.var.admin;
    const merchantId = c.req.param('merchantId');
    if (merchantId !== undefined && !mayActOn(principal, merchantId))
      return env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: 'merchant not found' });
    if (!allowed(principal.role, access))
      return env.send(c, 403, {
        code: ResultCodes.INVALID_AUTH,
        description:
          access === 'operator' ? 'only an operator may do this' : `a ${principal.role} may only read`,
      });
    await next();
  };
}
