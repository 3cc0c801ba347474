/**
 * Authentication (spec: Authentication; decisions: Credentials): a Bearer token, or the legacy
 * `authentication.userId`/`authentication.password` parameters, both naming the same
 * `userId|secret`. Then the channel: `entityId` (or legacy `authentication.entityId`) must be a
 * channel the token may use; it may be left out when the token has exactly one.
 */
import type { AccessToken, Channel } from '../../shared/engine/core/model';
import type { Store } from '../../shared/engine/core/ports';
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
  | { readonly ok: false; readonly status: 403; readonly description: string };

/**
 * Channel lookups, cached for a few seconds like tokens: every request names its channel, and
 * settings changes (throttle, 3-D Secure) may take that long to apply.
 */
export function cachedChannels(store: Store, now: () => number = Date.now, ttlMs = 5_000): Store {
  const byId = expiringMap<Channel | undefined>(now);
  const byMerchant = expiringMap<Channel[]>(now);
  return Object.assign(Object.create(store) as Store, {
    async getChannel(id: string) {
      return (await byId.load(id, ttlMs, () => store.getChannel(id))).value;
    },
    async listChannels(merchantId: string) {
      return (await byMerchant.load(merchantId, ttlMs, () => store.listChannels(merchantId))).value;
    },
  });
}

/** The channel a request acts for, given the token and the entityId sent (if any). */
export async function resolveChannel(
  store: Pick<Store, 'getChannel' | 'listChannels'>,
  token: AccessToken,
  entityId: string | undefined,
): Promise<ChannelResolution> {
  const refuse = (description: string): ChannelResolution => ({ ok: false, status: 403, description });
  if (entityId === undefined) {
    const usable =
      token.channelIds.length > 0
        ? token.channelIds
        : (await store.listChannels(token.merchantId)).map((c) => c.id);
    if (usable.length !== 1) return refuse('entityId is required: this token may use more than one channel');
    entityId = usable[0]!;
  }
  const channel = await store.getChannel(entityId);
  if (
    channel === undefined ||
    channel.merchantId !== token.merchantId ||
    (token.channelIds.length > 0 && !token.channelIds.includes(channel.id))
  ) {
    return refuse('invalid authentication information: this token may not use that entityId');
  }
  return { ok: true, channel };
}
