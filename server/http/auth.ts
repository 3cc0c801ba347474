/**
 * Authentication (spec: Authentication; decisions: Credentials): a Bearer token, or the legacy
 * `authentication.userId`/`authentication.password` parameters, both naming the same
 * `userId|secret`. Then the channel: `entityId` (or legacy `authentication.entityId`) must be a
 * channel the token may use, of the environment of the address the request came to (test or
 * live); it may be left out when the token has exactly one there. With channel dispatching on,
 * it may be the merchant's id: the gateway picks the channel.
 */

import { brandKind } from '../../shared/brands';
import {
  type AccessToken,
  type Channel,
  type Environment,
  environmentOf,
  type Merchant,
} from '../../shared/engine/core/model';
import type { Store } from '../../shared/engine/core/ports';
import { channelRefusal } from '../../shared/engine/steps/payment-method';
import {
  type Credentials,
  credentialsFromParams,
  parseAuthorization,
  verifySecret,
} from '../security/tokens';

export type Authenticated = { readonly ok: true; readonly token: AccessToken };
export type AuthFailure = { readonly ok: false; readonly status: 401 | 403; readonly description: string };

/** Reads credentials from the header, else from legacy parameters (body or query). */
export function credentialsOf(header: string | undefined, rawParams: () => URLSearchParams): Credentials {
  const fromHeader = parseAuthorization(header);
  if (fromHeader.kind !== 'missing') return fromHeader;
  const params = rawParams();
  const userId = params.get('authentication.userId') ?? undefined;
  const password = params.get('authentication.password') ?? undefined;
  return credentialsFromParams({
    ...(userId === undefined ? {} : { 'authentication.userId': userId }),
    ...(password === undefined ? {} : { 'authentication.password': password }),
  });
}

/** Entries past this many start the map over: the caches stay bounded whatever the keys. */
const MAX_ENTRIES = 10_000;

interface Entry<V> {
  readonly value: V;
  /** Valid while `now() <= until`. */
  readonly until: number;
}

/** A map whose entries expire; `load` fills a missing or expired entry for `ttlMs`. */
function expiringMap<V>(now: () => number) {
  const entries = new Map<string, Entry<V>>();
  const map = {
    get(key: string): Entry<V> | undefined {
      const entry = entries.get(key);
      return entry !== undefined && entry.until >= now() ? entry : undefined;
    },
    set(key: string, value: V, until: number): Entry<V> {
      if (entries.size > MAX_ENTRIES) entries.clear();
      const entry = { value, until };
      entries.set(key, entry);
      return entry;
    },
    async load(key: string, ttlMs: number, load: () => Promise<V>): Promise<Entry<V>> {
      return map.get(key) ?? map.set(key, await load(), now() + ttlMs);
    },
  };
  return map;
}

/**
 * Checks credentials against the stored tokens. Tokens are cached for a few seconds, so a burst
 * of payments does not read the same token thousands of times; revoking takes effect within that.
 */
export function tokenChecker(store: Store, now: () => number = Date.now, ttlMs = 5_000) {
  const tokens = expiringMap<AccessToken | undefined>(now);
  // Credentials that matched, for as long as their token stays cached: a merchant's stream of
  // requests then skips hashing the same secret again (a tenth of a status read's CPU).
  const verified = expiringMap<AccessToken>(now);
  return async (credentials: Credentials): Promise<Authenticated | AuthFailure> => {
    if (credentials.kind === 'missing') {
      return {
        ok: false,
        status: 401,
        description: 'missing authentication: send Authorization: Bearer <token>',
      };
    }
    if (credentials.kind === 'malformed') {
      return {
        ok: false,
        status: 401,
        description: 'malformed Authorization header: expected Bearer <token>',
      };
    }
    const known = `${credentials.userId}|${credentials.secret}`;
    const hit = verified.get(known);
    if (hit !== undefined) return { ok: true, token: hit.value };
    const entry = await tokens.load(credentials.userId, ttlMs, () =>
      store.getTokenByUserId(credentials.userId),
    );
    const token = entry.value;
    if (
      token === undefined ||
      token.revokedAt !== null ||
      !verifySecret(credentials.secret, token.secretHash)
    ) {
      return { ok: false, status: 403, description: 'invalid authentication information' };
    }
    verified.set(known, token, entry.until);
    return { ok: true, token };
  };
}

export type ChannelResolution =
  | { readonly ok: true; readonly channel: Channel }
  | { readonly ok: false; readonly status: 403; readonly description: string }
  /** Dispatching found no channel of the merchant that accepts the brand and currency: 600.200.201. */
  | { readonly ok: false; readonly status: 400; readonly description: string };

/**
 * Channel lookups, cached for a few seconds like tokens: every request names its channel, and
 * settings changes (throttle, 3-D Secure, dispatching) may take that long to apply.
 */
export function cachedChannels(store: Store, now: () => number = Date.now, ttlMs = 5_000): Store {
  const byId = expiringMap<Channel | undefined>(now);
  const byMerchant = expiringMap<Channel[]>(now);
  const merchants = expiringMap<Merchant | undefined>(now);
  return Object.assign(Object.create(store) as Store, {
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

/** Whether a token may use a channel: its merchant's, of the environment, and among its channels if it names some. */
export const mayUse = (token: AccessToken, channel: Channel, environment: Environment): boolean =>
  channel.merchantId === token.merchantId &&
  environmentOf(channel.mode) === environment &&
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
  const refuse = (description: string): ChannelResolution => ({ ok: false, status: 403, description });
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
  const channel = await store.getChannel(entityId);
  if (channel === undefined || !mayUse(token, channel, environment)) {
    return refuse('invalid authentication information: this token may not use that entityId');
  }
  return { ok: true, channel };
}
