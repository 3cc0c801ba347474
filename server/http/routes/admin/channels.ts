/**
 * Merchants and their channels (what each accepts: brands, currencies, the merchant's bank
 * account, 3-D Secure, throttle; server/channels/settings.ts, as the CLI). Operators create
 * merchants and channels and change channels; merchant users read their own.
 */
import type { Context } from 'hono';
import { newId } from '../../../../shared/engine/core/ids';
import type { Channel, Merchant } from '../../../../shared/engine/core/model';
import { mayActOn } from '../../../admin/principal';
import { applyChannelInput, channelView, checkChannelInput } from '../../../channels/settings';
import type { RouteDeps } from '../../context';
import type { AdminContext, AdminKit } from './shared';

const merchantView = (m: Merchant) => ({ id: m.id, name: m.name, createdAt: m.createdAt.toISOString() });

export function merchantRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, body, merchantOf, route, audit } = kit;

  route('GET', '/admin/v1/merchants', 'read', async (c) => {
    const own = c.var.admin.merchantId;
    const merchants = own === null ? await deps.store.listMerchants() : [await deps.store.getMerchant(own)];
    return env.send(c, 200, ok, {
      merchants: merchants.filter((m): m is Merchant => m !== undefined).map(merchantView),
    });
  });

  route('POST', '/admin/v1/merchants', 'operator', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name.length < 1 || name.length > 128)
      return invalid(c, [
        {
          name: 'name',
          value: input.name === undefined ? null : String(input.name),
          message: 'must be 1 to 128 characters',
        },
      ]);
    const merchant: Merchant = { id: newId(), name, createdAt: deps.clock.now() };
    await deps.store.insertMerchant(merchant);
    await audit(c, 'merchant.create', merchant.id, merchant.id);
    return env.send(c, 201, ok, merchantView(merchant));
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

  route('POST', '/admin/v1/merchants/:merchantId/channels', 'operator', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const input = await body(c);
    if (input instanceof Response) return input;
    const checked = checkChannelInput(input, true);
    if (Array.isArray(checked)) return invalid(c, checked);
    const channel: Channel = {
      id: newId(),
      merchantId: merchant.id,
      name: checked.name ?? '',
      mode: checked.mode ?? 'TEST',
      settings: applyChannelInput({}, checked),
      createdAt: deps.clock.now(),
    };
    await deps.store.insertChannel(channel);
    await audit(c, 'channel.create', channel.id, merchant.id);
    return env.send(c, 201, ok, channelView(channel));
  });

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
  const { env, ok, notFound, invalid, body, route, audit } = kit;

  route('GET', '/admin/v1/channels/:entityId', 'read', async (c) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return notFound(c, 'channel');
    return env.send(c, 200, ok, channelView(channel));
  });

  // Only the fields given change; the others keep their values. Requests see it within seconds
  // (channel lookups are cached briefly, server/http/middleware/channel).
  const updateChannel = async (c: AdminContext) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return notFound(c, 'channel');
    const input = await body(c);
    if (input instanceof Response) return input;
    const checked = checkChannelInput(input, false);
    if (Array.isArray(checked)) return invalid(c, checked);
    const settings = applyChannelInput(channel.settings, checked);
    await deps.store.updateChannelSettings(channel.id, settings);
    await audit(c, 'channel.update', channel.id, channel.merchantId);
    return env.send(c, 200, ok, channelView({ ...channel, settings }));
  };
  route('PATCH', '/admin/v1/channels/:entityId', 'operator', updateChannel);
  route('POST', '/admin/v1/channels/:entityId', 'operator', updateChannel);
}
