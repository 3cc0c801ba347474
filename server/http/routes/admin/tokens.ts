/**
 * A merchant's access tokens (`/admin/v1/merchants/{merchantId}/tokens`): listed with their last
 * use (recorded at most once a minute, middleware/credentials/last-use.ts), created by a merchant
 * admin or operator (the token shown once: only its userId and a hash of its secret are kept),
 * revoked. The spec's "obtained from the administration interface under the merchant/channel
 * information, and only for users with the needed administration rights".
 */
import {
  type AccessToken,
  type Environment,
  environmentOf,
  tokenEnvironment,
} from '../../../../shared/engine/core/model';
import { issueToken } from '../../../admin/tokens';
import type { RouteDeps } from '../../context';
import { type AdminKit, param } from './shared';

const tokenView = (t: AccessToken, lastUsedAt: Date | undefined) => ({
  id: t.id,
  userId: t.userId,
  environment: tokenEnvironment(t),
  channels: t.channelIds,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: lastUsedAt?.toISOString() ?? null,
  revokedAt: t.revokedAt?.toISOString() ?? null,
});

export function tokenRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, body, merchantOf, route, audit } = kit;

  route('GET', '/admin/v1/merchants/:merchantId/tokens', 'read', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const [tokens, lastUse] = await Promise.all([
      deps.store.listTokens(merchant.id),
      deps.store.tokenLastUse(merchant.id),
    ]);
    return env.send(c, 200, ok, { tokens: tokens.map((t) => tokenView(t, lastUse.get(t.id))) });
  });

  route('POST', '/admin/v1/merchants/:merchantId/tokens', 'write', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const input = await body(c);
    if (input instanceof Response) return input;
    const errors = [];
    const { environment, channels } = input;
    if (environment !== undefined && environment !== 'test' && environment !== 'live')
      errors.push({ name: 'environment', value: String(environment), message: 'must be test or live' });
    const ids = channels === undefined ? [] : channels;
    const own = new Map((await deps.store.listChannels(merchant.id)).map((ch) => [ch.id, ch]));
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || !own.has(id)))
      errors.push({
        name: 'channels',
        value: JSON.stringify(channels),
        message: 'must list the merchant’s entityIds',
      });
    if (errors.length > 0) return invalid(c, errors);
    const modes = new Set((ids as string[]).map((id) => environmentOf(own.get(id)!.mode)));
    const wanted = (environment as Environment | undefined) ?? [...modes][0] ?? 'test';
    if (modes.size > 1 || (modes.size === 1 && !modes.has(wanted)))
      return invalid(c, [
        {
          name: 'channels',
          value: JSON.stringify(channels),
          message: `must all be ${wanted} channels (one token per environment)`,
        },
      ]);
    const { token, accessToken } = await issueToken(deps.store, {
      merchantId: merchant.id,
      channelIds: ids as string[],
      environment: wanted,
      now: deps.clock.now(),
    });
    await audit(c, 'token.create', token.id, merchant.id);
    return env.send(c, 201, ok, { ...tokenView(token, undefined), accessToken });
  });

  route('DELETE', '/admin/v1/merchants/:merchantId/tokens/:id', 'write', async (c) => {
    const merchantId = param(c, 'merchantId');
    const token = (await deps.store.listTokens(merchantId)).find((t) => t.id === param(c, 'id'));
    if (token === undefined) return notFound(c, 'token');
    const at = deps.clock.now();
    await deps.store.revokeToken(token.id, at);
    await audit(c, 'token.revoke', token.id, merchantId);
    return env.send(c, 200, ok, tokenView({ ...token, revokedAt: token.revokedAt ?? at }, undefined));
  });
}
