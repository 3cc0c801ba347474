/**
 * The dashboard's banner (`GET /admin/v1/environment`): which environment this address serves
 * (test or live) and, when the gateway runs on a test clock, where that clock is, so that every
 * date the dashboard shows is read in the gateway's time. Any signed-in role may read it: it is
 * what keeps a viewer from mistaking test money for live money.
 */
import { clockView } from '../../../backoffice/clock/moves';
import type { RouteDeps } from '../../context';
import type { AdminClockDeps } from './clock';
import type { AdminKit } from './shared';

export function environmentRoutes(deps: RouteDeps, admin: AdminClockDeps, kit: AdminKit): void {
  kit.route('GET', '/admin/v1/environment', 'read', (c) =>
    kit.env.send(c, 200, kit.ok, {
      environment: deps.environment,
      clock: admin.clock === undefined ? null : clockView(admin.clock),
    }),
  );
}
