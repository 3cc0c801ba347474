/**
 * A merchant's channels (entityIds): created in this one place for every face, their settings
 * changed (only the fields given), read and listed. The body is the admin API's JSON, parsed
 * with the contract's schemas (settings.ts: threeDSecure, throttlePerMinute, brands, currencies,
 * bankAccount, connector, routes; name and mode at creation); the CLI translates its flags into it. The
 * connector's address defaults by the channel's mode (connector.ts); its credentials are stored
 * sealed and never shown again.
 */
import { newId } from '../../../shared/engine/core/ids';
import type { Channel, ChannelSettings } from '../../../shared/engine/core/model';
import type { ChannelStore } from '../../../shared/engine/core/ports';
import type { EgressPolicy } from '../../security/egress';
import type { BackofficeContext } from '../context';
import { invalid, notFound } from '../errors';
import { requireMerchant } from '../merchants/merchants';
import { ID } from '../names';
import { resolveConnector } from './connector';
import { resolveRoutes } from './routes';
import {
  applyChannelInput,
  type ChannelInput,
  type ChannelUpdate,
  type NewChannel,
  parseChannelUpdate,
  parseNewChannel,
} from './settings';

export type Connector = NonNullable<ChannelSettings['connector']>;

export { type ChannelUpdate, type NewChannel, parseChannelUpdate, parseNewChannel };

/** The channel an entityId names, or `not-found`. */
export async function requireChannel(
  store: Pick<ChannelStore, 'getChannel'>,
  entityId: string,
): Promise<Channel> {
  const channel = ID.test(entityId) ? await store.getChannel(entityId) : undefined;
  if (channel === undefined) throw notFound('channel', entityId);
  return channel;
}

export async function createChannel(
  ctx: BackofficeContext,
  merchantId: string,
  input: NewChannel,
): Promise<Channel> {
  const merchant = await requireMerchant(ctx.store, merchantId);
  const channel: Channel = {
    id: newId(),
    merchantId: merchant.id,
    name: input.name,
    mode: input.mode ?? 'TEST',
    settings: withConnector(applyChannelInput({}, input), connectorOf(input, input.mode ?? 'TEST')),
    createdAt: ctx.clock.now(),
  };
  await ctx.store.insertChannel(channel);
  await ctx.audit('channel.create', channel.id, merchant.id);
  return channel;
}

/** The input's connector on a channel of `mode` (undefined: unchanged; null: removed). */
const connectorOf = (input: ChannelInput, mode: Channel['mode']): Connector | null | undefined =>
  input.connector == null ? input.connector : resolveConnector(input.connector, mode);

function withConnector(settings: ChannelSettings, connector: Connector | null | undefined): ChannelSettings {
  const { connector: old, ...rest } = settings;
  const next = connector === undefined ? old : (connector ?? undefined);
  return next === undefined ? rest : { ...rest, connector: next };
}

/**
 * Changes only the settings given; requests see it within seconds (channel lookups are cached
 * briefly, server/http/middleware/channel). `input.connector`: null removes it.
 */
export async function updateChannel(
  ctx: BackofficeContext,
  channel: Channel,
  input: ChannelUpdate,
  egress?: Pick<EgressPolicy, 'checkUrl'>,
): Promise<Channel> {
  const connector = connectorOf(input, channel.mode);
  // where the gateway may not call (this machine, the private network in production), no connector
  const refused = connector == null ? undefined : egress?.checkUrl(connector.baseUrl);
  if (refused !== undefined)
    throw invalid([{ name: 'connector.baseUrl', value: connector?.baseUrl ?? null, message: refused }]);
  const withIt = withConnector(applyChannelInput(channel.settings, input), connector);
  const { routes: oldRoutes, ...others } = withIt;
  const routes =
    input.routes === undefined
      ? oldRoutes
      : input.routes === null
        ? undefined
        : resolveRoutes(input.routes, channel.mode);
  for (const route of routes ?? []) {
    const refusedRoute = egress?.checkUrl(route.connector.baseUrl);
    if (refusedRoute !== undefined)
      throw invalid([{ name: 'routes', value: route.connector.baseUrl, message: refusedRoute }]);
  }
  const settings: ChannelSettings = routes === undefined ? others : { ...others, routes };
  await ctx.store.updateChannelSettings(channel.id, settings);
  await ctx.audit('channel.update', channel.id, channel.merchantId);
  return { ...channel, settings };
}
