/**
 * /v1/checkouts: the Checkout API (COPYandPAY). The merchant's server creates a checkout; the
 * widget reads its session and submits the shopper's account data; the merchant's server reads
 * the status. The engine part is shared/engine/operations/checkout/.
 *
 * Creation is merchant-authenticated like every API route. The other routes are authorized by
 * the checkout id itself (128 random bits, the bearer secret): the widget runs in the shopper's
 * browser, which must never hold merchant credentials, and a few old clients read the status
 * without credentials (compat). Credentials that are sent must still belong to the checkout.
 * Without credentials, a status and a submission's answer show only what decisions allow
 * (shared/engine/answers/public-view.ts): no personal data, since the id is no proof of being the merchant.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { publicPaymentView, publicRegistrationView } from '../../../shared/engine/answers/public-view';
import { registrationResponse } from '../../../shared/engine/answers/registration';
import { paymentResponse } from '../../../shared/engine/answers/response';
import type { CheckoutKind } from '../../../shared/engine/core/model';
import {
  CheckoutCodes,
  type CheckoutDeps,
  type CheckoutResult,
  checkoutSession,
  checkoutStatus,
  createCheckout,
  NO_SESSION_DESCRIPTION,
  type SubmissionOutcome,
  submitCheckout,
  updateCheckout,
} from '../../../shared/engine/operations/checkout';
import { describe, ResultCodes } from '../../../shared/result-codes';
import type { WalletTokenIssuer } from '../../security/wallet-tokens';
import { type GatewayEnv, publicOrigin, type RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';
import { inEnvironment } from '../middleware/channel';
import { statusOf } from '../middleware/envelope';

export interface CheckoutRouteDeps extends RouteDeps, Omit<CheckoutDeps, 'store'> {
  /**
   * The SRI hash of the widget script, answered as `integrity` when a checkout is created with
   * integrity=true (the widget build's manifest); while it returns undefined (no build) the field
   * is left out rather than invented.
   */
  readonly integrity?: () => string | undefined;
  readonly wallets?: WalletTokenIssuer;
}

/** The widget calls these from the shop's origin; nothing here relies on cookies, so any origin may read. */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept',
  'Access-Control-Max-Age': '600',
} as const;

const withCors = (c: Context): void => {
  for (const [name, value] of Object.entries(CORS)) c.header(name, value);
};

/** CORS headers on whatever the route answers, refusals included. */
const cors: MiddlewareHandler = async (c, next) => {
  withCors(c);
  await next();
};

