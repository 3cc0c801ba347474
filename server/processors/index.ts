/**
 * The gateway's processors (the engine's Processor port, shared/engine/core/ports.ts): the simulators
 * of test mode INTERNAL, and per channel its connector (EXTERNAL, live) of its kind
 * (server/connectors/registry.ts), the opp kind over `connector`, its client.
 * shared/engine/core/processor.ts picks one per payment; no engine module imports a simulator.
 */

import type { ConnectorSettings } from '../../shared/engine/core/model';
import type { Connector, Processors } from '../../shared/engine/core/ports';
import { type Breaker, type ConnectorClients, circuitBreaker, connectorsOf, contractOf } from '../connectors';
import type { ConnectorContract } from '../connectors/kit/contract';
import { binInfo } from './simulator/bin-table';
import { simulatorProcessor } from './simulator/processor';

/**
 * The processors, the routing breaker behind them (its states: the connector-state metric) and a
 * channel's connector as its kind's contract (the processors' notification route verifies with it).
 */
export type GatewayProcessors = Processors & {
  readonly breaker: Breaker;
  readonly contractOf: (connector: ConnectorSettings) => ConnectorContract | undefined;
};

/**
 * Without a connector transport, EXTERNAL and live requests are refused (600.200.201). `fetch` is
 * the egress-guarded fetch the other kinds' clients (Adyen's, Stripe's SDK) send through. A
 * channel's routes are told the card's country by the gateway's BIN table.
 */
export function gatewayProcessors(
  connector: Connector | undefined,
  fetch: ConnectorClients['fetch'] = (url, init) => globalThis.fetch(url, init),
): GatewayProcessors {
  const breaker = circuitBreaker();
  return {
    simulator: simulatorProcessor,
    connector:
      connector === undefined
        ? () => undefined
        : connectorsOf({ opp: connector, fetch }, { breaker, binInfo }),
    breaker,
    contractOf: (settings) =>
      connector === undefined ? undefined : contractOf({ opp: connector, fetch }, settings),
  };
}
