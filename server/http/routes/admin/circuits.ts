/**
 * The circuit breaker's state of each of a channel's routes (`GET
 * /admin/v1/channels/{entityId}/circuits`, server/connectors/routing/breaker.ts), for the
 * dashboard's channel page: closed (in use), open (skipped for its cool-down after failing),
 * half-open (tried again). A route the breaker has not seen fail is closed. One breaker per
 * gateway, on its clock; the same states as the connector-state metric.
 */
import type { Breaker, CircuitState } from '../../../connectors/routing/breaker';
import type { RouteDeps } from '../../context';
import { channelFor } from './channels';
import type { AdminKit } from './shared';

/** The gateway's processors carry the breaker (server/processors); a test's own may not. */
const breakerOf = (processors: unknown): Pick<Breaker, 'states'> | undefined =>
  typeof processors === 'object' && processors !== null && 'breaker' in processors
    ? (processors as { breaker: Pick<Breaker, 'states'> }).breaker
    : undefined;

export function circuitRoutes(deps: RouteDeps, kit: AdminKit): void {
  kit.route('GET', '/admin/v1/channels/:entityId/circuits', 'read', async (c) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return kit.notFound(c, 'channel');
    const states = (breakerOf(deps.processors)?.states(deps.clock.now()) ?? []).filter(
      (s) => s.channel === channel.id,
    );
    const circuits = (channel.settings.routes ?? []).map((route, i) => {
      const kind = route.connector.kind ?? 'opp';
      const state: CircuitState = states.find((s) => s.route === i && s.kind === kind)?.state ?? 'closed';
      return { route: i, kind, state };
    });
    return kit.env.send(c, 200, kit.ok, { circuits });
  });
}
