/**
 * The gateway's processors (the engine's Processor port, shared/engine/core/ports.ts): the simulators
 * of test mode INTERNAL, and per channel its connector (EXTERNAL, live) of its kind
 * (server/connectors/registry.ts), the opp kind over `connector`, its client.
 * shared/engine/core/processor.ts picks one per payment; no engine module imports a simulator.
 */
import type { Connector, Processors } from '../../shared/engine/core/ports';
import { connectorsOf } from '../connectors';
import { simulatorProcessor } from './simulator/processor';

/** Without a connector transport, EXTERNAL and live requests are refused (600.200.201). */
export function gatewayProcessors(connector: Connector | undefined): Processors {
  return {
    simulator: simulatorProcessor,
    connector: connector === undefined ? () => undefined : connectorsOf({ opp: connector }),
  };
}
