/**
 * The gateway's own pages for a connector's pending payment (shared/engine/steps/processor-pending.ts),
 * open to the shopper's browser like the simulator pages:
 *
 * - `/connectors/redirect` (the payment's `redirect.url`, its session id in `redirect.parameters`):
 *   sends the shopper on to the processor's page (its 3-D Secure challenge, its provider) with the
 *   processor's own parameters, by a form the page submits itself (a button without script);
 * - `/connectors/return/{paymentId}` (the return address the processor was given as its
 *   shopperResultUrl): the gateway asks the processor for the verdict (processor-verdict.ts) and
 *   sends the shopper on to the merchant's shopperResultUrl (a page that moves on at once), or, inside the widget's frame,
 *   to the page that tells the widget. What the browser brings decides nothing by itself: the
 *   verdict is always the processor's, so the return address needs no secret.
 */
import type { Context, Hono } from 'hono';
import type { PaymentSession } from '../../../shared/engine/core/model';
import {
  ConnectorPaths,
  finishPending,
  type PendingPlan,
  shopperReturnOf,
} from '../../../shared/engine/steps/asynchronous';
import { describe, ResultCodes } from '../../../shared/result-codes';
import { escapeHtml } from '../../security/html';
import type { GatewayEnv, RouteDeps } from '../context';
import { shopperPage, shopperParameters } from './shopper-page';
import { messagePage, returnPage } from './simulators/pages';

const ID = /^[0-9a-f]{32}$/;

/** Back to the shop's shopperResultUrl: at once by meta refresh, with a link if it does not. */
function onwardPage(target: string, description: string): string {
  const url = escapeHtml(target);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="0;url=${url}">
<title>Payment processed</title>
</head><body><main>
<h1>Payment processed</h1>
<p>${escapeHtml(description)}</p>
<p><a href="${url}">Return to the shop</a></p>
</main></body></html>`;
}

/** The page submits its form itself (CSP: no inline script). */
const FORWARD_SCRIPT = `(function () {
  var form = document.getElementById('forward');
  if (form) form.submit();
})();
`;

/** The page that sends the shopper on to the processor's own, with its parameters. */
function forwardPage(redirect: NonNullable<PendingPlan['processorRedirect']>): string {
  const method = redirect.method?.toUpperCase() === 'GET' ? 'get' : 'post';
  const fields = redirect.parameters
    .map((p) => `<input type="hidden" name="${escapeHtml(p.name)}" value="${escapeHtml(p.value)}">`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Continue to your payment</title>
<link rel="stylesheet" href="/simulators/simulator.css">
</head><body><main>
<form id="forward" method="${method}" action="${escapeHtml(redirect.url)}">${fields}
<p>You are taken to your bank or payment provider to confirm the payment.</p>
<button type="submit" class="sim-primary">Continue</button>
</form>
<script src="/connectors/forward.js"></script>
</main></body></html>`;
}

export function connectorReturnRoutes(app: Hono<GatewayEnv>, deps: RouteDeps): void {
  const unknown = (c: Context) =>
    shopperPage(
      c,
      404,
      messagePage(
        'Unknown payment session',
        'This link is not valid, or its payment has ended. Return to the shop and start again.',
      ),
    );

  /** Once the payment has ended (or still waits): back to the shop, or to the widget in its frame. */
  async function leave(c: Context, session: PaymentSession, returned?: Record<string, string>) {
    const ended =
      returned === undefined ? undefined : await finishPending(deps, session.id, 'approve', returned);
    const payment =
      ended !== undefined && ended.kind !== 'not-found'
        ? ended.payment
        : await deps.store.getPayment(session.merchantId, session.paymentId);
    const description = describe(payment?.resultCode ?? ResultCodes.PENDING) ?? '';
    // the widget's modal: the browser says the page is framed; the widget then reads the result
    const dest = c.req.header('Sec-Fetch-Dest');
    if (dest === 'iframe' || dest === 'frame') return shopperPage(c, 200, returnPage(description));
    const target = shopperReturnOf(session);
    if (target === undefined) return shopperPage(c, 200, messagePage('Payment processed', description));
    // Not a 303: the shopper often arrives here at the end of a form post on the processor's page,
    // and the browser checks that page's CSP form-action against every hop of the post's
    // redirects, so a redirect on to the shop (an origin the processor never heard of) is blocked.
    // A page that moves on by itself is a new navigation.
    return shopperPage(c, 200, onwardPage(target, description));
  }

  app.get('/connectors/forward.js', (c) =>
    c.body(FORWARD_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'max-age=3600',
    }),
  );

  app.on(['GET', 'POST'], ConnectorPaths.redirect, async (c) => {
    const id = (await shopperParameters(c)).session;
    const session = id !== undefined && ID.test(id) ? await deps.store.getPaymentSession(id) : undefined;
    if (session?.kind !== 'connector') return unknown(c);
    const redirect = (session.plan as unknown as PendingPlan).processorRedirect;
    if (session.finishedAt !== null || redirect === undefined || deps.clock.now() >= session.expiresAt)
      return leave(c, session, session.finishedAt === null ? {} : undefined);
    return shopperPage(c, 200, forwardPage(redirect), redirect.url);
  });

  app.on(['GET', 'POST'], `${ConnectorPaths.return}/:paymentId`, async (c) => {
    const paymentId = c.req.param('paymentId');
    const session = ID.test(paymentId) ? await deps.store.getPaymentSessionOfPayment(paymentId) : undefined;
    if (session?.kind !== 'connector') return unknown(c);
    return leave(c, session, await shopperParameters(c));
  });
}
