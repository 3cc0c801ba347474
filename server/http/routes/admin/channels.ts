/**
 * Merchants and their channels (what each accepts: brands, currencies, the merchant's bank
 * account, 3-D Secure, throttle): the back office's procedures (server/backoffice/merchants,
 * channels), as the CLI's. Operators create merchants and channels and change channels; merchant
 * users read their own.
 */
import type { Context } from 'hono';
import { type Channel, environmentOf } from '../../../../shared/engine/core/model';
import {
  createChannel,
  parseChannelUpdate,
  parseNewChannel,
  updateChannel,
} from '../../../backoffice/channels/channels';
import { connectorSetup } from '../../../backoffice/channels/connector';
import { checkChannelConnector } from '../../../backoffice/channels/connector-check';
import { channelView } from '../../../backoffice/channels/settings';
import {
  createMerchant,
  listMerchants,
  merchantView,
  parseNewMerchant,
  requireMerchant,
} from '../../../backoffice/merchants/merchants';
import { mayActOn } from '../../../backoffice/users/principal';
import type { RouteDeps } from '../../context';
import type { AdminContext, AdminKit } from './shared';

export function merchantRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, body, merchantOf, route, act } = kit;

  route('GET', '/admin/v1/merchants', 'read', async (c) => {
    const merchants = await listMerchants(deps.store, c.var.admin.merchantId);
    return env.send(c, 200, ok, { merchants: merchants.map(merchantView) });
  });

  route('POST', '/admin/v1/merchants', 'operator', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    return act(c, async (ctx) => {
      const merchant = await createMerchant(ctx, parseNewMerchant(input));
      return env.send(c, 201, ok, merchantView(merchant));
    });
  });

  route('GET', '/admin/v1/merchants/:merchantId', 'read', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    return env.send(c, 200, ok, merchantView(merchant));
  });

  route('GET', '/admin/v1/merchants/:merchantId/channels', 'read', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const channels = await deps.store.listChannels(merchant.id);
    return env.send(c, 200, ok, { channels: channels.map(channelView) });
  });

  route('POST', '/admin/v1/merchants/:merchantId/channels', 'operator', (c) =>
    act(c, async (ctx) => {
      // an unknown merchant is answered before the body is read, as before
      const merchant = await requireMerchant(deps.store, c.req.param('merchantId') ?? '');
      const input = await body(c);
      if (input instanceof Response) return input;
      const channel = await createChannel(ctx, merchant.id, parseNewChannel(input));
      return env.send(c, 201, ok, channelView(channel));
    }),
  );

  channelRoutes(deps, kit);
}

/** The channel a path's entityId names, when the principal may see it. */
export const channelFor = async (deps: RouteDeps, c: Context): Promise<Channel | undefined> => {
  const id = c.req.param('entityId') ?? '';
  const channel = /^[0-9a-f]{32}$/.test(id) ? await deps.store.getChannel(id) : undefined;
  return channel !== undefined && mayActOn((c as AdminContext).var.admin, channel.merchantId)
    ? channel
    : undefined;
};

function channelRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, body, route, act } = kit;

  route('GET', '/admin/v1/channels/:entityId', 'read', async (c) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return notFound(c, 'channel');
    return env.send(c, 200, ok, channelView(channel));
  });

  // Only the fields given change; the others keep their values.
  const update = async (c: AdminContext) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return notFound(c, 'channel');
    const input = await body(c);
    if (input instanceof Response) return input;
    return act(c, async (ctx) => {
      const change = parseChannelUpdate(input);
      const updated = await updateChannel(ctx, channel, change, deps.egress);
      const connector = updated.settings.connector;
      // once, after setting: where the processor sends its notifications (the credentials never again)
      const setup =
        change.connector == null || connector === undefined
          ? {}
          : {
              connectorSetup: connectorSetup(
                connector,
                updated.id,
                environmentOf(updated.mode) === deps.environment ? deps.publicUrl : undefined,
              ),
            };
      return env.send(c, 200, ok, { ...channelView(updated), ...setup });
    });
  };
  route('PATCH', '/admin/v1/channels/:entityId', 'operator', update);
  route('POST', '/admin/v1/channels/:entityId', 'operator', update);

  // A harmless call to the channel's processor with its credentials: what it found.
  route('POST', '/admin/v1/channels/:entityId/connector/check', 'operator', async (c) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return notFound(c, 'channel');
    return act(c, async (ctx) => {
      const found = await checkChannelConnector(ctx, channel, guardedFetch(deps));
      return env.send(c, 200, ok, { connectorCheck: found });
    });
  });
}

/** fetch refusing what the egress policy refuses (the stored address was checked when set). */
const guardedFetch =
  (deps: RouteDeps) =>
  (url: string, init: RequestInit): Promise<Response> => {
    const refused = deps.egress?.checkUrl(url);
    return refused === undefined ? globalThis.fetch(url, init) : Promise.reject(new Error(refused));
  };
