/**
 * A merchant's access tokens (`/admin/v1/merchants/{merchantId}/tokens`): listed with their last
 * use (recorded at most once a minute, middleware/credentials/last-use.ts), created by a merchant
 * admin or operator (the token shown once: only its userId and a hash of its secret are kept),
 * revoked. The spec's "obtained from the administration interface under the merchant/channel
 * information, and only for users with the needed administration rights".
 */
import { createToken, listTokens, revokeToken, tokenView } from '../../../backoffice/tokens/tokens';
import type { RouteDeps } from '../../context';
import { type AdminKit, param } from './shared';

export function tokenRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, body, route, act } = kit;

  route('GET', '/admin/v1/merchants/:merchantId/tokens', 'read', (c) =>
    act(c, async (ctx) => {
      const tokens = await listTokens(ctx, param(c, 'merchantId'));
      return env.send(c, 200, ok, { tokens });
    }),
  );

  route('POST', '/admin/v1/merchants/:merchantId/tokens', 'write', (c) =>
    act(c, async (ctx) => {
      const merchantId = param(c, 'merchantId');
      // an unknown merchant is answered before the body is read
      if ((await deps.store.getMerchant(merchantId)) === undefined) return kit.notFound(c, 'merchant');
      const input = await body(c);
      if (input instanceof Response) return input;
      const { token, accessToken } = await createToken(ctx, merchantId, input);
      return env.send(c, 201, ok, { ...tokenView(token), accessToken });
    }),
  );

  route('DELETE', '/admin/v1/merchants/:merchantId/tokens/:id', 'write', (c) =>
    act(c, async (ctx) => {
      const revoked = await revokeToken(ctx, param(c, 'id'), param(c, 'merchantId'));
      return env.send(c, 200, ok, tokenView(revoked.token!));
    }),
  );
}
