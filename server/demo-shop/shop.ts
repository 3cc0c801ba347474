/**
 * The demo shop: a merchant's web shop in miniature, on its own origin. It does what a real shop
 * backend does with this API family, and nothing more: it creates a checkout server-to-server
 * with its access token, renders a page that embeds the gateway's `paymentWidgets.js`, and on
 * return fetches `{gateway}{resourcePath}` to show the outcome. `npm start` serves it beside the
 * gateway so a newcomer can pay with a test card; the Playwright flows (e2e/) shop through it.
 *
 * Page variants come from the query string, so each flow is a URL:
 *   brands=VISA MASTER AMEX   the form's data-brands
 *   amount=92.00, currency    the checkout amount
 *   preset=<name>             wpwlOptions from PRESETS (served as /options.js, never inline)
 *   registration=<id>         offer a stored registration (one-click)
 *   register=1                a registration-only checkout (createRegistration=true, no paymentType)
 *   csp=strict                a strict Content-Security-Policy with a nonce and Trusted Types
 *   billing=0                 no billing address (3-D Secure v2 then refuses enrolled cards)
 *   order=<id>                the shop's order number, sent as merchantTransactionId (found again
 *                             in the dashboard's payment search)
 *
 * Fast checkout (no checkout before the click) is its own page, `/fast`:
 *   brands=WALLETA            the form's data-brands (wallet buttons, WALLETD_CONTINUE)
 *   integrity=ok|wrong        the script tag's SRI value: the gateway's (GET /v1/fastcheckout/integrity)
 *                             or a wrong one, which makes the browser refuse the script
 *   createCheckout=reject     createCheckout rejects instead of asking GET /checkout?brand=…, the
 *                             shop's route that creates the checkout server-to-server and answers {id}
 * Wallet pages record what the widget calls back in `window.shopLog` ([name, argument] pairs; also
 * in sessionStorage `shopLog`, which outlives the navigation to the result page).
 */

import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { escapeHtml } from '../security/html';
import { webhookReceiver } from './webhooks';

export interface ShopOptions {
  /** Where the shop's backend reaches the gateway. */
  readonly gatewayUrl: string;
  /** Where shoppers' browsers reach the gateway (the same unless behind a proxy). */
  readonly publicGatewayUrl?: string;
  /** The shop's own address, for its result URL; without it, the origin each request was made to. */
  readonly shopUrl?: string;
  readonly entityId: string;
  readonly accessToken: string;
  /**
   * The backend's HTTP client (default: the global fetch). The e2e harness gives one that trusts
   * the throwaway certificate of the live address it serves over HTTPS.
   */
  readonly fetch?: typeof fetch;
}

/** The simulated wallet A as a shop configures it; `authorized` is onPaymentAuthorized's answer. */
const walletA = (authorized: string) => `{
    merchantName: 'Demo shop',
    merchantId: 'demo-merchant',
    gatewayMerchantId: 'demo',
    currencyCode: 'EUR',
    amount: '92.00',
    displayItems: [
      { label: 'Subtotal', type: 'SUBTOTAL', price: '77.31' },
      { label: 'VAT', type: 'TAX', price: '14.69' }
    ],
    billingAddressRequired: true,
    billingAddressParameters: { format: 'MIN', phoneNumberRequired: false },
    onPaymentDataChanged: function (data) {
      logCall('onPaymentDataChanged', data);
      return Promise.resolve({});
    },
    onPaymentAuthorized: function (paymentData) {
      logCall('onPaymentAuthorized', paymentData);
      return Promise.resolve(${authorized});
    }
  }`;

const WALLET_SUCCESS = "{ transactionState: 'SUCCESS' }";
const WALLET_ERROR = `{
        transactionState: 'ERROR',
        error: { intent: 'PAYMENT_AUTHORIZATION', message: 'The shop cannot accept this card.', reason: 'PAYMENT_DATA_INVALID' }
      }`;

/**
 * What the widget called back, in `window.shopLog` and (to outlive the navigation to the result
 * page) in sessionStorage `shopLog`.
 */
