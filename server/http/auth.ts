/**
 * Authentication (spec: Authentication; decisions: Credentials): a Bearer token, or the legacy
 * `authentication.userId`/`authentication.password` parameters, both naming the same
 * `userId|secret`. Then the channel: `entityId` (or legacy `authentication.entityId`) must be a
 * channel the token may use; it may be left out when the token has exactly one.
 */
import type { AccessToken, Channel } from '../../shared/engine/model';
import type { Store } from '../../shared/engine/ports';
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

/**
 * Checks credentials against the stored tokens. Tokens are cached for a few seconds, so a burst
 * of payments does not read the same token thousands of times; revoking takes effect within that.
 */
export function tokenChecker(store: Store, now: () => number = Date.now, ttlMs = 5_000) {
  const cache = new Map<string, { token: AccessToken | undefined; until: number }>();
  // Credentials that matched, for as long as their token stays cached: a merchant's stream of
  // requests then skips hashing the same secret again (a tenth of a status read's CPU).
  const verified = new Map<string, { token: AccessToken; until: number }>();
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
    const t = now();
    const known = `${credentials.userId}|${credentials.secret}`;
    const hit = verified.get(known);
    if (hit !== undefined && hit.until >= t) return { ok: true, token: hit.token };
    let entry = cache.get(credentials.userId);
    if (entry === undefined || entry.until < t) {
      entry = { token: await store.getTokenByUserId(credentials.userId), until: t + ttlMs };
      if (cache.size > 10_000) cache.clear();
      cache.set(credentials.userId, entry);
    }
    const token = entry.token;
    if (
      token === undefined ||
      token.revokedAt !== null ||
      !verifySecret(credentials.secret, token.secretHash)
    ) {
      return { ok: false, status: 403, description: 'invalid authentication information' };
    }
    if (verified.size > 10_000) verified.clear();
    verified.set(known, { token, until: entry.until });
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
  const byId = new Map<string, { channel: Channel | undefined; until: number }>();
  const byMerchant = new Map<string, { channels: Channel[]; until: number }>();
  return Object.assign(Object.create(store) as Store, {
    async getChannel(id: string) {
      const t = now();
      let entry = byId.get(id);
      if (entry === undefined || entry.until < t) {
        entry = { channel: await store.getChannel(id), until: t + ttlMs };
        if (byId.size > 10_000) byId.clear();
        byId.set(id, entry);
      }
      return entry.channel;
    },
    async listChannels(merchantId: string) {
      const t = now();
      let entry = byMerchant.get(merchantId);
      if (entry === undefined || entry.until < t) {
        entry = { channels: await store.listChannels(merchantId), until: t + ttlMs };
        if (byMerchant.size > 10_000) byMerchant.clear();
        byMerchant.set(merchantId, entry);
      }
      return entry.channels;
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
