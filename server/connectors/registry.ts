/**
 * The connector kinds, by the name a channel's settings give (`gateway channel set ENTITY
 * --connector KIND`): each kind builds its ConnectorContract (kit/contract.ts) from the channel's
 * credentials over its client. A channel's connector settings without a kind are `opp`, the only
 * kind stored before kinds existed. A new kind: its folder `server/connectors/<kind>/` (request
 * and response transformers, client, connector.ts), a row here, and its scenario suite test.
 */
import { createHash } from 'node:crypto';
import type {
  AnyConnectorTarget,
  Connector,
  ConnectorTarget,
  Processors,
} from '../../shared/engine/core/ports';
import { adyenConnector } from './adyen/connector';
import type { ConnectorContract } from './kit/contract';
import { connectorProcessor } from './kit/processor';
import { oppConnector } from './opp/connector';
import type { Breaker } from './routing/breaker';
import { type RoutingDeps, routedProcessor } from './routing/router';
import { stripeConnector } from './stripe/connector';

/** The clients the gateway has, one per kind (the opp client is the engine's Connector port). */
export interface ConnectorClients {
  readonly opp: Connector;
  /** The egress-guarded fetch (server/security/egress.ts) every other kind's client sends through. */
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** How long the other kinds' clients wait for an answer (GATEWAY_CONNECTOR_TIMEOUT_MS; 30 s). */
  readonly timeoutMs?: number;
}

const clientOptions = (clients: ConnectorClients) =>
  clients.timeoutMs === undefined ? {} : { timeoutMs: clients.timeoutMs };

/** The kinds with a connector here (each of ConnectorSettings' kinds once its folder exists). */
export type ConnectorKind = Extract<NonNullable<AnyConnectorTarget['kind']>, 'opp' | 'adyen' | 'stripe'>;

/** Every kind's connector of a channel's credentials. */
export const CONNECTOR_KINDS: {
  readonly [K in ConnectorKind]: (
    clients: ConnectorClients,
    target: Extract<AnyConnectorTarget, { kind?: K }>,
  ) => ConnectorContract;
} = {
  opp: (clients, target: ConnectorTarget) => oppConnector(clients.opp, target),
  adyen: (clients, target) => adyenConnector(target, clients.fetch, clientOptions(clients)),
  stripe: (clients, target) => stripeConnector(target, clients.fetch, clientOptions(clients)),
};

/** The kind a channel's connector settings name; `opp` when they name none. */
export function kindOf(target: AnyConnectorTarget): ConnectorKind | undefined {
  const named = (target as { readonly kind?: unknown }).kind;
  if (named === undefined) return 'opp';
  return typeof named === 'string' && Object.hasOwn(CONNECTOR_KINDS, named)
    ? (named as ConnectorKind)
    : undefined;
}

/** A channel's connector settings as the contract of their kind; undefined for a kind this gateway lacks. */
export function contractOf(
  clients: ConnectorClients,
  target: AnyConnectorTarget,
): ConnectorContract | undefined {
  const kind = kindOf(target);
  if (kind === undefined) return undefined;
  const build = CONNECTOR_KINDS[kind] as (c: ConnectorClients, t: AnyConnectorTarget) => ConnectorContract;
  return build(clients, target);
}

/** How many connectors of distinct settings a gateway keeps built (the least recently used is dropped). */
export const CACHED_CONNECTORS = 1000;

/**
 * A connector's settings as a cache key: its kind, address and a fingerprint of its credentials
 * (a SHA-256 of the whole settings, so a key never holds a secret in clear). A channel whose
 * settings change gets another key: the connector built for the old ones is never used again.
 */
export function settingsKey(target: AnyConnectorTarget): string {
  const sorted = Object.fromEntries(Object.entries(target).sort(([a], [b]) => (a < b ? -1 : 1)));
  const fingerprint = createHash('sha256').update(JSON.stringify(sorted)).digest('base64url');
  return `${kindOf(target) ?? '?'}|${target.baseUrl}|${fingerprint}`;
}

/**
 * contractOf, each connector (and its client: Adyen's, Stripe's SDK) built once per settings
 * instead of once per payment; the least recently used dropped first beyond `limit`.
 */
export function cachedContracts(
  build: (target: AnyConnectorTarget) => ConnectorContract | undefined,
  limit = CACHED_CONNECTORS,
): (target: AnyConnectorTarget) => ConnectorContract | undefined {
  const built = new Map<string, ConnectorContract | undefined>();
  return (target) => {
    const key = settingsKey(target);
    if (built.has(key)) {
      const contract = built.get(key);
      // a Map keeps insertion order: moved to the end, the first is the least recently used
      built.delete(key);
      built.set(key, contract);
      return contract;
    }
    const contract = build(target);
    built.set(key, contract);
    if (built.size > limit) built.delete(built.keys().next().value as string);
    return contract;
  };
}

/**
 * What routing needs beside the clients: the gateway's breaker, its BIN lookup (the card's
 * country) and the attempt log (the store's connector attempts).
 */
export interface RoutingOptions {
  readonly breaker: Breaker;
  readonly binInfo?: RoutingDeps['binInfo'];
  readonly attempts?: RoutingDeps['attempts'];
  /** Opens a stored card's sealed number, for repeats sent to another connector (routing/migrate.ts). */
  readonly openCard?: RoutingDeps['openCard'];
}

/**
 * Processors.connector for every channel with connector settings of a known kind; a channel with
 * `routes` gets them as one routed Processor (routing/router.ts), instead of `connector`.
 */
export function connectorsOf(clients: ConnectorClients, routing?: RoutingOptions): Processors['connector'] {
  const contract = cachedContracts((target) => contractOf(clients, target));
  return (channel, environment) => {
    const routes = channel.settings.routes;
    if (routing !== undefined && routes !== undefined && routes.length > 0)
      return routedProcessor(channel, environment, {
        build: contract,
        breaker: routing.breaker,
        ...(routing.binInfo === undefined ? {} : { binInfo: routing.binInfo }),
        ...(routing.attempts === undefined ? {} : { attempts: routing.attempts }),
        ...(routing.openCard === undefined ? {} : { openCard: routing.openCard }),
      });
    const single =
      channel.settings.connector === undefined ? undefined : contract(channel.settings.connector);
    return single === undefined ? undefined : connectorProcessor(single, environment);
  };
}
