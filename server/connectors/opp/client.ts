/**
 * The opp kind's client: one form POST (or a GET of the Query API) to the upstream gateway with
 * the channel's Bearer token, its answer read by the response transformer. It never throws; what
 * goes wrong on the way is a technical failure, and what is known of it decides what the gateway
 * may do next (kit/contract.ts):
 *
 * - `refused`: nothing reached the upstream (connection refused, no such host, no route, the
 *   connection not made in time, the egress policy said no): a known failure, 999.999.999;
 * - `uncertain`: the request may have been processed (no answer in time, the connection reset
 *   or closed mid-answer, a 5xx, an answer that is not the family's JSON, or is cut short):
 *   900.100.300, and the gateway asks the upstream what happened before it says anything else.
 */
import type {
  Connector,
  ConnectorFetched,
  ConnectorReply,
  Technical,
} from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import { oppAnswer } from './response';

export interface ForwardOptions {
  /** fetch, replaceable in tests (an in-process app); the global one by default. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response> | Response;
  readonly timeoutMs?: number;
}

/** The error codes of a connection that was never made: nothing was sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
  // the egress policy refuses before connecting (server/security/egress.ts)
  'EGRESS_REFUSED',
]);

/** Whether `error` (what fetch threw before an answer came) left the request unsent. */
function refusedBefore(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    const code = (cause as { readonly code?: unknown }).code;
    if (typeof code === 'string' && NOT_CONNECTED.has(code)) return true;
    cause = cause.cause;
  }
  return false;
}

/** The reply of a technical failure. */
const failed = (technical: Technical): ConnectorReply => ({
  code: technical === 'refused' ? ResultCodes.UNDEFINED_CONNECTOR_ERROR : ResultCodes.TIMEOUT_UNCERTAIN,
  technical,
});

/**
 * The upstream's JSON: a 5xx or a body that is not JSON is uncertain (it may have processed the
 * payment before failing); a 4xx that is not the family's JSON (a proxy's 401, 403, 429) refused
 * it before anything was processed.
 */
async function readJson(response: Response): Promise<ConnectorFetched> {
  if (response.status >= 500) {
    await response.body?.cancel().catch(() => undefined);
    return { technical: 'uncertain' };
  }
  const text = await response.text();
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { technical: response.status >= 400 ? 'refused' : 'uncertain' };
  }
}

/** The HTTP transport of the opp kind (the engine's Connector port). */
export function oppClient(options: ForwardOptions = {}): Connector {
  const send = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const exchange = async (url: string, init: RequestInit): Promise<ConnectorFetched> => {
    let response: Response;
    try {
      // The signal bounds the whole exchange, the body's reading included (a slow trickle).
      response = await send(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      return { technical: refusedBefore(error) ? 'refused' : 'uncertain' };
    }
    try {
      return await readJson(response);
    } catch {
      // reset, closed or timed out while the answer came: it was received, maybe processed
      return { technical: 'uncertain' };
    }
  };
  const base = (baseUrl: string) => baseUrl.replace(/\/+$/, '');
  return {
    async send(target, path, body): Promise<ConnectorReply> {
      const read = await exchange(`${base(target.baseUrl)}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${target.accessToken}`,
          'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
          Accept: 'application/json',
        },
        body,
      });
      return 'json' in read ? oppAnswer(read.json) : failed(read.technical);
    },
    get: (target, path) =>
      exchange(`${base(target.baseUrl)}${path}`, {
        method: 'GET',
        headers: { Authorization: `Bearer ${target.accessToken}`, Accept: 'application/json' },
      }),
  };
}
