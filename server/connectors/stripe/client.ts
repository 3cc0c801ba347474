/**
 * The stripe kind's client: Stripe's official Node SDK pointed at the channel's `baseUrl` (Stripe
 * itself, https://api.stripe.com, or a fake's) and sending through the given fetch (the gateway's
 * egress-guarded one). Every POST carries an idempotency key derived from the gateway's id of the
 * payment and the operation, so a retry (the SDK's own, or the gateway's after an uncertain
 * outcome) is the same request to Stripe and never a second charge.
 *
 * Transport failures never throw out of here: a connection refused before anything was sent is a
 * known failure (`technical: 'refused'`, 999.999.999: another connector may be tried); a timeout,
 * a reset connection or an unreadable answer is uncertain (`technical: 'uncertain'`, 900.100.300:
 * the payment is pending until Stripe is asked).
 */
import Stripe from 'stripe';
import type { StripeConnectorSettings } from '../../../shared/engine/core/model';
import { ResultCodes } from '../../../shared/result-codes';
import type { ConnectorAnswer } from '../kit/contract';
import { errorAnswer } from './response';

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface StripeClientOptions {
  /** A request's time limit; 30 s by default (Stripe's own default is 80 s). */
  readonly timeoutMs?: number;
  /**
   * Retries of a failed connection or a 409/5xx answer, with the same idempotency key (safe). One
   * by default: enough for a dropped keep-alive socket, short enough that an uncertain outcome is
   * handed to the gateway's inquiry soon.
   */
  readonly maxNetworkRetries?: number;
}

/** The SDK's client of one channel's credentials. */
export function stripeClient(
  target: StripeConnectorSettings,
  fetch: Fetch,
  options: StripeClientOptions = {},
): Stripe {
  const url = new URL(target.baseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(target.apiKey, {
    host: url.hostname,
    port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port),
    protocol,
    httpClient: Stripe.createFetchHttpClient(fetch as typeof globalThis.fetch),
    maxNetworkRetries: options.maxNetworkRetries ?? 1,
    timeout: options.timeoutMs ?? 30_000,
    telemetry: false,
    appInfo: { name: 'open-payment-gateway' },
  });
}

/** The idempotency key of `operation` on the gateway's payment `gatewayId` (Stripe keeps keys 24 h). */
export const idempotencyKey = (gatewayId: string, operation: string): string =>
  `opg-${gatewayId}-${operation}`;

/** Network error codes that mean nothing was sent: the connection was never made. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether a connection error happened before anything reached Stripe (the cause chain tells). */
function neverSent(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at !== undefined && at !== null && depth < 6; depth++) {
    const { code, name, cause, detail } = at as {
      code?: unknown;
      name?: unknown;
      cause?: unknown;
      detail?: unknown;
    };
    if (typeof code === 'string' && NOT_CONNECTED.has(code)) return true;
    // the egress policy refused the address: nothing left the gateway
    if (name === 'EgressRefused') return true;
    at = detail ?? cause;
  }
  return false;
}

/**
 * Runs one call of the SDK; its failures as the kit's answers (never thrown). `operation` names
 * what was asked, for the codes of Stripe's refusals (a capture refused is 700.400.100 …).
 */
export async function call(operation: string, run: () => Promise<ConnectorAnswer>): Promise<ConnectorAnswer> {
  try {
    return await run();
  } catch (error) {
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      !(error instanceof Stripe.errors.StripeError)
    ) {
      if (
        !(error instanceof Stripe.errors.StripeError) &&
        !(error instanceof TypeError) &&
        !(error instanceof SyntaxError)
      )
        throw error;
      return neverSent(error)
        ? {
            code: ResultCodes.UNDEFINED_CONNECTOR_ERROR,
            technical: 'refused',
            processorCode: 'connection_refused',
          }
        : { code: ResultCodes.TIMEOUT_UNCERTAIN, technical: 'uncertain', processorCode: 'connection_error' };
    }
    return errorAnswer(error, operation);
  }
}
