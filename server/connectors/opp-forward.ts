/**
 * The EXTERNAL connector: forwards a request over HTTP to another gateway of this API family
 * (another instance of this one will do), with the channel's connector credentials, and reads
 * its answer. 30 s without an answer is a timeout with an uncertain result (900.100.300).
 */
import type { Connector, ConnectorReply } from '../../shared/engine/ports';
import { ResultCodes } from '../../shared/result-codes';

export interface ForwardOptions {
  /** fetch, replaceable in tests (an in-process app); the global one by default. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response> | Response;
  readonly timeoutMs?: number;
}

export function oppForwardConnector(options: ForwardOptions = {}): Connector {
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
        const json = (await response.json()) as {
          id?: unknown;
          result?: { code?: unknown; description?: unknown };
        };
        const code =
          typeof json.result?.code === 'string' ? json.result.code : ResultCodes.UNDEFINED_CONNECTOR_ERROR;
        return {
          code,
          ...(typeof json.result?.description === 'string' ? { description: json.result.description } : {}),
          ...(typeof json.id === 'string' ? { id: json.id } : {}),
        };
      } catch (error) {
        const timedOut =
          error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
        return { code: timedOut ? ResultCodes.TIMEOUT_UNCERTAIN : ResultCodes.UNDEFINED_CONNECTOR_ERROR };
      }
    },
  };
}
