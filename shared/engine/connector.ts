/**
 * testMode=EXTERNAL: the decision comes from the channel's connector (another gateway of this
 * API family). Its success is answered as 000.100.112 ("Connector Test Mode"), as the family
 * does; its refusals keep their codes; an unknown code becomes 999.999.999.
 */
import type { FormTree } from '../form/decode';
import { encodeForm } from '../form/encode';
import { isDictPath } from '../params/paths';
import { isKnownCode, isSuccess, ResultCodes } from '../result-codes';
import type { Decision } from './initial-payment';
import type { Channel } from './model';
import type { Connector } from './ports';

/** Our own credentials and mode are not the connector's business. */
const NOT_FORWARDED = new Set([
  'entityId',
  'authentication',
  'testMode',
  'createRegistration',
  'registrations',
]);

export function forwardBody(request: object, entityId: string, extra: Record<string, string> = {}): string {
  const tree: FormTree = {};
  for (const [key, value] of Object.entries(request as FormTree))
    if (!NOT_FORWARDED.has(key)) tree[key] = value;
  for (const [key, value] of Object.entries(extra)) tree[key] = value;
  return `entityId=${encodeURIComponent(entityId)}&${encodeForm(tree, isDictPath)}`;
}

export async function decideExternal(
  connector: Connector | undefined,
  channel: Channel,
  path: string,
  request: object,
  extra: Record<string, string> = {},
): Promise<Decision> {
  const target = channel.settings.connector;
  if (connector === undefined || target === undefined) {
    // No connector is configured for this channel: refused, never simulated.
    return {
      testMode: 'EXTERNAL',
      code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
      result: {},
      resultDetails: {},
    };
  }
  const reply = await connector.send(target, path, forwardBody(request, target.entityId, extra));
  const code = isSuccess(reply.code)
    ? ResultCodes.SUCCESS_EXTERNAL
    : isKnownCode(reply.code)
      ? reply.code
      : ResultCodes.UNDEFINED_CONNECTOR_ERROR;
  return {
    testMode: 'EXTERNAL',
    code,
    result: {},
    resultDetails: {
      ...(reply.id === undefined ? {} : { ConnectorTxID1: reply.id }),
      ...(reply.code === code ? {} : { AcquirerResponse: reply.code }),
      clearingInstituteName: 'Connector',
    },
  };
}
