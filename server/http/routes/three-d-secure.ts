/**
 * /v1/threeDSecure: stand-alone 3-D Secure (shared/engine/operations/three-d-secure.ts). The
 * merchant's server asks for an authentication of a card and reads its result; a challenge sends
 * the shopper to the simulated issuer's page (or the app's SDK to its access control server) as a
 * payment's challenge does. Credentials, channel, throttle and idempotency as for /v1/payments.
 */
import type { Context, Hono } from 'hono';
import {
  AUTHENTICATION_PAYMENT_TYPE,
  authenticateStandalone,
} from '../../../shared/engine/operations/three-d-secure';
import { type GatewayEnv, publicOrigin, type RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';
import { transactionNotFound } from './payments';

export function threeDSecureRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const { answer, invalid, visible, using } = mw;
  // an id that names no authentication of this merchant
  const notFound = (c: Context) => transactionNotFound(deps, c);

  app.post(
    '/v1/threeDSecure',
    mw.body,
    mw.credentials,
    mw.parse('threeDSecure'),
    mw.channel,
    mw.throttle('threeDSecure.create'),
    mw.idempotency(),
    async (c) => {
      const { token, channel, request, store } = c.var;
      const caller = { merchantId: token.merchantId, channel };
      const outcome = await authenticateStandalone(using(store), caller, request, {
        baseUrl: publicOrigin(deps),
      });
      return outcome.kind === 'invalid' ? invalid(c, 400, outcome.errors) : answer(c, outcome.payment);
    },
  );

  app.get(
    '/v1/threeDSecure/:id',
    mw.body,
    mw.credentials,
    mw.parse('entity'),
    mw.channel,
    mw.throttle('threeDSecure.get'),
    async (c) => {
      const found = await visible(c.var.token, c.req.param('id'));
      // a payment's id is not an authentication's
      if (found === undefined || found.paymentType !== AUTHENTICATION_PAYMENT_TYPE) return notFound(c);
      return answer(c, found);
    },
  );
}
