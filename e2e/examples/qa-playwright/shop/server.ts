/**
 * The example QA project's own shop, a stand-in for the shop a QA team tests: two static pages
 * (pages.ts) and this tiny backend, which holds the gateway's access token and
 * talks to the gateway server-to-server. It shares no code with the gateway or its demo shop
 * (node:http and fetch only), as a real shop would not.
 *
 *   POST /api/checkouts      {subscribe?}  → a checkout of €12.50 (with createRegistration when
 *                                            subscribing): {checkoutId, widgetUrl}
 *   GET  /api/result?resourcePath=…        → the payment's {code, description, paymentId, registrationId}
 *   POST /api/subscriptions  {registrationId} → a schedule charging it every day at 09:00 UTC:
 *                                            {scheduleId, nextRunTime}
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkoutPage, resultPage } from './pages';

/** Where the shop's backend reaches the gateway, with which channel and token. */
export interface GatewayAccount {
  readonly url: string;
  readonly entityId: string;
  readonly accessToken: string;
}

export interface Shop {
  /** `http://localhost:<port>`: another site than the gateway's 127.0.0.1, as a real shop is. */
  readonly url: string;
  close(): Promise<void>;
}

const PAGES: Readonly<Record<string, string>> = { '/': checkoutPage, '/result': resultPage };

/** A billing address: 3-D Secure 2 needs one for enrolled cards, and a shop knows its customer's. */
const BILLING = {
  'billing.street1': '1 Tea Lane',
  'billing.city': 'Hamburg',
  'billing.postcode': '20095',
  'billing.country': 'DE',
};

async function gateway(account: GatewayAccount, path: string, form?: Record<string, string>) {
  const response = await fetch(new URL(path, account.url), {
    method: form === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${account.accessToken}` },
    ...(form === undefined ? {} : { body: new URLSearchParams({ entityId: account.entityId, ...form }) }),
  });
  return (await response.json()) as Record<string, unknown> & {
    result?: { code?: string; description?: string };
  };
}

async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

function send(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function api(account: GatewayAccount, request: IncomingMessage, url: URL): Promise<[number, unknown]> {
  if (request.method === 'POST' && url.pathname === '/api/checkouts') {
    const { subscribe } = await jsonBody(request);
    const created = await gateway(account, '/v1/checkouts', {
      amount: '12.50',
      currency: 'EUR',
      paymentType: 'DB',
      ...BILLING,
      ...(subscribe === true ? { createRegistration: 'true' } : {}),
    });
    if (typeof created.id !== 'string') return [502, created];
    const widgetUrl = new URL(
      `/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(created.id)}`,
      account.url,
    );
    return [200, { checkoutId: created.id, widgetUrl: widgetUrl.href }];
  }
  if (request.method === 'GET' && url.pathname === '/api/result') {
    const resourcePath = url.searchParams.get('resourcePath') ?? '';
    if (!resourcePath.startsWith('/v1/checkouts/')) return [400, { error: 'resourcePath' }];
    const status = await gateway(account, `${resourcePath}?entityId=${encodeURIComponent(account.entityId)}`);
    return [200, { ...status.result, paymentId: status.id, registrationId: status.registrationId }];
  }
  if (request.method === 'POST' && url.pathname === '/api/subscriptions') {
    const { registrationId } = await jsonBody(request);
    if (typeof registrationId !== 'string') return [400, { error: 'registrationId' }];
    const schedule = await gateway(account, '/scheduling/v1/schedules', {
      registrationId,
      amount: '12.50',
      currency: 'EUR',
      paymentType: 'DB',
      'job.expression': '0 0 9 * * ?',
    });
    return [200, { scheduleId: schedule.id, nextRunTime: schedule.nextRunTime, result: schedule.result }];
  }
  return [404, { error: 'not found' }];
}

export async function startShop(account: GatewayAccount): Promise<Shop> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const page = PAGES[url.pathname];
    if (page !== undefined) return send(response, 200, page, 'text/html');
    api(account, request, url)
      .then(([status, body]) => send(response, status, body))
      .catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
