/**
 * A merchant's access tokens: created (for some of its channels or all of one environment's; the
 * token shown once), listed with their last use, revoked. One view for every face.
 */
import type { z } from 'zod';
import { newTokenInput } from '../../../shared/contract/admin-inputs';
import {
  type AccessToken,
  type Environment,
  environmentOf,
  tokenEnvironment,
} from '../../../shared/engine/core/model';
import type { BackofficeContext } from '../context';
import { BackofficeError, checked, type FieldError, invalid, notFound, parsed } from '../errors';
import { requireMerchant } from '../merchants/merchants';
import { type IssuedToken, issueToken } from './issue';

export interface TokenView {
  readonly id: string;
  readonly merchantId: string;
  readonly userId: string;
  readonly environment: Environment;
  /** Empty: all of the merchant's channels of the token's environment. */
  readonly channels: readonly string[];
  readonly createdAt: string;
  /** Recorded at most once a minute (middleware/credentials/last-use.ts); null: never used, or not read. */
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

export const tokenView = (t: AccessToken, lastUsedAt?: Date): TokenView => ({
  id: t.id,
  merchantId: t.merchantId,
  userId: t.userId,
  environment: tokenEnvironment(t),
  channels: [...t.channelIds],
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: lastUsedAt?.toISOString() ?? null,
  revokedAt: t.revokedAt?.toISOString() ?? null,
});

export { newTokenInput };
export type NewToken = z.infer<typeof newTokenInput>;
export const parseNewToken = (input: unknown): NewToken => parsed(newTokenInput, input);

/**
 * A new token for the merchant's channels named (each once), all of one environment: the one the
 * input names, else the channels', else test. Every field's error at once: the input's form and
 * whether the channels are the merchant's.
 */
export async function createToken(
  ctx: BackofficeContext,
  merchantId: string,
  input: unknown,
): Promise<IssuedToken> {
  const merchant = await requireMerchant(ctx.store, merchantId);
  const verdict = checked(newTokenInput, input);
  const given = verdict.ok ? verdict.value.channels : (input as { channels?: unknown } | null)?.channels;
  const ids = Array.isArray(given)
    ? [...new Set(given.filter((id): id is string => typeof id === 'string'))]
    : [];
  const own = new Map((await ctx.store.listChannels(merchant.id)).map((ch) => [ch.id, ch]));
  const errors = verdict.ok ? [] : verdict.errors;
  const channelsError = (message: string): FieldError => ({
    name: 'channels',
    value: JSON.stringify(given ?? []),
    message,
  });
  if (ids.some((id) => !own.has(id)) && !errors.some((e) => e.name === 'channels'))
    errors.push(channelsError('must list the merchant’s entityIds'));
  if (!verdict.ok || errors.length > 0) throw invalid(errors);
  // a token belongs to one environment: test channels and live channels never share one
  const modes = new Set(ids.map((id) => environmentOf(own.get(id)!.mode)));
  if (modes.size > 1)
    throw invalid([channelsError('may not mix test and live channels: one token per environment')]);
  const fromChannels = [...modes][0];
  const wanted = verdict.value.environment ?? fromChannels ?? 'test';
  if (fromChannels !== undefined && fromChannels !== wanted)
    throw invalid([
      channelsError(
        `does not match the environment ${wanted}: they are ${fromChannels} channels (one token per environment)`,
      ),
    ]);
  const issued = await issueToken(ctx.store, {
    merchantId: merchant.id,
    channelIds: ids,
    environment: wanted,
    now: ctx.clock.now(),
  });
  await ctx.audit('token.create', issued.token.id, merchant.id);
  return issued;
}

/** The merchant's tokens with their last use (a store that does not record it: none). */
export async function listTokens(
  ctx: Pick<BackofficeContext, 'store'>,
  merchantId: string,
): Promise<TokenView[]> {
  const merchant = await requireMerchant(ctx.store, merchantId);
  const store = ctx.store as typeof ctx.store & {
    tokenLastUse?: (merchantId: string) => Promise<Map<string, Date>>;
  };
  const [tokens, lastUse] = await Promise.all([
    store.listTokens(merchant.id),
    store.tokenLastUse?.(merchant.id) ?? new Map<string, Date>(),
  ]);
  return tokens.map((t) => tokenView(t, lastUse.get(t.id)));
}

export interface Revoked {
  readonly tokenId: string;
  readonly revokedAt: Date;
  /** The token, when its merchant was named. */
  readonly token?: AccessToken;
}

/**
 * Revokes an active token; a server refuses it within a few seconds (its token cache). Named with
 * its merchant (the admin API) or alone (the CLI: operators read every entry, its merchant is not
 * looked up).
 */
export async function revokeToken(
  ctx: BackofficeContext,
  tokenId: string,
  merchantId: string | null,
): Promise<Revoked> {
  const at = ctx.clock.now();
  if (merchantId === null) {
    if (!(await ctx.store.revokeToken(tokenId, at)))
      throw new BackofficeError(
        'not-found',
        `no active token ${tokenId} (unknown or already revoked)`,
        [],
        'token',
      );
    await ctx.audit('token.revoke', tokenId, null);
    return { tokenId, revokedAt: at };
  }
  const token = (await ctx.store.listTokens(merchantId)).find((t) => t.id === tokenId);
  if (token === undefined) throw notFound('token', tokenId);
  await ctx.store.revokeToken(token.id, at);
  await ctx.audit('token.revoke', token.id, merchantId);
  const revokedAt = token.revokedAt ?? at;
  return { tokenId, revokedAt, token: { ...token, revokedAt } };
}
