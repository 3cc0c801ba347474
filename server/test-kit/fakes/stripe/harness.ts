/**
 * The Stripe fake's companions for connector tests: an address that refuses connections, one
 * that takes the request and drops the connection without an answer (an uncertain outcome), and
 * the channel settings of a connector to each.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StripeConnectorSettings } from '../../../../shared/engine/core/model';

export const TEST_API_KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
export const TEST_WEBHOOK_SECRET = 'whsec_test_secret_of_the_gateway_endpoint';

export const stripeSettings = (
  baseUrl: string,
  webhookSecret = TEST_WEBHOOK_SECRET,
): StripeConnectorSettings => ({
  kind: 'stripe',
  baseUrl,
  apiKey: TEST_API_KEY,
  webhookSecret,
});

/** A port on 127.0.0.1 nothing listens on (bound, then closed): connections to it are refused. */
export async function refusingAddress(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A server that reads each request and drops the connection after `afterMs`, answering nothing. */
export async function droppingServer(
  afterMs = 200,
): Promise<{ readonly baseUrl: string; readonly received: () => number; close(): Promise<void> }> {
  let received = 0;
  const server = http.createServer((req) => {
    received++;
    req.resume();
    setTimeout(() => req.socket.destroy(), afterMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The shopper on the fake's page a `redirect_to_url` Stripe gave: its 3-D Secure page (Complete
 * or Fail) or a bank redirect's (Authorize or Fail test payment); where Stripe sends them back
 * (the return_url, with payment_intent and redirect_status).
 */
export async function shopperAtStripe(pageUrl: string, choice: 'approve' | 'decline'): Promise<string> {
  const approve = new URL(pageUrl).pathname.startsWith('/authorize/') ? 'authorize' : 'complete';
  const answer = await fetch(pageUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `outcome=${choice === 'approve' ? approve : 'fail'}`,
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || location === null)
    throw new Error(`Stripe's page answered ${answer.status}: ${await answer.text()}`);
  return location;
}