const SHOP_LOG = `window.shopLog = [];
function logCall(name, value) {
  window.shopLog.push([name, value]);
  try { sessionStorage.setItem('shopLog', JSON.stringify(window.shopLog)); } catch (e) {}
}
`;

/** Fast checkout's wpwlOptions: createCheckout asks the shop's backend (or rejects); wallet A succeeds. */
export const fastOptions = (reject: boolean): string => `${SHOP_LOG}window.wpwlOptions = {
  style: 'card',
  createCheckout: function (data) {
    logCall('createCheckout', data);
    ${
      reject
        ? "return Promise.reject(new Error('The shop could not create the checkout'));"
        : `return fetch('/checkout?brand=' + encodeURIComponent(data.brand))
      .then(function (r) { return r.json(); })
      .then(function (j) { return j.id; });`
    }
  },
  walletA: ${walletA(WALLET_SUCCESS)}
};`;

/** A well-formed SRI value that matches no script. */
export const WRONG_INTEGRITY = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;

/** wpwlOptions presets, one per behaviour a shop page commonly configures. */
export const PRESETS: Readonly<Record<string, string>> = {
  default: `window.wpwlOptions = { style: 'card' };`,
  de: `window.wpwlOptions = { style: 'card', locale: 'de' };`,
  ar: `window.wpwlOptions = { style: 'card', locale: 'ar' };`,
  labels: `window.wpwlOptions = { style: 'card', labels: { cardHolder: 'Name on card', submit: 'Pay now' } };`,
  // The family's documented use of onBeforeSubmitCard: custom validation of the holder field.
  'holder-check': `window.wpwlOptions = {
  style: 'card',
  onBeforeSubmitCard: function () {
    var holder = document.querySelector('.wpwl-control-cardHolder');
    if (holder && holder.value.trim().split(/\\s+/).length < 2) {
      document.body.setAttribute('data-blocked', 'holder');
      return false;
    }
    return true;
  }
};`,
  // Redirect methods in the widget's own window instead of a full-page redirect (spec: inlineFlow).
  inline: `window.wpwlOptions = { style: 'card', inlineFlow: ['PAYPAL', 'SOFORTUEBERWEISUNG', 'KLARNA_PAYMENTS_PAYLATER'] };`,
  // The 3-D Secure challenge by full-page redirect instead of the widget's window.
  'full-redirect': `window.wpwlOptions = { style: 'card', paymentTarget: '_top' };`,
  // A smaller challenge window (EMV size 02: 390 x 400).
  'challenge-window': `window.wpwlOptions = { style: 'card', browser: { threeDChallengeWindow: 2 } };`,
  // Merchants inject their own inputs before the pay button (client-compat).
  'save-card': `window.wpwlOptions = {
  style: 'card',
  onReady: function () {
    var form = document.querySelector('form.wpwl-form-card');
    var button = form && form.querySelector('.wpwl-button');
    if (!form || !button || form.querySelector('[name="createRegistration"]')) return;
    var label = document.createElement('label');
    var box = document.createElement('input');
    box.type = 'checkbox';
    box.name = 'createRegistration';
    box.value = 'true';
    label.appendChild(box);
    label.appendChild(document.createTextNode(' Save this card'));
    button.parentNode.insertBefore(label, button);
  }
};`,
  // The simulated wallet A: onPaymentAuthorized agrees, or refuses with a message.
  'walletA-success': `${SHOP_LOG}window.wpwlOptions = { style: 'card', walletA: ${walletA(WALLET_SUCCESS)} };`,
  'walletA-error': `${SHOP_LOG}window.wpwlOptions = { style: 'card', walletA: ${walletA(WALLET_ERROR)} };`,
};

interface GatewayAnswer {
  readonly id?: string;
  readonly result?: { readonly code?: string; readonly description?: string };
  readonly amount?: string;
  readonly currency?: string;
  readonly paymentBrand?: string;
  readonly registrationId?: string;
}

