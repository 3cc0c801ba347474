/**
 * The connectors, as the composition root and the tests reach them: the kinds' registry and the
 * opp client (the gateway's default transport to another gateway of the family), routing's breaker.
 */

export { connectorClients } from './clients';
export { type ForwardOptions, oppClient } from './opp/client';
export { CONNECTOR_KINDS, type ConnectorClients, connectorsOf, contractOf, kindOf } from './registry';
export { type Breaker, type ConnectorState, circuitBreaker } from './routing/breaker';
export type { AttemptLog } from './routing/router';
