/**
 * Invoice and instalment brands in test mode INTERNAL (issue 29: "invoice brands accepted later"):
 * a payment of one is answered pending (000.200.000, the family's "transaction pending") without a
 * redirect, since the shopper has nothing to do; the simulated provider's credit check answers a
 * minute later through the pending-payments worker, which ends the payment (000.100.110, or the
 * forced code) and tells the merchant with a PAYMENT UPDATED notification. GET /v1/payments/{id}
 * and the Query API show the state of the moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueBrands, PAYMENT_BRANDS } from '../../../shared/brands';
import { PROVIDER_ANSWER_MS } from '../../../shared/engine/steps/asynchronous';
import { fakeClock } from '../../test-kit/clock';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { storedWebhook } from '../../test-kit/webhooks';

/** The catalogue's brands whose provider accepts the payment later: flow `later`, not to the merchant's account. */
const INVOICE_BRANDS = catalogueBrands().filter(
  (b) => PAYMENT_BRANDS[b].flow === 'later' && !('toMerchantAccount' in PAYMENT_BRANDS[b]),
);

describe('invoice brands are accepted later (HTTP, test mode INTERNAL)', () => {
  const clock = fakeClock();
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway({
      clock,
      pending: { autoStart: false },
      notifier: { autoStart: false },
      webhooks: { autoStart: false },
    });
    m = await gw.addMerchant({ channels: 1 });
    await gw.store.insertWebhook(storedWebhook(m.merchantId, { createdAt: clock.now() }));
  });
  afterAll(() => gw?.cleanup());

  const pay = (brand: string, extra: Record<string, string> = {}) =>
    gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '49.90',
        currency: 'EUR',
        paymentType: 'PA',
        paymentBrand: brand,
        ...extra,
      },
      { token: m.token },
    );
  const read = (id: string) => gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });
  const notified = async (id: string) =>
    (await gw.store.listDeliveries(m.merchantId, { limit: 100 }))
      .reverse()
      .map(
        (d) =>
          d.notification as unknown as { action?: string; payload: { id: string; result: { code: string } } },
      )
      .filter((n) => n.payload.id === id)
      .map((n) => `${n.action} ${n.payload.result.code}`);

  it('are the four invoice and instalment brands of the family', () => {
    expect(INVOICE_BRANDS).toEqual([
      'KLARNA_INVOICE',
      'KLARNA_INSTALLMENTS',
      'PAYOLUTION_INVOICE',
      'PAYOLUTION_INS',
    ]);
  });

  it.each(INVOICE_BRANDS)(
    '%s: pending without a redirect, then accepted by the provider, notified',
    async (brand) => {
      const res = await pay(brand);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.200.000');
      expect(res.body.redirect).toBeUndefined();
      expect((await read(res.body.id)).body.result.code).toBe('000.200.000');

      clock.advance(PROVIDER_ANSWER_MS - 1);
      expect(await gw.pending.runOnce()).toBe(0);
      expect((await read(res.body.id)).body.result.code).toBe('000.200.000');

      clock.advance(1);
      expect(await gw.pending.runOnce()).toBe(1);
      const final = await read(res.body.id);
      expect(final.status, final.text).toBe(200);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.paymentBrand).toBe(brand);
      expect(await notified(res.body.id)).toEqual(['CREATED 000.200.000', 'UPDATED 000.100.110']);
    },
  );

  it('needs no shopperResultUrl: the shopper goes nowhere', async () => {
    const res = await pay('KLARNA_INVOICE', { shopperResultUrl: '' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.200.000');
    clock.advance(PROVIDER_ANSWER_MS);
    expect(await gw.pending.runOnce()).toBe(1);
    expect((await read(res.body.id)).body.result.code).toBe('000.100.110');
  });

  it('a forced result code is the provider’s later refusal, notified', async () => {
    const res = await pay('PAYOLUTION_INVOICE', { 'customParameters[forceResultCode]': '800.100.155' });
    expect(res.body.result.code).toBe('000.200.000');
    clock.advance(PROVIDER_ANSWER_MS);
    expect(await gw.pending.runOnce()).toBe(1);
    const final = await read(res.body.id);
    expect(final.status).toBe(400);
    expect(final.body.result.code).toBe('800.100.155');
    expect(await notified(res.body.id)).toEqual(['CREATED 000.200.000', 'UPDATED 800.100.155']);
  });

  it('the Query API shows the state of the moment', async () => {
    const order = 'order-invoice-later';
    const res = await pay('KLARNA_INSTALLMENTS', { merchantTransactionId: order });
    const query = () =>
      gw.get(
        '/v1/query',
        { entityId: m.entityId, merchantTransactionId: order, paymentMethods: 'IV' },
        { token: m.token },
      );
    const before = await query();
    expect(before.status, before.text).toBe(200);
    expect(
      before.body.payments.map((p: { id: string; result: { code: string } }) => [p.id, p.result.code]),
    ).toEqual([[res.body.id, '000.200.000']]);
    clock.advance(PROVIDER_ANSWER_MS);
    await gw.pending.runOnce();
    expect((await query()).body.payments[0].result.code).toBe('000.100.110');
  });

  it('through a checkout: the checkout is paid once the provider accepts', async () => {
    const created = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '49.90', currency: 'EUR', paymentType: 'DB' },
      { token: m.token },
    );
    expect(created.status, created.text).toBe(200);
    const id: string = created.body.id;
    const submitted = await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'KLARNA_INVOICE' });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.result.code).toBe('000.200.000');
    const status = () => gw.get(`/v1/checkouts/${id}/payment`, { entityId: m.entityId }, { token: m.token });
    expect((await status()).body.result.code).toBe('000.200.000');
    clock.advance(PROVIDER_ANSWER_MS);
    expect(await gw.pending.runOnce()).toBe(1);
    const paid = await status();
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');
    expect(paid.body.paymentBrand).toBe('KLARNA_INVOICE');
  });

  it('a pending invoice cannot be captured yet; accepted, it can', async () => {
    const res = await pay('KLARNA_INVOICE');
    const capture = () =>
      gw.post(
        `/v1/payments/${res.body.id}`,
        { entityId: m.entityId, amount: '49.90', currency: 'EUR', paymentType: 'CP' },
        { token: m.token },
      );
    expect((await capture()).body.result.code).toBe('700.400.570');
    clock.advance(PROVIDER_ANSWER_MS);
    await gw.pending.runOnce();
    const captured = await capture();
    expect(captured.status, captured.text).toBe(200);
    expect(captured.body.result.code).toBe('000.100.110');
  });
});