export function createShop(options: ShopOptions): Hono {
  const gateway = options.gatewayUrl.replace(/\/+$/, '');
  const publicGateway = (options.publicGatewayUrl ?? options.gatewayUrl).replace(/\/+$/, '');
  const app = new Hono();
  webhookReceiver(app);
  // Looked up at each call, so the default follows the global fetch.
  const send: typeof fetch = (input, init) => (options.fetch ?? fetch)(input, init);

  const createCheckout = (q: URLSearchParams) => shopCheckout(options, gateway, q);

  app.get('/', async (c) => {
    const q = new URL(c.req.url).searchParams;
    const checkout = await createCheckout(q);
    if (checkout.id === undefined) {
      return c.html(
        page('Checkout failed', `<p class="shop-error">${escapeHtml(JSON.stringify(checkout.result))}</p>`),
        502,
      );
    }
    const nonce = randomBytes(16).toString('base64');
    const strict = q.get('csp') === 'strict';
    if (strict) c.header('Content-Security-Policy', strictCsp(publicGateway, nonce));
    const preset = q.get('preset') ?? 'default';
    const brands = q.get('brands') ?? 'VISA MASTER AMEX';
    const amount =
      q.get('register') === '1'
        ? 'card registration'
        : `${q.get('amount') ?? '92.00'} ${q.get('currency') ?? 'EUR'}`;
    const resultUrl = new URL('/result', options.shopUrl ?? c.req.url).toString();
    return c.html(
      page(
        'Demo shop: checkout',
        `<h1>Demo shop</h1>
<p class="shop-amount">To pay: <strong>${escapeHtml(amount)}</strong></p>
<script nonce="${nonce}" src="/options.js?preset=${encodeURIComponent(preset)}"></script>
<script nonce="${nonce}" src="${escapeHtml(publicGateway)}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(checkout.id)}"></script>
<form action="${escapeHtml(resultUrl)}" class="paymentWidgets" data-brands="${escapeHtml(brands)}"></form>
<p class="shop-hint">Test card: 4200 0000 0000 0000, any future expiry, CVV 123.</p>`,
      ),
    );
  });

  fastCheckoutRoutes(app, options, gateway, publicGateway);

  // What createCheckout calls: the shop's backend creates the checkout server-to-server.
  app.get('/checkout', async (c) => {
    const checkout = await createCheckout(new URL(c.req.url).searchParams);
    if (checkout.id === undefined) return c.json({ error: checkout.result }, 502);
    return c.json({ id: checkout.id, brand: c.req.query('brand') ?? null }, 200, {
      'Cache-Control': 'no-store',
    });
  });

  app.get('/options.js', (c) => {
    const preset = PRESETS[c.req.query('preset') ?? 'default'] ?? PRESETS.default!;
    return c.body(preset, 200, { 'content-type': 'text/javascript; charset=utf-8' });
  });

  app.get('/result', async (c) => {
    const resourcePath = c.req.query('resourcePath') ?? '';
    // As merchants do: accept only the status paths of this family, then ask the gateway.
    if (!/^\/v[0-9]+\/checkouts\/[a-zA-Z0-9.-]+\/(payment|registration)$/.test(resourcePath)) {
      return c.html(page('Payment result', '<p class="shop-error">Unknown payment.</p>'), 400);
    }
    const res = await send(`${gateway}${resourcePath}?entityId=${options.entityId}`, {
      headers: { authorization: `Bearer ${options.accessToken}` },
    });
    const status = (await res.json()) as GatewayAnswer;
    const code = status.result?.code ?? '';
    const ok = /^(000\.000\.|000\.100\.1|000\.[36])/.test(code);
    const pending = /^(000\.200)/.test(code);
    const verdict = ok ? 'success' : pending ? 'pending' : 'failed';
    return c.html(
      page(
        'Payment result',
        `<h1 class="shop-result shop-result-${verdict}">${
          ok ? 'Thank you! Payment successful.' : pending ? 'Payment pending.' : 'Payment failed.'
        }</h1>
<dl>
  <dt>Result</dt><dd class="shop-result-code">${escapeHtml(code)}</dd>
  <dt>Description</dt><dd class="shop-result-description">${escapeHtml(status.result?.description ?? '')}</dd>
  ${status.id ? `<dt>Payment</dt><dd class="shop-payment-id">${escapeHtml(status.id)}</dd>` : ''}
  ${status.registrationId ? `<dt>Registration</dt><dd class="shop-registration-id">${escapeHtml(status.registrationId)}</dd>` : ''}
</dl>
<p><a href="/">Shop again</a></p>`,
      ),
      ok || pending ? 200 : 402,
    );
  });

  return app;
}