export function checkoutRoutes(app: Hono<GatewayEnv>, deps: CheckoutRouteDeps, mw: GatewayMiddleware): void {
  const { env } = deps;
  const { noSession, throttled, invalid } = mw;
  const answers = checkoutAnswers(deps, mw);

  app.post(
    '/v1/checkouts',
    mw.body,
    mw.credentials,
    mw.parse('checkout'),
    mw.channel,
    mw.throttle('checkouts.create'),
    mw.idempotency(),
    async (c) => {
      const { token, channel, request } = c.var;
      const outcome = await createCheckout(deps, { merchantId: token.merchantId, channel }, request);
      if (outcome.kind === 'invalid') return invalid(c, 400, outcome.errors);
      if (outcome.kind === 'refused')
        return env.send(c, 400, { code: outcome.code, description: describe(outcome.code) ?? '' });
      const { id } = outcome.checkout;
      // Integrity hook: the hash of the widget build, when one is known.
      const integrity = request.integrity === 'true' ? deps.integrity?.() : undefined;
      return env.send(
        c,
        200,
        { code: CheckoutCodes.CREATED, description: describe(CheckoutCodes.CREATED) ?? '' },
        { id, ...(integrity === undefined ? {} : { integrity }) },
        id, // the family's ndc of a checkout creation is the checkout id
      );
    },
  );

  // The merchant's update of an open checkout: the credentials of creation, and a token (and
  // entityId, when sent) that may use the checkout's channel (checkoutChannel), else 403/404.
  app.post(
    '/v1/checkouts/:id',
    mw.body,
    mw.credentials,
    mw.checkout,
    mw.parse('checkoutUpdate'),
    mw.checkoutChannel,
    mw.throttle('checkouts.update'),
    mw.idempotency(),
    async (c) => {
      const { token, channel, request } = c.var;
      const id = c.req.param('id');
      const outcome = await updateCheckout(deps, { merchantId: token.merchantId, channel }, id, request);
      switch (outcome.kind) {
        case 'not-found':
          return noSession(c, id);
        case 'invalid':
          return invalid(c, 400, outcome.errors);
        case 'refused':
          return answers.answerRefused(c, id, outcome);
        case 'updated':
          return env.send(
            c,
            200,
            { code: ResultCodes.CHECKOUT_UPDATED, description: describe(ResultCodes.CHECKOUT_UPDATED) ?? '' },
            { id },
            id, // as at creation, the ndc is the checkout id
          );
      }
    },
  );

  // The widget's view of the checkout: public, readable from any origin, never a secret in it.
  app.get('/v1/checkouts/:id/session', async (c) => {
    withCors(c);
    const id = c.req.param('id');
    const checkout = await deps.store.getCheckout(id);
    if (checkout === undefined) return noSession(c, id);
    const channel = await deps.store.getChannel(checkout.channelId);
    // The widget reads its session from its own script's address: the checkout's environment's only.
    if (!inEnvironment(channel, deps.environment)) return noSession(c, id);
    const refused = throttled(c, `checkout:${id}`, 'checkouts.session', channel, id);
    if (refused !== undefined) return refused;
    const session = await checkoutSession(deps, checkout, channel);
    return env.send(
      c,
      200,
      { code: ResultCodes.SUCCESSFUL_REQUEST, description: describe(ResultCodes.SUCCESSFUL_REQUEST) ?? '' },
      session,
      checkout.id,
    );
  });

  for (const target of ['payment', 'registration'] as const satisfies readonly CheckoutKind[])
    targetRoutes(app, deps, mw, target, answers);
}

/**
 * The status of a checkout the caller cannot see (unknown, another merchant's, another
 * environment's, the other kind) is HTTP 400 `200.300.404` in the family's captured answers
 * (decisions, Wire format), as an expired one is. The checkout middleware answers those 404 for
 * every checkout route (noSession); the status read alone turns that answer into a 400, the same
 * for all of them, so the status says nothing of whose the checkout is.
 */
const unknownStatusAs400: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status === 404) c.res = new Response(c.res.body, { status: 400, headers: c.res.headers });
};

/** `/v1/checkouts/{id}/payment|registration`: the widget's submission and the merchant's status read. */
function targetRoutes(
  app: Hono<GatewayEnv>,
  deps: CheckoutRouteDeps,
  mw: GatewayMiddleware,
  target: CheckoutKind,
  { answerResult, answerSubmission }: CheckoutAnswers,
): void {
  const { env } = deps;
  const { noSession } = mw;
  const path = `/v1/checkouts/:id/${target}`;

  app.options(path, (c) => {
    withCors(c);
    return c.body(null, 204);
  });

  // What the widget submits (form-encoded, like every POST).
  app.post(
    path,
    cors,
    mw.publicBody,
    mw.optionalCredentials,
    mw.checkout,
    mw.parse('checkoutPayment', { checkUrls: false }),
    mw.checkoutChannel,
    mw.throttle(`checkouts.${target}`),
    async (c) => {
      const { checkout, channel, token } = c.var;
      const id = c.req.param('id') ?? '';
      const caller = { merchantId: checkout.merchantId, channel };
      const request =
        channel.settings.threeDSecure === true ? withBrowserHeaders(c, c.var.request) : c.var.request;
      const outcome = await submitCheckout(deps, caller, id, target, request, {
        baseUrl: publicOrigin(deps),
      });
      return answerSubmission(c, id, outcome, token === undefined ? 'submitter' : 'full');
    },
  );

  // The status the merchant reads after the shopper's return (or the notification).
  app.get(
    path,
    unknownStatusAs400,
    mw.publicBody,
    mw.optionalCredentials,
    mw.checkout,
    mw.parse('entity', { checkUrls: false }),
    mw.checkoutChannel,
    mw.throttle(`checkouts.${target}.status`),
    async (c) => {
      const { checkout, token } = c.var;
      const id = c.req.param('id') ?? '';
      // /payment answers a registration checkout's status too: the family's clients read a
      // registration at /payment (omnipay-hyperpay's GetCardInfoRequest); not the reverse
      if (checkout.kind !== target && target !== 'payment') return noSession(c, id);
      const status = await checkoutStatus(deps, checkout);
      switch (status.kind) {
        case 'open':
          return env.send(
            c,
            200,
            { code: CheckoutCodes.OPEN, description: describe(CheckoutCodes.OPEN) ?? '' },
            {},
            id,
          );
        case 'gone':
          return env.send(
            c,
            400,
            { code: CheckoutCodes.NO_SESSION, description: NO_SESSION_DESCRIPTION },
            {},
            id,
          );
        case 'payment':
        case 'registration':
          return answerResult(c, status, token === undefined ? 'public' : 'full');
      }
    },
  );
}

