/**
 * /v1/payments: initial payments, referencing requests and status.
 */
import type { Context, Hono } from 'hono';
import { withIntegrity } from '../../../shared/engine/answers/echo';
import { createPayment } from '../../../shared/engine/operations/initial-payment';
import { referencePayment, unknownReference } from '../../../shared/engine/operations/referencing';
import { describe, ResultCodes } from '../../../shared/result-codes';
import { type GatewayEnv, publicOrigin, type RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';
import { namedChannel } from '../payment-reads';

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

/** HTTP 400 with a catalogue code and its own text: a referencing request that names nothing. */
const refusal = (deps: RouteDeps, c: Context, code: string): Response =>
  deps.env.send(c, 400, { code, description: describe(code) ?? '' });

/** The widget script's SRI hash, answered for integrity=true (the widget build; none without one). */
export interface IntegrityDeps {
  readonly integrity?: () => string | undefined;
}

export function paymentRoutes(
  app: Hono<GatewayEnv>,
  deps: RouteDeps & IntegrityDeps,
  mw: GatewayMiddleware,
): void {
  const { answer, invalid, visible, serialize, using } = mw;
  const notFound = (c: Context) => transactionNotFound(deps, c);
  const refused = (c: Context, code: string) => refusal(deps, c, code);
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
      const request = withIntegrity(c.get('request'), deps.integrity);
      const outcome = await createPayment(using(c.get('store')), caller, request, context);
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
      if (referenced === undefined) return refused(c, unknownReference(request.paymentType).code);
      // Channel dispatching (entityId = the merchant's id): a reference goes to its payment's channel.
      const channel =
        (request as { entityId?: string }).entityId === token.merchantId
          ? ((await mw.channels.getChannel(referenced.channelId)) ?? c.var.channel)
          : c.var.channel;
      const caller = { merchantId: token.merchantId, channel };
      const outcome = await serialize(id, () => referencePayment(using(store), caller, id, request));
      if (outcome.kind === 'unknown') return refused(c, outcome.code);
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
    async (c) => {
      const token = c.get('token');
      const scope = namedChannel(c.get('request'), token, c.get('channel'));
      return (await mw.readPayment(c, token, c.req.param('id'), scope)) ?? notFound(c);
    },
  );
}
