/**
 * `gateway_connector_state{kind,channel,route}`: each routed connector's circuit (server/connectors/
 * routing/breaker.ts), read at each scrape on the gateway's clock: 0 closed (in use), 1 open
 * (skipped for its cool-down after repeated failures), 2 half-open (tried again). Bounded labels:
 * a kind, a channel's entityId (an operator's configuration, not a payment's), the route's place.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../../shared/engine/core/ports';
import type { Breaker, ConnectorState } from '../connectors';

const VALUES: Readonly<Record<ConnectorState['state'], number>> = { closed: 0, open: 1, 'half-open': 2 };

export function connectorStateMetric(
  registry: Registry,
  breaker: Pick<Breaker, 'states'>,
  clock: Clock,
): Gauge {
  return new Gauge({
    name: 'gateway_connector_state',
    help: 'A routed connector’s circuit: 0 closed (in use), 1 open (skipped for its cool-down), 2 half-open (tried again)',
    labelNames: ['kind', 'channel', 'route'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of breaker.states(clock.now()))
        this.set({ kind: s.kind, channel: s.channel, route: String(s.route) }, VALUES[s.state]);
    },
  });
}
