/**
 * The kit's gateway side without a browser: startTestGateway's options (a channel without 3-D
 * Secure that accepts VISA only), connectTestGateway from the serialisable `info` (what a worker
 * does after globalSetup), the clock's now/advance/set, the inbox's all/clear, a port of the
 * suite's choosing, and stop().
 */
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { cards, connectTestGateway, startTestGateway, type TestGateway } from 'open-payment-gateway/testing';

let gateway: TestGateway;

test.beforeAll(async () => {
  gateway = await startTestGateway({ threeDSecure: false, brands: ['VISA'] });
});
test.afterAll(async () => {
  await gateway?.stop();
});

/** A debit server-to-server, as a shop's backend sends it. */
async function debit(card: { number: string; expiry: string; cvv: string; holder: string }, brand: string) {
  const [month, year] = card.expiry.split('/');
  const response = await fetch(`${gateway.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.accessToken}` },
    body: new URLSearchParams({
      entityId: gateway.entityId,
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: brand,
      'card.number': card.number,
      'card.holder': card.holder,
      'card.expiryMonth': month ?? '',
      'card.expiryYear': `20${year}`,
      'card.cvv': card.cvv,
    }),
  });
  return (await response.json()) as { id?: string; result: { code: string }; redirect?: unknown };
}

test('the options: no 3-D Secure (a challenge card pays at once), VISA only', async () => {
  const paid = await debit(cards.challenge, 'VISA');
  expect(paid.result.code).toBe('000.100.110');
  expect(paid.redirect).toBeUndefined();
  expect((await debit(cards.mastercard, 'MASTER')).result.code).toBe('600.200.201');
});

test('connectTestGateway: the same clock and inbox from the serialisable info', async () => {
  const connected = connectTestGateway(JSON.parse(JSON.stringify(gateway.info)));
  expect(connected.entityId).toBe(gateway.entityId);

  const before = await connected.clock.now();
  const moved = await connected.clock.advance('2h');
  expect(moved.now.getTime() - before.getTime()).toBeGreaterThanOrEqual(2 * 3600_000);
  expect((await gateway.clock.now()).getTime()).toBeGreaterThanOrEqual(moved.now.getTime());
  const later = new Date(moved.now.getTime() + 86_400_000);
  // The test clock goes on running from where it was set.
  expect((await gateway.clock.set(later.toISOString())).now.getTime()).toBeGreaterThanOrEqual(
    later.getTime(),
  );
  // Never backwards.
  await expect(connected.clock.set(before)).rejects.toThrow(/HTTP 400/);

  await connected.webhooks.clear();
  const paid = await debit(cards.success, 'VISA');
  const notification = await connected.webhooks.next({
    type: 'PAYMENT',
    match: (n) => n.payload.id === paid.id,
  });
  expect(notification.payload.result?.code).toBe('000.100.110');
  expect((await gateway.webhooks.all({ type: 'PAYMENT' })).map((n) => n.payload.id)).toEqual([paid.id]);
  await gateway.webhooks.clear();
  expect(await connected.webhooks.all()).toEqual([]);
});

/** A port nothing listens on, as a suite might keep one for its gateway. */
function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

test('startTestGateway({ port }): the gateway listens on that port', async () => {
  const port = await unusedPort();
  const onPort = await startTestGateway({ port });
  try {
    expect(onPort.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`http://127.0.0.1:${port}/v1/resultcodes`)).status).toBe(200);
  } finally {
    await onPort.stop();
  }
});

test('stop(): the gateway is gone', async () => {
  const throwaway = await startTestGateway();
  await throwaway.stop();
  await expect(fetch(`${throwaway.url}/v1/resultcodes`)).rejects.toThrow();
});
