/**
 * The CLI's connector parts of `gateway channel set` and `gateway channel check` (issue 33 point
 * 4): the --connector-* flags as the admin API's `connector` object (checked by the back office,
 * backoffice/channels/connector.ts, its errors named by these flags), what to give the processor
 * once it is set, and the connection check.
 */
import type { Channel } from '../../shared/engine/core/model';
import { requireChannel } from '../backoffice/channels/channels';
import { connectorSetup } from '../backoffice/channels/connector';
import { type ConnectionCheck, checkChannelConnector } from '../backoffice/channels/connector-check';
import {
  booleanFlag,
  checkId,
  type OptionSpec,
  type Parsed,
  stringFlag,
  translated,
  usageError,
} from './args';
import { backoffice, type CommandContext, printJson } from './commands';
import { CONNECTOR_FLAGS } from './connector-flags';

export const CONNECTOR_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  ...Object.fromEntries(Object.values(CONNECTOR_FLAGS).map((flag) => [flag.slice(2), { type: 'string' }])),
  'no-connector': { type: 'boolean' },
};

export const CONNECTOR_HELP: readonly (readonly [string, string])[] = [
  ['--connector opp|adyen|stripe', 'the connector’s kind (default opp: another gateway of this API family)'],
  [
    '--connector-url URL',
    'its address (default by the channel’s mode: Adyen https://checkout-test.adyen.com/v71 on TEST, ' +
      'your live prefix’s on LIVE; Stripe https://api.stripe.com; opp: required)',
  ],
  ['--connector-entity ID', 'opp: the entityId to use on that gateway'],
  ['--connector-token TOKEN', 'opp: the access token for that gateway (stored sealed; never printed)'],
  ['--connector-api-key KEY', 'adyen, stripe: the API key (stored sealed; never printed)'],
  ['--connector-merchant-account NAME', 'adyen: the merchant account'],
  ['--connector-hmac-key HEX', 'adyen: the HMAC key of its standard notifications (optional)'],
  ['--connector-webhook-secret whsec_…', 'stripe: the signing secret of its webhook endpoint (optional)'],
  ['--no-connector', 'remove the connector'],
];

/** The --connector-* flags as the admin API's `connector` (undefined: unchanged; null: removed). */
export function connectorFlags(p: Parsed): Record<string, string> | null | undefined {
  const body: Record<string, string> = {};
  for (const [field, flag] of Object.entries(CONNECTOR_FLAGS)) {
    const value = stringFlag(p, flag.slice(2));
    if (value !== undefined) body[field.slice('connector.'.length)] = value;
  }
  const remove = booleanFlag(p, 'no-connector');
  if (Object.keys(body).length > 0 && remove)
    throw usageError('--no-connector cannot be combined with the --connector-* options');
  if (remove) return null;
  return Object.keys(body).length === 0 ? undefined : body;
}

/** After a connector is set: what to give the processor, once (the credentials are never shown again). */
export function printConnectorSetup(ctx: CommandContext, channel: Channel): void {
  const connector = channel.settings.connector;
  if (connector === undefined || ctx.json) return;
  const setup = connectorSetup(connector, channel.id);
  ctx.output.err(
    `Give the processor this notification address, on the channel's environment address: ${setup.notificationPath}`,
  );
  ctx.output.err(
    `Its signature: ${setup.signature}. The credentials are stored sealed and never shown again.`,
  );
}

/** `gateway channel check ENTITY_ID`: one harmless call to the channel's processor, and what it found. */
export async function checkConnectorCommand(
  ctx: CommandContext,
  input: { readonly entityId: string },
): Promise<ConnectionCheck> {
  checkId(input.entityId, 'channel id');
  const found = await translated(async () =>
    checkChannelConnector(backoffice(ctx), await requireChannel(ctx.store, input.entityId), (url, init) => {
      const refused = ctx.egress?.checkUrl(url);
      return refused === undefined ? globalThis.fetch(url, init) : Promise.reject(new Error(refused));
    }),
  );
  if (ctx.json) printJson(ctx, { connectorCheck: found });
  else
    ctx.output.out(
      `${found.kind} ${found.baseUrl}: ${found.detail}; ${found.latencyMs} ms` +
        (found.credentials === 'accepted' ? '' : ' (credentials not confirmed)'),
    );
  return found;
}
