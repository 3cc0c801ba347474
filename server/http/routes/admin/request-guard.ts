/**
 * What every admin request passes before who sends it is looked at (routes/admin/index.ts):
 *
 * - A state-changing request (sign-in included) is JSON: a body of any other type is 415. A page
 *   on another site can send `text/plain`, a form or multipart without asking, but
 *   `application/json` only after a CORS preflight the gateway never grants, so no other site can
 *   sign a browser into an account of its choosing (login CSRF) or post with its cookie.
 * - Where the browser says where a request comes from (`Origin`, `Sec-Fetch-Site`), another site's
 *   is refused (403) on state-changing requests. Clients that send neither (curl, the CLI) pass.
 * - Failed attempts with the operator's token are audited, bounded (backoffice/audit/audit.ts).
 * - With a second factor required (AdminDeps.requireTotp), a signed-in user without one may only
 *   read their session, set the factor up, or sign out (`secondFactorFirst`).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import { failedTokenAudit } from '../../../backoffice/audit/audit';
import type { AdminEnv, RouteDeps } from '../../context';
import { SIGN_IN_PATH } from '../../middleware/admin-session';
import { clientAddress } from '../../middleware/transport';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a browser says of a request made by the admin's own pages, or typed in: nothing else. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

const isJson = (type: string): boolean => /^application\/json\s*(;|$)/i.test(type.trim());

/** Whether the request names another site as its origin. */
function fromAnotherSite(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && !OWN_FETCH_SITES.has(site.toLowerCase())) return true;
  const origin = c.req.header('origin');
  if (origin === undefined) return false;
  if (origin === 'null') return true;
  try {
    // the host as the client addressed it: behind a proxy, the Host header it forwards
    return new URL(origin).host !== (c.req.header('host') ?? new URL(c.req.url).host);
  } catch {
    return true;
  }
}

export function requestGuard(deps: RouteDeps): MiddlewareHandler {
  const { env } = deps;
  const tokenFailures = failedTokenAudit(deps.store, deps.clock);
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const type = c.req.header('content-type');
      const hasBody =
        (c.req.header('content-length') ?? '0') !== '0' || c.req.header('transfer-encoding') !== undefined;
      if ((type !== undefined && !isJson(type)) || (type === undefined && hasBody))
        return env.send(c, 415, {
          code: ResultCodes.INVALID_PARAMETER,
          description: 'the body must be application/json',
        });
      if (fromAnotherSite(c))
        return env.send(c, 403, {
          code: ResultCodes.INVALID_AUTH,
          description: 'a request from another site (Origin, Sec-Fetch-Site)',
        });
    }
    await next();
    const tokenRefused =
      c.req.header('authorization') !== undefined &&
      !(c.req.method === 'POST' && c.req.path === SIGN_IN_PATH) &&
      (c.res.status === 401 || c.res.status === 429);
    if (tokenRefused) await tokenFailures.failed(clientAddress(c, deps.trustProxy));
  };
}

/** Paths a user who must set up a second factor may still use. */
const SETUP_PATHS = new Set([
  'GET /admin/v1/session',
  'DELETE /admin/v1/session',
  'POST /admin/v1/session/totp',
  'POST /admin/v1/session/totp/confirm',
]);

/**
 * After the session is known: a user without a second factor, where one is required, is answered
 * 403 everywhere but the set-up (the dashboard shows the set-up first).
 */
export function secondFactorFirst(deps: RouteDeps, required: boolean): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const userId = c.var.admin?.userId;
    if (!required || userId == null || SETUP_PATHS.has(`${c.req.method} ${c.req.path}`)) return next();
    const user = await deps.store.getAdminUser(userId);
    if (user !== undefined && user.totpSecret === null)
      return deps.env.send(c, 403, {
        code: ResultCodes.INVALID_AUTH,
        description: 'set up the second factor first: POST /admin/v1/session/totp',
      });
    return next();
  };
}
