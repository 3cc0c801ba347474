/**
 * The admin API (`/admin/v1/…`, docs/admin-api.md): what the dashboard (`/admin/`) and an
 * operator's automation use. Who calls: the operator's bearer token (GATEWAY_ADMIN_TOKEN, acts
 * as operator) or a signed-in user's session with its CSRF token (middleware/admin-session);
 * each route names the access its role needs (middleware/admin-role), and another merchant's
 * things answer 404. Every action is written to the audit log. JSON in, the family's envelope out.
 * The dashboard's own files at /admin/ are public and served elsewhere: only /admin/v1/* is guarded.
 */
import type { Hono } from 'hono';
import type { GatewayEnv, RouteDeps } from '../../context';
import { adminSession } from '../../middleware/admin-session';
import { adminDocumentRoute } from '../docs';
import { backOfficeRoutes } from './back-office';
import { merchantRoutes } from './channels';
import { circuitRoutes } from './circuits';
import { clockRoutes } from './clock';
import { environmentRoutes } from './environment';
import { figureRoutes } from './figures';
import { inboxRoutes } from './inbox';
import { operationRoutes } from './operations';
import { paymentRoutes } from './payments';
import { recordRoutes } from './records';
import { requestGuard, secondFactorFirst } from './request-guard';
import { sessionRoutes } from './session';
import { type AdminDeps, adminKit } from './shared';
import { tokenRoutes } from './tokens';
import { userRoutes } from './users';
import { webhookRoutes } from './webhooks';

export type { AdminDeps } from './shared';
export { adminRouteTable } from './shared';

export function adminRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, admin: AdminDeps): void {
  // JSON only, none from another site, failed operator tokens audited: before who calls is known
  app.use('/admin/v1/*', requestGuard(deps));
  // sessions and TOTP codes on real time, never the test clock (AdminDeps.realTime)
  const accounts: RouteDeps = { ...deps, clock: admin.realTime ?? deps.clock };
  app.use('/admin/v1/*', adminSession(accounts, admin.token));
  app.use('/admin/v1/*', secondFactorFirst(deps, admin.requireTotp === true));
  const kit = adminKit(app, deps);
  sessionRoutes(accounts, admin, kit);
  merchantRoutes(deps, kit);
  circuitRoutes(deps, kit);
  webhookRoutes(deps, admin, kit);
  tokenRoutes(deps, kit);
  userRoutes(deps, kit);
  paymentRoutes(deps, kit);
  recordRoutes(deps, kit);
  figureRoutes(deps, kit);
  backOfficeRoutes(deps, kit);
  operationRoutes(deps, admin, kit);
  clockRoutes(deps, admin, kit);
  environmentRoutes(deps, admin, kit);
  inboxRoutes(deps, admin, kit);
  adminDocumentRoute(deps, kit);
}
