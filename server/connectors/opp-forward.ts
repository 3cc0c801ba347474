/**
 * The forwarding connector: an adapter of the engine's Processor port that sends a channel's
 * payments over HTTP to an account on another gateway of this API family (a real OPP test or
 * live system, or another instance of this gateway), with the channel's connector credentials,
 * and reads its answers.
 *
 * - Payments (PA, DB, CD; referenceUuid as the connector's id of the original) go to
 *   POST /v1/payments; captures, refunds, reversals and rebills to POST /v1/payments/{its id};
 *   registrations to POST /v1/registrations and payments with them to
 *   POST /v1/registrations/{its id}/payments. Its ids are kept as resultDetails.ConnectorTxID1
 *   (payments) and resultDetails.ConnectorRegistrationID (registrations, stored unanswered).
 * - Its success is answered as 000.100.112 ("Connector Test Mode") on an EXTERNAL test and as
 *   000.000.000 on a live channel; its refusals keep their codes; an unknown code becomes
 *   999.999.999. 30 s without an answer is a timeout with an uncertain result (900.100.300).
 */

import { brandFlow } from '../../shared/brands';
import type {
  Connector,
  ConnectorReply,
  ConnectorTarget,
  Decision,
  Processor,
  Processors,
} from '../../shared/engine/core/ports';
import { connectorIdOf, connectorRegistrationIdOf } from '../../shared/engine/core/processor';
import type { FormTree } from '../../shared/form/decode';
import { encodeForm } from '../../shared/form/encode';
import { isDictPath } from '../../shared/params/paths';
import { isKnownCode, isPending, isSuccess, ResultCodes } from '../../shared/result-codes';

export interface ForwardOptions {
  /** fetch, replaceable in tests (an in-process app); the global one by default. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response> | Response;
  readonly timeoutMs?: number;
}

/** The HTTP transport: one form POST to the connector's gateway, its answer read. */
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
          registrationId?: unknown;
          result?: { code?: unknown; description?: unknown };
        };
        const code =
          typeof json.result?.code === 'string' ? json.result.code : ResultCodes.UNDEFINED_CONNECTOR_ERROR;
        return {
          code,
          ...(typeof json.result?.description === 'string' ? { description: json.result.description } : {}),
          ...(typeof json.id === 'string' ? { id: json.id } : {}),
          ...(typeof json.registrationId === 'string' ? { registrationId: json.registrationId } : {}),
        };
      } catch (error) {
        const timedOut =
          error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
        return { code: timedOut ? ResultCodes.TIMEOUT_UNCERTAIN : ResultCodes.UNDEFINED_CONNECTOR_ERROR };
      }
    },
  };
}

/**
 * Our own credentials and mode are not the connector's business, nor our registrations' ids.
 * createRegistration is: the connector registers the card too, and answers its registrationId.
 */
const NOT_FORWARDED = new Set(['entityId', 'authentication', 'testMode', 'registrations']);

export function forwardBody(request: object, entityId: string, extra: Record<string, string> = {}): string {
  const tree: FormTree = {};
  for (const [key, value] of Object.entries(request as FormTree))
    if (!NOT_FORWARDED.has(key)) tree[key] = value;
  for (const [key, value] of Object.entries(extra)) tree[key] = value;
  return `entityId=${encodeURIComponent(entityId)}&${encodeForm(tree, isDictPath)}`;
}

/** The connector's payments and registrations as a Processor for one channel and environment. */
export function connectorProcessor(
  connector: Connector,
  target: ConnectorTarget,
  environment: 'EXTERNAL' | 'LIVE',
): Processor {
  const testMode = environment === 'EXTERNAL' ? 'EXTERNAL' : undefined;
  const success = environment === 'EXTERNAL' ? ResultCodes.SUCCESS_EXTERNAL : ResultCodes.SUCCESS_LIVE;
  const forward = async (
    path: string,
    request: object,
    extra: Record<string, string> = {},
    idName = 'ConnectorTxID1',
  ): Promise<Decision> => {
    const reply = await connector.send(target, path, forwardBody(request, target.entityId, extra));
    // A pending answer would need the shopper sent to the connector's redirect, which is not
    // passed on yet: it is no success, and the shopper must not wait for what cannot come. The
    // connector's own code stays in AcquirerResponse.
    const code = isSuccess(reply.code)
      ? success
      : isKnownCode(reply.code) && !isPending(reply.code)
        ? reply.code
        : ResultCodes.UNDEFINED_CONNECTOR_ERROR;
    return {
      ...(testMode === undefined ? {} : { testMode }),
      code,
      result: {},
      resultDetails: {
        ...(reply.id === undefined ? {} : { [idName]: reply.id }),
        ...(reply.registrationId === undefined ? {} : { ConnectorRegistrationID: reply.registrationId }),
        ...(reply.code === code ? {} : { AcquirerResponse: reply.code }),
        clearingInstituteName: 'Connector',
      },
    };
  };
  return {
    kind: 'connector',
    testMode,
    pay: async ({ request, original }) => {
      // Brands paid by redirect to a provider need the shopper sent there and back, which the
      // connector does not carry yet: refused before anything is created on the other side.
      const brand = (request as { readonly paymentBrand?: string }).paymentBrand;
      if (original === undefined && brand !== undefined && brandFlow(brand) === 'redirect')
        return {
          ...(testMode === undefined ? {} : { testMode }),
          code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
          result: {},
          resultDetails: {},
        };
      const id = original === undefined ? undefined : connectorIdOf(original);
      return forward('/v1/payments', request, id === undefined ? {} : { referenceUuid: id });
    },
    reference: ({ referenced, request }) =>
      forward(`/v1/payments/${encodeURIComponent(connectorIdOf(referenced) ?? '')}`, request),
    register: ({ request }) => forward('/v1/registrations', request, {}, 'ConnectorRegistrationID'),
    payWithRegistration: ({ registration, request }) =>
      forward(
        `/v1/registrations/${encodeURIComponent(connectorRegistrationIdOf(registration) ?? '')}/payments`,
        request,
      ),
  };
}

/** Processors.connector for every channel with connector settings, through one transport. */
export function connectorsOf(connector: Connector): Processors['connector'] {
  return (channel, environment) =>
    channel.settings.connector === undefined
      ? undefined
      : connectorProcessor(connector, channel.settings.connector, environment);
}
