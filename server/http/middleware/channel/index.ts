/**
 * Channel access: the channel a request acts for. `entityId` (or legacy
 * `authentication.entityId`) must be a channel the token may use ({@link mayUse}), of the
 * environment of the address the request came to (test or live); it may be left out when the
 * token has exactly one there. With channel dispatching on, it may be the merchant's id: the
 * gateway picks the channel accepting the request's brand and currency. The middleware leaves the
 * channel on the context (`c.var.channel`); 403 (or 400 600.200.201 for dispatching) otherwise.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { brandKind } from '../../../../shared/brands';
import {
  type AccessToken,
  type Channel,
  type Environment,
  environmentOf,
  type Merchant,
} from '../../../../shared/engine/core/model';
import type { Store } from '../../../../shared/engine/core/ports';
import { channelRefusal } from '../../../../shared/engine/steps/payment-method';
import { ResultCodes } from '../../../../shared/result-codes';
import type { ChannelEnv, TokenEnv } from '../../context';
import { expiringMap } from '../../expiring';
import type { Envelope } from '../envelope';
import { storable } from '../storable';

export type ChannelResolution =
  | { readonly ok: true; readonly channel: Channel }
  | { readonly ok: false; readonly status: 403; readonly description: string }
  /** Dispatching found no channel of the merchant that accepts the brand and currency: 600.200.201. */
  | { readonly ok: false; readonly status: 400; readonly description: string };

/**
 * Channel lookups, cached for a few seconds like tokens: every request names its channel, and
 * settings changes (throttle, 3-D Secure, dispatching) may take that long to apply.
 */
export function cachedChannels<S extends Store>(
  store: S,
  now: () => number = Date.now,
  ttlMs = 5_000,
): S & { readonly release: () => void } {
  const byId = expiringMap<Channel | undefined>(now);
  const byMerchant = expiringMap<Channel[]>(now);
  const merchants = expiringMap<Merchant | undefined>(now);
  return Object.assign(Object.create(store) as S, {
    /** The expired lookups dropped (idle gateway). */
    release() {
      for (const map of [byId, byMerchant, merchants]) map.release();
    },
    /** The channel as cached (its value may be undefined: none); undefined when not cached. */
    cachedChannel(id: string): { readonly value: Channel | undefined } | undefined {
      return byId.get(id);
    },
    async getChannel(id: string) {
      return (await byId.load(id, ttlMs, () => store.getChannel(id))).value;
    },
    async listChannels(merchantId: string) {
      return (await byMerchant.load(merchantId, ttlMs, () => store.listChannels(merchantId))).value;
    },
    async getMerchant(id: string) {
      return (await merchants.load(id, ttlMs, () => store.getMerchant(id))).value;
    },
  });
}

type ChannelLookup = Pick<Store, 'getChannel' | 'listChannels'>;

/** Whether a channel (a record on it) belongs to the environment of the address a request came to. */
export const inEnvironment = (channel: Channel | undefined, environment: Environment): channel is Channel =>
  channel !== undefined && environmentOf(channel.mode) === environment;

/** Whether a token may use a channel: its merchant's, of the environment, and among its channels if it names some. */
export const mayUse = (token: AccessToken, channel: Channel, environment: Environment): boolean =>
  channel.merchantId === token.merchantId &&
  inEnvironment(channel, environment) &&
  (token.channelIds.length === 0 || token.channelIds.includes(channel.id));

/**
 * The channels a token may use in an environment (oldest first): those it names, or all of its
 * merchant's, of that environment only. What the Query API, reporting and reads are scoped to.
 */
export async function usableChannels(
  store: ChannelLookup,
  token: AccessToken,
  environment: Environment,
): Promise<Channel[]> {
  return (await store.listChannels(token.merchantId)).filter((c) => mayUse(token, c, environment));
}

/** What dispatching matches a channel against: the request's brand and currency, when it names them. */
export interface DispatchNeeds {
  readonly brand?: string;
  readonly currency?: string;
}

/**
 * Whether a channel accepts a brand and a currency (ChannelSettings.brands/currencies; undefined:
 * all). A brand the gateway does not know is not judged here: the payment refuses it downstream
 * (600.200.100), whichever channel it goes to.
 */
export function channelAccepts(channel: Channel, needs: DispatchNeeds): boolean {
  // An unknown brand is not judged here: it fails further along (600.200.100).
  const brand = needs.brand !== undefined && brandKind(needs.brand) !== undefined ? needs.brand : undefined;
  return channelRefusal(channel.settings, brand, needs.currency) === undefined;
}

/**
 * The channel a request acts for, given the token, the entityId sent (if any) and the environment
 * of the address it came to:
 *
 * - a channel's entityId: it must be one the token may use, of this environment (403 otherwise);
 * - none: the token's only channel of this environment;
 * - the merchant's own id, when the merchant has channel dispatching on: the first of the token's
 *   channels of this environment (oldest first) that accepts the request's brand and currency;
 *   none → 400 with 600.200.201.
 */
