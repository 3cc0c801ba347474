/**
 * The gateway's processors (the engine's Processor port, shared/engine/core/ports.ts): the simulators
 * of test mode INTERNAL, and per channel its connector (EXTERNAL, live) over one transport.
 * shared/engine/core/processor.ts picks one per payment; no engine module imports a simulator.
 */
import type { Connector, Processors } from '../../shared/engine/core/ports';
import { connectorsOf } from '../connectors/opp-forward';
import { simulatorProcessor } from './simulator/processor';

/** Without a connector transport, EXTERNAL and live requests are refused (600.200.201). */
export function gatewayProcessors(connector: Connector | undefined): Processors {
  return {
    simulator: simulatorProcessor,
    connector: connector === undefined ? () => undefined : connectorsOf(connector),
  };
}
