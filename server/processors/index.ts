/**
 * The gateway's processors (the engine's Processor port, shared/engine/core/ports.ts): the simulators
 * of test mode INTERNAL, and per channel its connector (EXTERNAL, live) of its kind
 * (server/connectors/registry.ts), the opp kind over `connector`, its client.
 * shared/engine/core/processor.ts picks one per payment; no engine module imports a simulator.
 */
import type { Connector, Processors } from '../../shared/engine/core/ports';
import { type ConnectorClients, connectorsOf } from '../connectors';
import { simulatorProcessor } from './simulator/processor';

/**
 * Without a connector transport, EXTERNAL and live requests are refused (600.200.201). `fetch` is
 * the egress-guarded fetch the other kinds' clients (Adyen's, Stripe's SDK) send through.
 */
export function gatewayProcessors(
  connector: Connector | undefined,
  fetch: ConnectorClients['fetch'] = (url, init) => globalThis.fetch(url, init),
): Processors {
  return {
    simulator: simulatorProcessor,
    connector: connector === undefined ? () => undefined : connectorsOf({ opp: connector, fetch }),
  };
}
