import { describe, expect, it } from 'vitest';
import { createPayment, type EngineDeps } from './initial-payment';
import { memoryStore } from './memory-store';
import { paymentResponse } from './response';
import { parsed, testChannel } from './testing';

const channel = testChannel;
const NOW = new Date('2026-11-21T12:00:00Z');

const request = (body: string) => parsed('payment', body);

const CARD =
  'card.number=4200000000000000&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123';

describe('createPayment', () => {
  const deps = (): EngineDeps => ({
    store: memoryStore(),
    clock: { now: () => NOW },
    seal: (pan) => `sealed(${pan.length})`,
  });

  it('records a successful DB and answers it as clients expect', async () => {
    const d = deps();
    const outcome = await createPayment(
      d,
      { merchantId: channel.merchantId, channel },
      request(
        `amount=12.50&currency=EUR&paymentBrand=VISA&paymentType=DB&merchantTransactionId=order-0001&${CARD}`,
      ),
    );
    expect(outcome.kind).toBe('payment');
    if (outcome.kind !== 'payment') return;
    const stored = await d.store.getPayment(channel.merchantId, outcome.payment.id);
    expect(stored).toEqual(outcome.payment);
    const body = paymentResponse(outcome.payment);
    expect(body).toMatchObject({
      paymentType: 'DB',
      paymentBrand: 'VISA',
      amount: '12.50',
      currency: 'EUR',
      merchantTransactionId: 'order-0001',
      result: { code: '000.100.110', cvvResponse: 'M' },
      card: {
        bin: '420000',
        last4Digits: '0000',
        holder: 'Jane Jones',
        expiryMonth: '05',
        expiryYear: '2034',
      },
      risk: { score: '0' },
    });
    expect(body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.ndc).toMatch(new RegExp(`^${channel.id}_[0-9a-f]{32}$`));
    expect(body.descriptor).toMatch(/^\d{4}\.\d{4}\.\d{4} Test_Channel$/);
    expect(JSON.stringify(stored)).not.toContain('4200000000000000');
    expect(JSON.stringify(body)).not.toMatch(/"cvv"|4200000000000000/);
  });

  it('records a decline with its code', async () => {
    const outcome = await createPayment(
      deps(),
      { merchantId: channel.merchantId, channel },
      request(
        `amount=1.00&currency=EUR&paymentBrand=VISA&paymentType=PA&${CARD}&customParameters[forceResultCode]=800.100.152`,
      ),
    );
    expect(outcome.kind === 'payment' && outcome.payment.resultCode).toBe('800.100.152');
  });

  it('refuses amounts finer than the currency', async () => {
    const outcome = await createPayment(
      deps(),
      { merchantId: channel.merchantId, channel },
      request(`amount=100.50&currency=JPY&paymentBrand=VISA&paymentType=DB&${CARD}`),
    );
    expect(outcome).toEqual({
      kind: 'invalid',
      errors: [{ name: 'amount', value: '100.50', message: 'has more decimals than JPY has (0)' }],
    });
  });

  it('never simulates EXTERNAL without a connector', async () => {
    const outcome = await createPayment(
      deps(),
      { merchantId: channel.merchantId, channel },
      request(`amount=1.00&currency=EUR&paymentBrand=VISA&paymentType=DB&testMode=EXTERNAL&${CARD}`),
    );
    expect(outcome.kind === 'payment' && outcome.payment.resultCode).toBe('600.200.201');
  });
});
