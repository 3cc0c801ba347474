/**
 * A dispatcher stopping (a graceful shutdown) does not wait up to 30 s for a receiver that is slow
 * to answer: the attempt is abandoned and its claim given back, due at once and not counted, so
 * another process (or the restarted one) delivers it without waiting for the lease to end.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, testGateway } from '../test-kit/gateway';
import { storedWebhook } from '../test-kit/webhooks';
import { webhookDispatcher } from './dispatcher';

describe('stopping the webhook dispatcher', () => {
  let gw: TestGateway | undefined;
  afterEach(async () => {
    await gw?.cleanup();
  });

  it('gives back the claim of an attempt still waiting for its receiver', async () => {
    let called: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      called = resolve;
    });
    // a receiver that never answers: only the abort ends the request
    const hanging: typeof fetch = (_url, init) =>
      new Promise<Response>((_resolve, reject) => {
        called();
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    gw = await testGateway({ webhooks: { autoStart: false, fetch: hanging } });
    const w = await gw.addMerchant({ channels: 1 });
    await gw.store.insertWebhook(storedWebhook(w.merchantId));
    const paid = await gw.post(
      '/v1/payments',
      { entityId: w.entityId, amount: '3.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD },
      { token: w.token },
    );
    expect(paid.status, paid.text).toBe(200);

    gw.webhooks.start();
    const poll = gw.webhooks.runOnce();
    await reached;
    await gw.webhooks.stop();
    expect(await poll).toBe(0);

    const [delivery] = await gw.store.listDeliveries(w.merchantId, { limit: 10 });
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
    expect(delivery!.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());

    // another dispatcher on the same database takes it at once
    const received: string[] = [];
    const other = webhookDispatcher({
      store: gw.store,
      clock: { now: () => new Date() },
      vault: gw.vault,
      envelope: () => ({ buildNumber: 'b', timestamp: 't' }),
      fetch: async (url) => {
        received.push(String(url));
        return new Response(null, { status: 204 });
      },
    });
    expect(await other.runOnce()).toBe(1);
    expect(received).toEqual(['https://merchant.example/hooks']);
    const [done] = await gw.store.listDeliveries(w.merchantId, { limit: 10 });
    expect(done).toMatchObject({ status: 'delivered', attempts: 1 });
  });
});
