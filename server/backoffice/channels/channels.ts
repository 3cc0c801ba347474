/**
 * A merchant's channels (entityIds): created in this one place for every face, their settings
 * changed (only the fields given), read and listed. The body is the admin API's JSON
 * (settings.ts checkChannelInput: threeDSecure, throttlePerMinute, brands, currencies,
 * bankAccount, connector; name and mode at creation); the CLI translates its flags into it. The
 * connector's address defaults by the channel's mode (connector.ts); its credentials are stored
 * sealed and never shown again.
 */
import { newId } from '../../../shared/engine/core/ids';
import type { Channel, ChannelSettings } from '../../../shared/engine/core/model';
import type { ChannelStore } from '../../../shared/engine/core/ports';
import type { EgressPolicy } from '../../security/egress';
import type { BackofficeContext } from '../context';
import { type FieldError, invalid, notFound } from '../errors';
import { requireMerchant } from '../merchants/merchants';
import { ID } from '../names';
import { resolveConnector } from './connector';
import { parseRoutes, type RouteChange, resolveRoutes } from './routes';
import { applyChannelInput, type ChannelInput, checkChannelInput } from './settings';

export type Connector = NonNullable<ChannelSettings['connector']>;

export interface NewChannel extends ChannelInput {
  readonly name: string;
}

/** A creation's body checked: every field's error at once, the name by the one rule (names.ts). */
export function parseNewChannel(body: Readonly<Record<string, unknown>>): NewChannel {
  const checked = checkChannelInput(body, true);
  if (Array.isArray(checked)) throw invalid(checked);
  return { ...checked, name: checked.name ?? '' };
}

/** A channel change with its routes (null: removed). */
export type ChannelUpdate = ChannelInput & { readonly routes?: readonly RouteChange[] | null };

/** An update's body checked (settings only: name and mode do not change), its routes among them. */
export function parseChannelUpdate(body: Readonly<Record<string, unknown>>): ChannelUpdate {
  const { routes, ...rest } = body;
  const checked = checkChannelInput(rest, false);
  const checkedRoutes = routes === undefined || routes === null ? routes : parseRoutes(routes);
  const errors = [
    ...(Array.isArray(checked) ? checked : []),
    ...(Array.isArray(checkedRoutes) && checkedRoutes.some((r) => 'message' in r) ? checkedRoutes : []),
  ] as FieldError[];
  if (errors.length > 0 || Array.isArray(checked)) throw invalid(errors);
  return checkedRoutes === undefined
    ? checked
    : { ...checked, routes: checkedRoutes as RouteChange[] | null };
}

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
