/**
 * The connector kinds, by the name a channel's settings give (`gateway channel set ENTITY
 * --connector KIND`): each kind builds its ConnectorContract (kit/contract.ts) from the channel's
 * credentials over its client. A channel's connector settings without a kind are `opp`, the only
 * kind stored before kinds existed. A new kind: its folder `server/connectors/<kind>/` (request
 * and response transformers, client, connector.ts), a row here, and its scenario suite test.
 */
import type {
  AnyConnectorTarget,
  Connector,
  ConnectorTarget,
  Processors,
} from '../../shared/engine/core/ports';
import type { ConnectorContract } from './kit/contract';
import { connectorProcessor } from './kit/processor';
import { oppConnector } from './opp/connector';

/** The clients the gateway has, one per kind (the opp client is the engine's Connector port). */
export interface ConnectorClients {
  readonly opp: Connector;
  /** The egress-guarded fetch (server/security/egress.ts) every other kind's client sends through. */
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** The kinds with a connector here (each of ConnectorSettings' kinds once its folder exists). */
export type ConnectorKind = Extract<NonNullable<AnyConnectorTarget['kind']>, 'opp'>;

/** Every kind's connector of a channel's credentials. */
export const CONNECTOR_KINDS: {
  readonly [K in ConnectorKind]: (
    clients: ConnectorClients,
    target: Extract<AnyConnectorTarget, { kind?: K }>,
  ) => ConnectorContract;
} = {
  opp: (clients, target: ConnectorTarget) => oppConnector(clients.opp, target),
};

/** The kind a channel's connector settings name; `opp` when they name none. */
export function kindOf(target: AnyConnectorTarget): ConnectorKind | undefined {
  const named = (target as { readonly kind?: unknown }).kind;
  if (named === undefined) return 'opp';
  return typeof named === 'string' && Object.hasOwn(CONNECTOR_KINDS, named)
    ? (named as ConnectorKind)
    : undefined;
}

/** Processors.connector for every channel with connector settings of a known kind. */
export function connectorsOf(clients: ConnectorClients): Processors['connector'] {
  return (channel, environment) => {
    const target = channel.settings.connector;
    const kind = target === undefined ? undefined : kindOf(target);
    if (target === undefined || kind === undefined) return undefined;
    const build = CONNECTOR_KINDS[kind] as (c: ConnectorClients, t: AnyConnectorTarget) => ConnectorContract;
    return connectorProcessor(build(clients, target), environment);
  };
}
