/**
 * The fake's pages the shopper is sent to: the issuer's 3-D Secure 2 challenge (a one-time code
 * to confirm, as Adyen's test ACS asks) and a redirect method's provider. Either sends the
 * shopper back to the `returnUrl` of the payment with Adyen's `redirectResult`, which the
 * merchant's side hands to `/payments/details`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { fakeCheckout } from './checkout';

type Checkout = ReturnType<typeof fakeCheckout>;

const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, session: string, approve: string, decline: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<main><h1>${title}</h1>
<form method="post" action="/pages/choose">
<input type="hidden" name="session" value="${escaped(session)}">
<button type="submit" name="outcome" value="approve">${approve}</button>
<button type="submit" name="outcome" value="decline">${decline}</button>
</form></main></body></html>`;
}

async function form(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** GET /pages/challenge|provider?session=…, POST /pages/choose; anything else 404. */
export async function shopperPage(
  checkout: Checkout,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  if (request.method === 'POST' && url.pathname === '/pages/choose') {
    const fields = await form(request);
    const outcome = fields.get('outcome') === 'approve' ? 'approve' : 'decline';
    const back = checkout.choose(fields.get('session') ?? '', outcome);
    if (back === undefined) return void response.writeHead(404).end('no such session');
    return void response.writeHead(302, { Location: back }).end();
  }
  const session = url.searchParams.get('session') ?? '';
  const kind = checkout.session(session)?.kind;
  if (request.method !== 'GET' || kind === undefined || url.pathname !== `/pages/${kind}`)
    return void response.writeHead(404).end('not found');
  const html =
    kind === 'challenge'
      ? page('3-D Secure 2 challenge (Adyen test issuer)', session, 'Authenticate', 'Fail authentication')
      : page('Payment provider (Adyen test)', session, 'Authorise', 'Cancel');
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
}
