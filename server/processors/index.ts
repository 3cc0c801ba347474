/**
 * The gateway's processors (the engine's Processor port, shared/engine/core/ports.ts): the simulators
 * of test mode INTERNAL, and per channel its connector (EXTERNAL, live) of its kind
 * (server/connectors/registry.ts), the opp kind over `connector`, its client.
 * shared/engine/core/processor.ts picks one per payment; no engine module imports a simulator.
 */

import type { ConnectorSettings } from '../../shared/engine/core/model';
import type { Connector, Processors } from '../../shared/engine/core/ports';
import {
  type AttemptLog,
  type Breaker,
  type ConnectorClients,
  circuitBreaker,
  connectorsOf,
  contractOf,
} from '../connectors';
import type { ConnectorContract } from '../connectors/kit/contract';
import { binInfo } from './simulator/bin-table';
import { simulatorProcessor } from './simulator/processor';

/**
 * The processors, the routing breaker behind them (its states: the connector-state metric) and a
 * channel's connector as its kind's contract (the processors' notification route verifies with it).
 */
export type GatewayProcessors = Processors & {
  readonly breaker: Breaker;
  /** Where routed payments record their connector attempts: the store, opened after the processors. */
  readonly recordAttemptsIn: (log: AttemptLog) => void;
  /** How routed repeats open a stored card's sealed number (the vault's decrypt), for another connector. */
  readonly openCardsWith: (open: (sealed: string) => string) => void;
  readonly contractOf: (connector: ConnectorSettings) => ConnectorContract | undefined;
};

/**
 * Without a connector transport, EXTERNAL and live requests are refused (600.200.201). `fetch` is
 * the egress-guarded fetch the other kinds' clients (Adyen's, Stripe's SDK) send through. A
 * channel's routes are told the card's country by the gateway's BIN table, and record each
 * payment's attempts in the log given to `recordAttemptsIn` (none recorded before it is given).
 */
export function gatewayProcessors(
  connector: Connector | undefined,
  fetch: ConnectorClients['fetch'] = (url, init) => globalThis.fetch(url, init),
  timeoutMs?: number,
): GatewayProcessors {
  const breaker = circuitBreaker();
  let log: AttemptLog | undefined;
  const attempts: AttemptLog = {
    recordConnectorAttempts: async (id, made) => log?.recordConnectorAttempts(id, made),
    connectorAttemptsOf: async (id) => (log === undefined ? [] : log.connectorAttemptsOf(id)),
  };
  let opener: ((sealed: string) => string) | undefined;
  const openCard = (sealed: string): string => {
    if (opener === undefined) throw new Error('no vault to open a stored card with (openCardsWith)');
    return opener(sealed);
  };
  return {
    simulator: simulatorProcessor,
    connector:
      connector === undefined
        ? () => undefined
        : connectorsOf(
            { opp: connector, fetch, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
            { breaker, binInfo, attempts, openCard: (sealed) => openCard(sealed) },
          ),
    breaker,
    recordAttemptsIn: (given) => {
      log = given;
    },
    openCardsWith: (open) => {
      opener = open;
    },
    contractOf: (settings) =>
      connector === undefined ? undefined : contractOf({ opp: connector, fetch }, settings),
  };
}
