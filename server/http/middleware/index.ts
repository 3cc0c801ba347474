/**
 * The gateway's middleware, built once per app (their caches are the app's): a route composes
 * what it needs, in this order, and its handler reads the typed values they leave on the context:
 *
 *   app.post('/v1/payments', mw.body, mw.credentials, mw.parse('payment'), mw.channel,
 *     mw.throttle('payments.create'), mw.idempotency(), handler)
 *
 * body (c.var.body) → credentials (c.var.token) → parse (c.var.request) → channel (c.var.channel)
 * → throttle → idempotency (c.var.store) → the handler. Each answers its own refusal and stops
 * the chain. Transport (HTTPS, HSTS, nosniff) runs before all of them, on every path (app.ts).
 */
import type { Context } from 'hono';
import type { AccessToken, Channel, Payment } from '../../../shared/engine/core/model';
import type { GatewayStore } from '../../storage';
import type { RouteDeps } from '../context';
import { paymentReads } from '../payment-reads';
import { body, createParse } from './body';
import { cachedChannels, channel, mayUse } from './channel';
import { checkout, checkoutChannel, noSession } from './channel/checkout';
import { authenticator, credentials, optionalCredentials } from './credentials';
import { invalid, paymentAnswer, renderedPaymentAnswer } from './envelope';
import { createIdempotency } from './idempotency';
import { throttle, throttled } from './throttle';
import { workBudget } from './work-budget';

export function gatewayMiddleware(deps: RouteDeps) {
  const { env } = deps;
  const channels = cachedChannels(deps.store);
  const authenticate = authenticator(deps);
  const answer = paymentAnswer(env, deps.processors);
  // On a create's way nothing sets a header with c.header() (refusals do, and answer themselves).
  const created = paymentAnswer(env, deps.processors, { fresh: true });
  const idempotency = createIdempotency(deps.store, deps.clock, env, {
    answer,
    ...(deps.unseal === undefined ? {} : { seal: deps.seal, open: deps.unseal }),
  });
  const readPayment = paymentReads({
    environment: deps.environment,
    getPayment: (merchantId, id) => deps.store.getPayment(merchantId, id),
    getChannel: (id) => channels.getChannel(id),
    render: renderedPaymentAnswer(env, deps.processors),
    answer,
    sendRendered: (c, rendered) => env.sendRendered(c, rendered),
  });
  // What these caches hold beyond a quiet gateway's needs, given back once it is idle.
  for (const cache of [readPayment, channels, authenticate]) deps.idle?.add(cache.release);
  // What a sender's bodies cost to parse, charged to it: asked before a body is read and parsed.
  const budget = workBudget(deps);
  return {
    // -- middleware
    body: body({ ...deps, early: budget.early }),
    /** The checkout routes' body: the small public limit without an Authorization header. */
    publicBody: body({ ...deps, early: budget.early }, { public: true }),
    credentials: credentials(authenticate),
    optionalCredentials: optionalCredentials(authenticate),
    parse: createParse({ ...deps, budget: budget.gate }),
    channel: channel(deps, channels),
    /** The channel of a read (reporting's detail paths): no dispatching by brand or currency. */
    readChannel: channel(deps, channels, { dispatchOnRequest: false }),
    checkout: checkout(deps),
    checkoutChannel: checkoutChannel(deps, channels),
    throttle: (operation: string) => throttle(deps, operation),
    idempotency,

    // -- what handlers share
    /** Channel lookups, cached for a few seconds. */
    channels,
    authenticate,
    answer,
    /** A new payment's answer, from the handler of a route whose middleware set no header (c.header()) on its way. */
    created,
    invalid: (c: Context, status: 400 | 413, errors: Parameters<typeof invalid>[3]) =>
      invalid(env, c, status, errors),
    noSession: (c: Context, checkoutId: string) => noSession(env, c, checkoutId),
    /** The throttle's answer for a handler that throttles by itself (a checkout's public session). */
    throttled: (c: Context, tokenId: string, operation: string, on: Channel, id?: string) =>
      throttled(deps, c, tokenId, operation, on, id),
    /** GET /v1/payments/{id}'s answer (a final payment's kept), undefined when the token may not see it. */
    readPayment,
    /** A payment the token may see: its merchant's, on a channel the token may use, of this environment. */
    async visible(token: AccessToken, id: string): Promise<Payment | undefined> {
      const payment = await deps.store.getPayment(token.merchantId, id);
      if (payment === undefined) return undefined;
      const ch = await channels.getChannel(payment.channelId);
      return ch !== undefined && mayUse(token, ch, deps.environment) ? payment : undefined;
    },
    /** References to one payment run one at a time, across processes too, so two captures cannot both take the rest. */
    serialize: <T>(paymentId: string, task: () => Promise<T>) =>
      deps.store.exclusive(`payment:${paymentId}`, task),
    /** The route's dependencies on `store` (the one an Idempotency-Key's work runs on). */
    using: (store: GatewayStore): RouteDeps => (store === deps.store ? deps : { ...deps, store }),
  };
}

export type GatewayMiddleware = ReturnType<typeof gatewayMiddleware>;