function checkoutAnswers(deps: CheckoutRouteDeps, mw: GatewayMiddleware) {
  const { env } = deps;
  const { noSession, invalid, answer } = mw;
  /**
   * A payment answers like GET /v1/payments/{id}; a registration like GET /v1/registrations/{id}:
   * in full for the merchant's credentials; without them cut down to the public view, which for
   * the sender of a submission also keeps `redirect` (the widget follows it).
   */
  function answerResult(c: Context, result: CheckoutResult, view: 'full' | 'public' | 'submitter'): Response {
    if (result.kind === 'payment') {
      if (view === 'full') return answer(c, result.payment);
      const {
        result: code,
        ndc,
        ...body
      } = publicPaymentView(paymentResponse(result.payment, deps.processors), {
        redirect: view === 'submitter',
      });
      return env.send(c, statusOf(result.payment.resultCode), code, body, ndc);
    }
    const full = registrationResponse(result.registration);
    return env.send(
      c,
      statusOf(result.code),
      { code: result.code, description: describe(result.code) ?? '' },
      view === 'full' ? full : publicRegistrationView(full),
      result.ndc,
    );
  }

  /** An update or submission the engine refused: 400 with its code, under the checkout's ndc. */
  function answerRefused(c: Context, id: string, refusal: { code: string; description?: string }): Response {
    return env.send(
      c,
      400,
      { code: refusal.code, description: refusal.description ?? describe(refusal.code) ?? '' },
      {},
      id,
    );
  }

  function answerSubmission(
    c: Context,
    id: string,
    outcome: SubmissionOutcome,
    view: 'full' | 'submitter',
  ): Response {
    switch (outcome.kind) {
      case 'payment':
      case 'registration':
        return answerResult(c, outcome, view);
      case 'invalid':
        return invalid(c, 400, outcome.errors);
      case 'refused':
        return answerRefused(c, id, outcome);
      case 'not-found':
        return noSession(c, id);
    }
  }
  return { answerResult, answerRefused, answerSubmission };
}

type CheckoutAnswers = ReturnType<typeof checkoutAnswers>;

/**
 * 3-D Secure v2 needs the shopper's browser's User-Agent and Accept headers: the widget's
 * submission comes from that browser, so its headers are those (unless the page sent its own).
 */
function withBrowserHeaders<R extends { customer?: { browser?: Record<string, string | undefined> } }>(
  c: Context,
  request: R,
): R {
  const header = (name: string) => {
    const value = c.req.header(name)?.trim().slice(0, 2048);
    return value === undefined || value === '' ? undefined : value;
  };
  const browser = { ...(request.customer?.browser ?? {}) };
  browser.userAgent ??= header('user-agent');
  browser.acceptHeader ??= header('accept');
  const filled = Object.fromEntries(Object.entries(browser).filter(([, v]) => v !== undefined));
  if (Object.keys(filled).length === 0) return request;
  return { ...request, customer: { ...(request.customer ?? {}), browser: filled } };
}
