/**
 * A merchant's channels (entityIds): created in this one place for every face, their settings
 * changed (only the fields given), read and listed. The body is the admin API's JSON
 * (settings.ts checkChannelInput: threeDSecure, throttlePerMinute, brands, currencies,
 * bankAccount; name and mode at creation); the CLI translates its flags into it. The connector
 * (its access token) is set only from the CLI, never over HTTP.
 */
import { newId } from '../../../shared/engine/core/ids';
import type { Channel, ChannelSettings } from '../../../shared/engine/core/model';
import type { ChannelStore } from '../../../shared/engine/core/ports';
import type { BackofficeContext } from '../context';
import { invalid, notFound } from '../errors';
import { requireMerchant } from '../merchants/merchants';
import { ID } from '../names';
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

/** An update's body checked (settings only: name and mode do not change). */
export function parseChannelUpdate(body: Readonly<Record<string, unknown>>): ChannelInput {
  const checked = checkChannelInput(body, false);
  if (Array.isArray(checked)) throw invalid(checked);
  return checked;
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
    settings: applyChannelInput({}, input),
    createdAt: ctx.clock.now(),
  };
  await ctx.store.insertChannel(channel);
  await ctx.audit('channel.create', channel.id, merchant.id);
  return channel;
}

/**
 * Changes only the settings given; requests see it within seconds (channel lookups are cached
 * briefly, server/http/middleware/channel). `connector` (the CLI's alone): null removes it.
 */
export async function updateChannel(
  ctx: BackofficeContext,
  channel: Channel,
  input: ChannelInput,
  connector?: Connector | null,
): Promise<Channel> {
  const { connector: old, ...rest } = applyChannelInput(channel.settings, input);
  const next = connector === undefined ? old : (connector ?? undefined);
  const settings: ChannelSettings = next === undefined ? rest : { ...rest, connector: next };
  await ctx.store.updateChannelSettings(channel.id, settings);
  await ctx.audit('channel.update', channel.id, channel.merchantId);
  return { ...channel, settings };
}
