/**
 * "Check the connection" (issue 33 point 4): one harmless call to a channel's processor with its
 * credentials, and what it showed. Nothing is charged or changed anywhere:
 *
 * - opp: a GET of a payment id nobody has; 200.300.404 ("no payment found") proves the token may
 *   read on that entity, 800.900.* (or 401/403) that it may not;
 * - adyen: POST /paymentMethods for the merchant account (a read);
 * - stripe: GET /v1/balance (a read).
 */
import type { ConnectorSettings } from '../../shared/engine/core/model';

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface ConnectionCheck {
  readonly kind: 'opp' | 'adyen' | 'stripe';
  readonly baseUrl: string;
  /** The processor answered (with anything). */
  readonly reachable: boolean;
  /** accepted / refused by the processor; unknown when it did not answer or said something else. */
  readonly credentials: 'accepted' | 'refused' | 'unknown';
  /** Milliseconds from the request to the answer (or the failure). */
  readonly latencyMs: number;
  /** The HTTP status answered, when one was. */
  readonly status?: number;
  /** What was found, in words. */
  readonly detail: string;
}

/** An id no payment has: 32 hex characters the gateway never issues (ids are random). */
const NOBODYS_PAYMENT = '00000000000000000000000000000000';
const TIMEOUT_MS = 10_000;

interface Probe {
  readonly url: string;
  readonly init: RequestInit;
  /** The credentials' verdict from the answer. */
  readonly verdict: (status: number, body: string) => ConnectionCheck['credentials'];
}

const byStatus = (status: number): ConnectionCheck['credentials'] =>
  status >= 200 && status < 300 ? 'accepted' : status === 401 || status === 403 ? 'refused' : 'unknown';

function probeOf(connector: ConnectorSettings): Probe {
  switch (connector.kind) {
    case undefined:
    case 'opp':
      return {
        url: `${connector.baseUrl}/v1/payments/${NOBODYS_PAYMENT}?entityId=${encodeURIComponent(connector.entityId)}`,
        init: { method: 'GET', headers: { authorization: `Bearer ${connector.accessToken}` } },
        verdict: (status, body) => {
          const code = /"code"\s*:\s*"([0-9.]+)"/.exec(body)?.[1];
          if (code === '200.300.404') return 'accepted';
          if (code?.startsWith('800.900.') || status === 401 || status === 403) return 'refused';
          return 'unknown';
        },
      };
    case 'adyen':
      return {
        url: `${connector.baseUrl}/paymentMethods`,
        init: {
          method: 'POST',
          headers: { 'x-api-key': connector.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ merchantAccount: connector.merchantAccount }),
        },
        verdict: byStatus,
      };
    case 'stripe':
      return {
        url: `${connector.baseUrl}/v1/balance`,
        init: { method: 'GET', headers: { authorization: `Bearer ${connector.apiKey}` } },
        verdict: byStatus,
      };
  }
}

const DETAILS: Readonly<Record<ConnectionCheck['credentials'], string>> = {
  accepted: 'reachable; the credentials were accepted',
  refused: 'reachable; the credentials were refused',
  unknown: 'reachable; the answer did not say whether the credentials are accepted',
};

/** Makes the kind's harmless call through `fetch` (the egress-guarded one) and says what it found. */
export async function checkConnection(fetch: Fetch, connector: ConnectorSettings): Promise<ConnectionCheck> {
  const probe = probeOf(connector);
  const kind = connector.kind ?? 'opp';
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(probe.url, { ...probe.init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = await res.text();
    const credentials = probe.verdict(res.status, body);
    return {
      kind,
      baseUrl: connector.baseUrl,
      reachable: true,
      credentials,
      latencyMs: elapsed(),
      status: res.status,
      detail: `${DETAILS[credentials]} (HTTP ${res.status})`,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind,
      baseUrl: connector.baseUrl,
      reachable: false,
      credentials: 'unknown',
      latencyMs: elapsed(),
      // the URL carries no credential (checked at configuration); the reason is the transport's
      detail: `not reachable: ${reason}`,
    };
  }
}
