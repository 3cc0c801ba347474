/**
 * The opp kind's client: one form POST to the upstream gateway with the channel's Bearer token,
 * its answer read by the response transformer. It never throws: no answer in time is an uncertain
 * outcome (900.100.300), anything else that fails (refused connection, unreadable body) 999.999.999.
 */
import type { Connector, ConnectorReply } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import { oppAnswer } from './response';

export interface ForwardOptions {
  /** fetch, replaceable in tests (an in-process app); the global one by default. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response> | Response;
  readonly timeoutMs?: number;
}

/** The HTTP transport of the opp kind (the engine's Connector port). */
export function oppClient(options: ForwardOptions = {}): Connector {
  const send = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    async send(target, path, body): Promise<ConnectorReply> {
      const url = `${target.baseUrl.replace(/\/+$/, '')}${path}`;
      try {
        const response = await send(url, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${target.accessToken}`,
            'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
            Accept: 'application/json',
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        return oppAnswer(await response.json());
      } catch (error) {
        const timedOut =
          error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
        return { code: timedOut ? ResultCodes.TIMEOUT_UNCERTAIN : ResultCodes.UNDEFINED_CONNECTOR_ERROR };
      }
    },
  };
}