/** The shop's backend creates a checkout server-to-server, as the page's query asks. */
async function shopCheckout(
  options: ShopOptions,
  gateway: string,
  q: URLSearchParams,
): Promise<GatewayAnswer> {
  const body = new URLSearchParams({ entityId: options.entityId });
  if (q.get('register') === '1') {
    body.set('createRegistration', 'true');
  } else {
    body.set('amount', q.get('amount') ?? '92.00');
    body.set('currency', q.get('currency') ?? 'EUR');
    body.set('paymentType', q.get('paymentType') ?? 'DB');
  }
  // A shop knows its customer's billing address; 3-D Secure v2 requires it for enrolled cards.
  if (q.get('billing') !== '0') {
    body.set('billing.street1', 'Hauptstrasse 1');
    body.set('billing.city', 'Berlin');
    body.set('billing.postcode', '10115');
    body.set('billing.country', 'DE');
  }
  const registration = q.get('registration');
  if (registration) body.set('registrations[0].id', registration);
  const order = q.get('order');
  if (order) body.set('merchantTransactionId', order);
  const res = await (options.fetch ?? fetch)(`${gateway}/v1/checkouts`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${options.accessToken}`,
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
    },
    body,
  });
  return (await res.json()) as GatewayAnswer;
}

/** The strict page's policy: scripts by nonce, the gateway's frames, Trusted Types. */
function strictCsp(publicGateway: string, nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${publicGateway} 'nonce-${nonce}'`,
    `style-src 'self' ${publicGateway} 'unsafe-inline'`,
    `frame-src ${publicGateway}`,
    `connect-src 'self' ${publicGateway}`,
    `img-src 'self' ${publicGateway} data:`,
    "require-trusted-types-for 'script'",
  ].join('; ');
}

/** Fast checkout: the page has no checkout; createCheckout asks /checkout on the first click. */
function fastCheckoutRoutes(app: Hono, options: ShopOptions, gateway: string, publicGateway: string): void {
  app.get('/fast', async (c) => {
    const q = new URL(c.req.url).searchParams;
    let integrity = WRONG_INTEGRITY;
    if (q.get('integrity') !== 'wrong') {
      const res = await (options.fetch ?? fetch)(`${gateway}/v1/fastcheckout/integrity`);
      const answer = (await res.json()) as { integrity?: string };
      if (!res.ok || answer.integrity === undefined) {
        return c.html(page('Checkout failed', '<p class="shop-error">No widget integrity.</p>'), 502);
      }
      integrity = answer.integrity;
    }
    const reject = q.get('createCheckout') === 'reject' ? '?createCheckout=reject' : '';
    const brands = q.get('brands') ?? 'WALLETA';
    const resultUrl = new URL('/result', options.shopUrl ?? c.req.url).toString();
    return c.html(
      page(
        'Demo shop: fast checkout',
        `<h1>Demo shop</h1>
<p class="shop-amount">To pay: <strong>92.00 EUR</strong></p>
<script src="/fast-options.js${reject}"></script>
<script src="${escapeHtml(publicGateway)}/v1/paymentWidgets.js" integrity="${escapeHtml(integrity)}" crossorigin="anonymous"></script>
<form action="${escapeHtml(resultUrl)}" class="paymentWidgets" data-brands="${escapeHtml(brands)}"></form>`,
      ),
    );
  });

  app.get('/fast-options.js', (c) =>
    c.body(fastOptions(c.req.query('createCheckout') === 'reject'), 200, {
      'content-type': 'text/javascript; charset=utf-8',
    }),
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 1rem; background: #f6f7f9; color: #1d2330; }
  main { max-width: 32rem; margin: 0 auto; }
  .shop-error, .shop-result-failed { color: #a4262c; }
  .shop-result-success { color: #1b6b35; }
  .shop-hint { color: #5a6275; font-size: 0.875rem; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}
