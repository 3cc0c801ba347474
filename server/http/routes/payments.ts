/**
 * /v1/payments: initial payments, referencing requests and status.
 */
import type { Context, Hono } from 'hono';
import { createPayment } from '../../../shared/engine/operations/initial-payment';
import { referencePayment } from '../../../shared/engine/operations/referencing';
import { describe, ResultCodes } from '../../../shared/result-codes';
import { type GatewayEnv, publicOrigin, type RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';

/**
 * 404 for an id that names no payment (or stand-alone authentication, three-d-secure.ts) the
 * caller may see, read or referenced: the catalogue's code and its own text.
 */
export function transactionNotFound(deps: RouteDeps, c: Context): Response {
  return deps.env.send(c, 404, {
    code: ResultCodes.TRANSACTION_NOT_FOUND,
    description: describe(ResultCodes.TRANSACTION_NOT_FOUND) ?? '',
  });
}

export function paymentRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const { answer, invalid, visible, serialize, using } = mw;
  const notFound = (c: Context) => transactionNotFound(deps, c);
  const context = { baseUrl: publicOrigin(deps) };

  app.post(
    '/v1/payments',
    mw.body,
    mw.credentials,
    mw.parse('payment'),
    mw.channel,
    mw.throttle('payments.create'),
    mw.idempotency(),
    async (c) => {
      // c.get, not c.var: Hono makes c.var a new object of every variable at each read
      const token = c.get('token');
      const caller = { merchantId: token.merchantId, channel: c.get('channel') };
      const outcome = await createPayment(using(c.get('store')), caller, c.get('request'), context);
      return outcome.kind === 'invalid' ? invalid(c, 400, outcome.errors) : mw.created(c, outcome.payment);
    },
  );

  app.post(
    '/v1/payments/:id',
    mw.body,
    mw.credentials,
    mw.parse('referencing'),
    mw.channel,
    mw.throttle('payments.reference'),
    mw.idempotency(),
    async (c) => {
      const { token, request, store } = c.var;
      const id = c.req.param('id');
      const referenced = await visible(token, id);
      if (referenced === undefined) return notFound(c);
      // Channel dispatching (entityId = the merchant's id): a reference goes to its payment's channel.
      const channel =
        (request as { entityId?: string }).entityId === token.merchantId
          ? ((await mw.channels.getChannel(referenced.channelId)) ?? c.var.channel)
          : c.var.channel;
      const caller = { merchantId: token.merchantId, channel };
      const outcome = await serialize(id, () => referencePayment(using(store), caller, id, request));
      if (outcome.kind === 'not-found') return notFound(c);
      return outcome.kind === 'invalid' ? invalid(c, 400, outcome.errors) : answer(c, outcome.payment);
    },
  );

  app.get(
    '/v1/payments/:id',
    mw.body,
    mw.credentials,
    mw.parse('entity'),
    mw.channel,
    mw.throttle('payments.get'),
    async (c) => (await mw.readPayment(c, c.get('token'), c.req.param('id'))) ?? notFound(c),
  );
}