export async function resolveChannel(
  store: Pick<Store, 'getChannel' | 'listChannels' | 'getMerchant'>,
  token: AccessToken,
  entityId: string | undefined,
  environment: Environment = 'test',
  needs: DispatchNeeds = {},
): Promise<ChannelResolution> {
  if (entityId === undefined) {
    const usable = await usableChannels(store, token, environment);
    if (usable.length !== 1) return refuse('entityId is required: this token may use more than one channel');
    return { ok: true, channel: usable[0]! };
  }
  if (entityId === token.merchantId) {
    const merchant = await store.getMerchant(entityId);
    if (merchant?.dispatching !== true)
      return refuse('invalid authentication information: this token may not use that entityId');
    const channel = (await usableChannels(store, token, environment)).find((c) => channelAccepts(c, needs));
    if (channel === undefined)
      return {
        ok: false,
        status: 400,
        description: `no channel of this merchant accepts ${[needs.brand, needs.currency].filter((x) => x !== undefined).join(' in ') || 'this request'}`,
      };
    return { ok: true, channel };
  }
  // an id no store can keep names no channel (PostgreSQL refuses NUL in text: never asked)
  const channel = storable(entityId) ? await store.getChannel(entityId) : undefined;
  if (channel === undefined || !mayUse(token, channel, environment)) {
    return refuse('invalid authentication information: this token may not use that entityId');
  }
  return { ok: true, channel };
}

/** A 403 refusal (module level: resolveChannel runs on every request and makes no closure). */
const refuse = (description: string): ChannelResolution => ({ ok: false, status: 403, description });

/** What a request names its channel by, and what dispatching matches (the validated parameters). */
interface ChannelParameters {
  readonly entityId?: string;
  readonly authentication?: { readonly entityId?: string };
  readonly paymentBrand?: unknown;
  readonly currency?: unknown;
}

/** The entityId a request sends (or its legacy `authentication.entityId`). */
export const entityIdOf = (request: unknown): string | undefined => {
  const value = request as ChannelParameters;
  return value.entityId ?? value.authentication?.entityId;
};

export interface ChannelOptions {
  /**
   * Dispatching matches the request's brand and currency, and a merchant without a channel that
   * accepts them is answered 400 600.200.201 (true, the default); false: neither is looked at and
   * every refusal is a 403 (reads of records, as the reporting detail paths).
   */
  readonly dispatchOnRequest?: boolean;
}

/**
 * `c.var.channel`: the channel the token and the request's entityId name, of this environment.
 * After `credentials` and `parse`.
 */
export function channel(
  deps: { readonly env: Envelope; readonly environment: Environment },
  channels: Pick<Store, 'getChannel' | 'listChannels' | 'getMerchant'>,
  options: ChannelOptions = {},
): MiddlewareHandler<ChannelMiddlewareEnv> {
  const { env } = deps;
  const dispatchOnRequest = options.dispatchOnRequest ?? true;
  const cached = (channels as Partial<CachedChannels>).cachedChannel;
  const resolve = async (c: Context<ChannelMiddlewareEnv>, next: Next, value: ChannelParameters) => {
    const needs: DispatchNeeds = dispatchOnRequest
      ? {
          ...(typeof value.paymentBrand === 'string' ? { brand: value.paymentBrand } : {}),
          ...(typeof value.currency === 'string' ? { currency: value.currency } : {}),
        }
      : {};
    const resolved = await resolveChannel(
      channels,
      c.get('token'),
      entityIdOf(value),
      deps.environment,
      needs,
    );
    if (!resolved.ok) {
      if (resolved.status === 400 && dispatchOnRequest)
        return env.send(c, 400, {
          code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
          description: `Channel/Merchant not configured for this payment method: ${resolved.description}`,
        });
      return env.send(c, 403, { code: ResultCodes.INVALID_AUTH, description: resolved.description });
    }
    c.set('channel', resolved.channel);
    await next();
  };
  return (c, next) => {
    const value = c.get('request') as ChannelParameters;
    // A channel id whose channel is cached and usable, as nearly every request names: decided
    // here, without resolveChannel's three promises (the same answer: resolveChannel's last case).
    const entityId = entityIdOf(value);
    const token = c.get('token');
    if (cached !== undefined && entityId !== undefined && entityId !== token.merchantId) {
      const channel = cached(entityId)?.value;
      if (channel !== undefined && mayUse(token, channel, deps.environment)) {
        c.set('channel', channel);
        return next();
      }
    }
    return resolve(c, next, value);
  };
}

type ChannelMiddlewareEnv = TokenEnv & { Variables: { request: unknown } } & ChannelEnv;

/** What {@link cachedChannels} adds to its store: a look at the cache alone. */
interface CachedChannels {
  cachedChannel(id: string): { readonly value: Channel | undefined } | undefined;
}
