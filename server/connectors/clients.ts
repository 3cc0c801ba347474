/**
 * The connectors' clients the composition root hands the processors: the opp client (unless a
 * test gives its own), the egress-guarded fetch every other kind sends through, and how long
 * every kind waits for an answer (GATEWAY_CONNECTOR_TIMEOUT_MS in milliseconds; 30 s without it).
 */
import type { Connector } from '../../shared/engine/core/processor-port';
import { positiveNumber } from '../security/env-number';
import { oppClient } from './opp/client';

type Fetch = typeof globalThis.fetch;

export function connectorClients(
  connector: Connector | undefined,
  env: Readonly<Record<string, string | undefined>>,
  fetch: Fetch,
): readonly [Connector, Fetch, number | undefined] {
  const timeoutMs = positiveNumber(env.GATEWAY_CONNECTOR_TIMEOUT_MS);
  const waited = timeoutMs === undefined ? {} : { timeoutMs };
  return [connector ?? oppClient({ fetch, ...waited }), fetch, timeoutMs];
}
