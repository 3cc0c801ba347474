/**
 * The simulator pages of test mode INTERNAL, as HTML: the 3-D Secure challenge of the simulated
 * issuer (access control server), the redirect methods' provider pages, and the page that ends a
 * flow shown inside the widget. Plain forms that work without script; the only script is the
 * end page's message to the widget, from a file (CSP: no inline script).
 */

import type { PaymentSession } from '../../../../shared/engine/core/model';
import type { PageFacts } from '../../../../shared/engine/steps/asynchronous';
import { CHALLENGE_CODE } from '../../../processors/simulator/access-control-server';
import type { SimulatedRedirectMethod } from '../../../processors/simulator/redirect-methods';
import { escapeHtml } from '../../../security/html';

export const SIMULATOR_CSS = `
:root { color-scheme: light; font: 16px/1.45 system-ui, sans-serif; }
body { margin: 0; background: #eef1f5; color: #1b1f24; }
main { max-width: 26rem; margin: 1.5rem auto; padding: 1.25rem 1.5rem; background: #fff;
  border-radius: .5rem; box-shadow: 0 1px 4px rgba(0,0,0,.15); }
h1 { font-size: 1.2rem; margin: 0 0 .5rem; }
.sim-badge { display: inline-block; font-size: .75rem; padding: .1rem .45rem; border-radius: 1rem;
  background: #fff3c4; color: #5c4400; margin-bottom: .75rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .2rem .75rem; margin: .75rem 0; }
dt { color: #57606a; } dd { margin: 0; font-weight: 600; }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
input { font: inherit; padding: .45rem .6rem; width: 100%; box-sizing: border-box;
  border: 1px solid #8c959f; border-radius: .3rem; }
.sim-hint { color: #57606a; font-size: .85rem; margin: .3rem 0 0; }
.sim-actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: 1rem; }
button { font: inherit; padding: .5rem .9rem; border-radius: .3rem; border: 1px solid #8c959f;
  background: #f6f8fa; color: #1b1f24; cursor: pointer; }
button.sim-primary { background: #1f6feb; border-color: #1f6feb; color: #fff; }
button:focus-visible, input:focus-visible { outline: 3px solid #f0b429; outline-offset: 2px; }
`;

/** Sends the widget its "done" message; the widget then reads how the payment ended. */
export const RETURN_SCRIPT = `(function () {
  var message = { source: 'wpwl-gateway', type: 'async-complete' };
  if (window.parent && window.parent !== window) window.parent.postMessage(message, '*');
  else if (window.opener) window.opener.postMessage(message, '*');
})();
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/simulators/simulator.css">
</head><body><main>
<span class="sim-badge">Test mode simulator</span>
${body}
</main></body></html>`;
}

/** What a simulator page tells the shopper; `merchant`, the merchant's name, where the page has it. */
export type ShownFacts = PageFacts & { readonly merchant?: string };

function factsList(facts: ShownFacts, voucher?: Readonly<Record<string, string>>): string {
  const rows: [string, string | undefined][] = [
    // The issuer names who is paid as the shopper knows them: the merchant's name, not the statement's descriptor.
    ['Merchant', facts.merchant ?? facts.descriptor],
    ['Amount', facts.amount === undefined ? undefined : `${facts.amount} ${facts.currency ?? ''}`.trim()],
    ['Card', facts.last4 === undefined ? undefined : `${facts.brand ?? ''} •••• ${facts.last4}`.trim()],
    ['Voucher reference', voucher?.VoucherReference],
    ['Due date', voucher?.VoucherDueDate],
  ];
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined);
  return shown.length === 0
    ? ''
    : `<dl>${shown.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

const hidden = (name: string, value: string | undefined) =>
  value === undefined ? '' : `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

/** The issuer's challenge: a one-time code, or fail, or cancel. */
export function challengePage(
  session: PaymentSession,
  facts: ShownFacts,
  returnMode: string | undefined,
): string {
  return page(
    '3-D Secure: confirm it is you',
    `<h1 id="sim-title">Confirm it is you</h1>
<p>Your card issuer asks you to confirm this payment (3-D Secure).</p>
${factsList(facts)}
<form method="post" action="/simulators/acs/challenge/answer" aria-labelledby="sim-title">
${hidden('threeDSSessionData', session.id)}${hidden('returnMode', returnMode)}
<label for="sim-otp">One-time code</label>
<input id="sim-otp" name="otp" inputmode="numeric" autocomplete="one-time-code" aria-describedby="sim-otp-hint">
<p id="sim-otp-hint" class="sim-hint">Test code: ${CHALLENGE_CODE}. Any other code fails the authentication.</p>
<div class="sim-actions">
<button class="sim-primary" type="submit" name="action" value="submit">Confirm</button>
<button type="submit" name="action" value="fail">Fail authentication</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</div>
</form>`,
  );
}

/** A redirect method's provider: approve, decline or cancel; a voucher shows its reference and due date, as the answer does. */
export function redirectPage(
  session: PaymentSession,
  method: SimulatedRedirectMethod,
  facts: PageFacts,
  returnMode: string | undefined,
): string {
  return page(
    method.title,
    `<h1 id="sim-title">${escapeHtml(method.title)}</h1>
<p>${escapeHtml(method.step)}</p>
${factsList({ ...facts, last4: undefined }, method.issue?.(session.paymentId, session.expiresAt))}
<form method="post" action="/simulators/redirect/answer" aria-labelledby="sim-title">
${hidden('session', session.id)}${hidden('returnMode', returnMode)}
<div class="sim-actions">
<button class="sim-primary" type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="decline">Decline</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</div>
</form>`,
  );
}

/** The end of a flow shown inside the widget: tells the widget, which takes over. */
export function returnPage(description: string): string {
  return page(
    'Payment processed',
    `<h1>Done</h1>
<p>${escapeHtml(description)}</p>
<p class="sim-hint">You can close this window.</p>
<script src="/simulators/return.js"></script>`,
  );
}

/** An unknown session id, or an end with no shopperResultUrl to return to. */
export function messagePage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}
