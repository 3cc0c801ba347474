/**
 * The connectors, as the composition root and the tests reach them: the kinds' registry and the
 * opp client (the gateway's default transport to another gateway of the family).
 */

export { type ForwardOptions, oppClient } from './opp/client';
export { CONNECTOR_KINDS, type ConnectorClients, connectorsOf } from './registry';
