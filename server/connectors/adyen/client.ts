/**
 * The adyen kind's client: one JSON POST to the channel's Checkout API address, with the API key
 * as `X-API-Key` and an `Idempotency-Key` (Adyen keeps a key's answer for at least 7 days, so a
 * retry with it is never a second payment).
 *
 * Why fetch and not Adyen's Node library (`@adyen/api-library`) for the transport: its services
 * build their URL from a hard-coded Adyen host and its own API version (v72 in the installed 32.x;
 * this connector speaks v71, the published document kept in ../shared), serialise through its v72
 * models, and send through node:https, not the given fetch (the egress-guarded one,
 * server/security/egress.ts). Its transport would have to be replaced and its URLs rewritten to
 * point at the channel's address; what it does well is kept: its HmacValidator verifies the
 * notifications (notifications.ts).
 *
 * It never throws. What the transport leaves known is said (`technical`): a connection refused
 * before anything was sent is `refused`; no answer in time, a reset connection, a 5xx or an
 * unreadable body is `uncertain` (Adyen may have processed it: DECISIONS, never sent again blindly).
 */
import type { Technical } from '../../../shared/engine/core/ports';
import type { Json } from './request';

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** What Adyen answered: its HTTP status and JSON body, or the technical failure that left none. */
export type AdyenReply =
  | { readonly status: number; readonly json: unknown }
  | { readonly technical: Technical };

export interface AdyenTarget {
  readonly baseUrl: string;
  readonly apiKey: string;
}

export interface AdyenClientOptions {
  readonly timeoutMs?: number;
}

/** Whether an error of fetch is a connection refused before anything was sent. */
function refusedBeforeSending(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = error instanceof Error ? error.message : '';
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || /ECONNREFUSED/.test(message);
}

/** The Adyen client of one channel's credentials over `fetch`. */
export function adyenClient(target: AdyenTarget, fetch: Fetch, options: AdyenClientOptions = {}) {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const base = target.baseUrl.replace(/\/+$/, '');
  return {
    async post(path: string, body: Json, idempotencyKey: string): Promise<AdyenReply> {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: {
            'X-API-Key': target.apiKey,
            'Content-Type': 'application/json',
            Accept: 'application/json',
            'Idempotency-Key': idempotencyKey,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        return { technical: refusedBeforeSending(error) ? 'refused' : 'uncertain' };
      }
      if (response.status >= 500) return { technical: 'uncertain' };
      try {
        return { status: response.status, json: JSON.parse(await response.text()) };
      } catch {
        return { technical: 'uncertain' };
      }
    },
  };
}

export type AdyenClient = ReturnType<typeof adyenClient>;
