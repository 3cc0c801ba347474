/**
 * `/metrics` on its own address after a scripted run through the real gateway: payments (two
 * successes, a decline, a pending redirect payment), a checkout, a throttled request and failing
 * webhook deliveries each move their counters by exactly what happened, and the public address
 * has no /metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandMethod } from '../../shared/brands/registry';
import { newId } from '../../shared/engine/core/ids';
import { resultCodeGroup } from '../../shared/result-codes';
import { type MetricsServer, startMetricsServer } from '../lifecycle/metrics-address';
import { fakeClock } from '../test-kit/clock';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { storedWebhook } from '../test-kit/webhooks';

/** `name{a="1",b="2"}` → value, labels sorted by name (the text format does not fix their order). */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const labels = [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, k, v]) => `${k}="${v}"`)
      .sort()
      .join(',');
    out.set(`${m[1]}{${labels}}`, Number(m[3]));
  }
  return out;
}

const key = (name: string, labels: Record<string, string> = {}) =>
  `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',')}}`;

describe('/metrics after a scripted run', () => {
  let gw: TestGateway;
  let w: TestMerchant;
  let server: MetricsServer;
  let webhookCalls = 0;

  beforeAll(async () => {
    gw = await testGateway({
      webhooks: {
        autoStart: false,
        fetch: async () => {
          webhookCalls++;
          return new Response('down for maintenance', { status: 503 });
        },
      },
      pending: { autoStart: false },
    });
    w = await gw.addMerchant({ channels: 1, throttlePerMinute: 1000 });
    await gw.store.insertWebhook(storedWebhook(w.merchantId));
    server = await startMetricsServer({ metrics: gw.ops.metrics, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await gw?.cleanup();
  });

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return parse(await res.text());
  };
  const pay = (params: Record<string, string>) =>
    gw.post(
      '/v1/payments',
      { entityId: w.entityId, amount: '12.50', currency: 'EUR', paymentType: 'DB', ...params },
      { token: w.token },
    );

  it('moves each counter by exactly what happened', async () => {
    // payments: two successes (DB, PA), a decline, a pending redirect payment, a paid checkout
    const before = await scrape();

    const groupOf = (r: { body: { result: { code: string } } }) =>
      resultCodeGroup(r.body.result.code) ?? 'unclassified';
    const ok1 = await pay(VISA_CARD);
    const ok2 = await pay({ ...VISA_CARD, paymentType: 'PA' });
    const declined = await pay({ ...VISA_CARD, 'customParameters[forceResultCode]': '800.100.151' });
    const pending = await pay({ paymentBrand: 'PAYPAL', shopperResultUrl: 'https://shop.example/result' });
    for (const r of [ok1, ok2, declined, pending]) expect(r.status, r.text).toBeLessThan(500);
    const checkout = await gw.post(
      '/v1/checkouts',
      { entityId: w.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
      { token: w.token },
    );
    expect(checkout.status, checkout.text).toBe(200);
    const paid = await gw.post(`/v1/checkouts/${checkout.body.id}/payment`, VISA_CARD);
    expect(groupOf(paid), paid.text).toBe('success');
    const missing = await gw.get(`/v1/payments/${newId()}`, { entityId: w.entityId }, { token: w.token });
    expect(missing.status).toBe(404);
    await gw.webhooks.runOnce();

    const after = await scrape();
    const delta = (name: string, labels?: Record<string, string>) =>
      (after.get(key(name, labels)) ?? 0) - (before.get(key(name, labels)) ?? 0);

    expect(groupOf(ok1)).toBe('success');
    expect(groupOf(declined)).not.toBe('success');
    expect(groupOf(pending)).toBe('pending');
    // one through the API, one through the checkout
    expect(delta('gateway_payments_total', { method: 'CC', payment_type: 'DB', result: 'success' })).toBe(2);
    expect(delta('gateway_payments_total', { method: 'CC', payment_type: 'PA', result: 'success' })).toBe(1);
    expect(
      delta('gateway_payments_total', { method: 'CC', payment_type: 'DB', result: groupOf(declined) }),
    ).toBe(1);
    const wallet = brandMethod('PAYPAL') ?? '';
    expect(delta('gateway_payments_total', { method: wallet, payment_type: 'DB', result: 'pending' })).toBe(
      1,
    );

    const post = (status: number) => ({ method: 'POST', route: '/v1/payments', status: String(status) });
    expect(
      delta('gateway_http_requests_total', post(200)) + delta('gateway_http_requests_total', post(400)),
    ).toBe([ok1, ok2, declined, pending].filter((r) => r.status === 200 || r.status === 400).length);
    expect(delta('gateway_http_request_duration_seconds_count', post(200))).toBe(
      delta('gateway_http_requests_total', post(200)),
    );
    expect(
      delta('gateway_http_requests_total', { method: 'GET', route: '/v1/payments/:id', status: '404' }),
    ).toBe(1);
    expect(delta('gateway_checkouts_total', { event: 'created', result: '' })).toBe(1);
    expect(delta('gateway_checkouts_total', { event: 'completed', result: 'success' })).toBe(1);

    // every payment went through one group-commit batch; each attempt of the failing receiver counted once
    expect(delta('gateway_payment_batch_size_sum')).toBe(5);
    expect(delta('gateway_payment_batch_duration_seconds_count', { failed: 'false' })).toBe(
      delta('gateway_payment_batch_size_count'),
    );
    expect(webhookCalls).toBeGreaterThan(0);
    expect(delta('gateway_webhook_deliveries_total', { outcome: 'failed' })).toBe(webhookCalls);
    expect(delta('gateway_webhook_deliveries_total', { outcome: 'delivered' })).toBe(0);
    expect(delta('gateway_webhook_queue_age_seconds_count')).toBe(webhookCalls);
  });

  it('counts throttle rejections by operation', async () => {
    const tight = await gw.addMerchant({ channels: 1, throttlePerMinute: 1 });
    const before = await scrape();
    const send = () =>
      gw.post(
        '/v1/payments',
        { entityId: tight.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD },
        { token: tight.token },
      );
    const answers = [await send(), await send(), await send()];
    const refused = answers.filter((r) => r.status === 429).length;
    expect(refused).toBeGreaterThan(0);
    const after = await scrape();
    const counted = [...after]
      .filter(([k]) => k.startsWith('gateway_throttle_rejections_total{'))
      .reduce((n, [k, v]) => n + v - (before.get(k) ?? 0), 0);
    expect(counted).toBe(refused);
  });

  it("reports a running worker's lag, and process metrics under prom-client's stock names", async () => {
    gw.pending.start();
    const metrics = await scrape();
    expect(metrics.get(key('gateway_worker_lag_seconds', { worker: 'pending' }))).toBeGreaterThanOrEqual(0);
    // the names stock dashboards (Node.js exporter dashboards) query: no prefix of ours
    const names = [...metrics.keys()];
    for (const stock of [
      'process_cpu_user_seconds_total',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_total_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(
        names.some((k) => k === stock || k.startsWith(`${stock}{`)),
        stock,
      ).toBe(true);
    expect(names.filter((k) => /^gateway_(process|nodejs)_/.test(k))).toEqual([]);
    await gw.pending.stop();
    const stopped = await scrape();
    expect(stopped.has(key('gateway_worker_lag_seconds', { worker: 'pending' }))).toBe(false);
  });

  it('serves /metrics on its own address only; health there too', async () => {
    expect((await gw.get('/metrics')).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/nothing`)).status).toBe(404);
  });
});

describe('a pending payment that ends', () => {
  it('counts its end once, by the final result group', async () => {
    const clock = fakeClock();
    const gw = await testGateway({ clock, pending: { autoStart: false }, webhooks: { autoStart: false } });
    try {
      const w = await gw.addMerchant({ channels: 1 });
      const scrape = async () => parse(await gw.ops.metrics.registry.metrics());
      const before = await scrape();
      const pending = await gw.post(
        '/v1/payments',
        {
          entityId: w.entityId,
          amount: '7.00',
          currency: 'EUR',
          paymentType: 'DB',
          paymentBrand: 'PAYPAL',
          shopperResultUrl: 'https://shop.example/result',
        },
        { token: w.token },
      );
      expect(pending.body.result.code, pending.text).toBe('000.200.000');
      clock.advance(24 * 60 * 60 * 1000); // far past any session's end
      expect(await gw.pending.runOnce()).toBe(1);
      expect(await gw.pending.runOnce()).toBe(0);
      const final = await gw.get(
        `/v1/payments/${pending.body.id}`,
        { entityId: w.entityId },
        { token: w.token },
      );
      const group = resultCodeGroup(final.body.result.code) ?? 'unclassified';
      expect(group).not.toBe('pending');
      const after = await scrape();
      const ended = key('gateway_pending_payments_ended_total', { result: group });
      expect((after.get(ended) ?? 0) - (before.get(ended) ?? 0)).toBe(1);
    } finally {
      await gw.cleanup();
    }
  });
});
