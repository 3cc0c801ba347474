/**
 * Who calls the admin API (`/admin/v1/*`): the operator's bearer token (automation; the operator
 * middleware checks it, wrong tokens throttled per address), or a dashboard session (the
 * `gw_admin` cookie, server/backoffice/users/sessions.ts) whose state-changing requests must carry the
 * session's `X-CSRF-Token` (403 otherwise: a page on another site cannot read it). Sets
 * `c.var.admin`; 401 without either. Signing in (POST /admin/v1/session) passes through: it is
 * how a session starts.
 */
import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../../../../shared/engine/core/ports';
import { ResultCodes } from '../../../../shared/result-codes';
import { OPERATOR_TOKEN } from '../../../backoffice/users/principal';
import { csrfMatches, readSession, sessionSecretIn } from '../../../backoffice/users/sessions';
import type { AdminUserStore } from '../../../storage/admin-users/store';
import type { AdminEnv } from '../../context';
import { type OperatorDeps, operatorToken } from '../operator';

export interface AdminSessionDeps extends OperatorDeps {
  readonly store: AdminUserStore;
  readonly clock: Clock;
}

export const SIGN_IN_PATH = '/admin/v1/session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function adminSession(deps: AdminSessionDeps, token: string | undefined): MiddlewareHandler<AdminEnv> {
  const { env } = deps;
  const bearer = operatorToken(deps, token);
  return async (c, next) => {
    if (c.req.method === 'POST' && c.req.path === SIGN_IN_PATH) return next();
    if (c.req.header('authorization') !== undefined)
      return bearer(c, async () => {
        c.set('admin', OPERATOR_TOKEN);
        await next();
      });
    const secret = sessionSecretIn(c.req.header('cookie'));
    const found = secret === undefined ? undefined : await readSession(deps.store, deps.clock, secret);
    if (secret === undefined || found === undefined)
      return env.send(c, 401, {
        code: ResultCodes.INVALID_AUTH,
        description: 'not signed in: POST /admin/v1/session, or send the operator’s token',
      });
    if (!SAFE_METHODS.has(c.req.method) && !csrfMatches(secret, c.req.header('x-csrf-token')))
      return env.send(c, 403, {
        code: ResultCodes.INVALID_AUTH,
        description: 'missing or wrong X-CSRF-Token (from the sign-in answer or GET /admin/v1/session)',
      });
    const { user } = found;
    c.set('admin', {
      kind: 'session',
      role: user.role,
      merchantId: user.merchantId,
      userId: user.id,
      actor: user.username,
    });
    await next();
  };
}
