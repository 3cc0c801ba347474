/**
 * The contract (shared/contract) says what the gateway answers: real answers of a test gateway,
 * parsed by the contract's wire schemas (the ones the OpenAPI document's answers are derived
 * from), and the notifications the same changes stored, by the contract's notification. A field
 * the engine answers in another type than the contract says (a card's last4Digits as a number, a
 * result without its code) fails here before a generated client is misled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { checkoutSession, notification, payment, registration, schedule } from '../../shared/contract';
import { CARD_FIELDS, VISA_CARD, VISA_CARD_WITHOUT_CVV } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../test-kit/gateway';
import { storedWebhook } from '../test-kit/webhooks';

let gw: TestGateway;
let m: TestMerchant;

beforeAll(async () => {
  gw = await testGateway({ webhooks: { autoStart: false } });
  m = await gw.addMerchant({ channels: 1 });
  await gw.store.insertWebhook(
    storedWebhook(m.merchantId, { types: ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK'] }),
  );
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
});

const post = (path: string, params: Record<string, string>) =>
  gw.post(path, { entityId: m.entityId, ...params }, { token: m.token });
const get = (path: string) => gw.get(path, { entityId: m.entityId }, { token: m.token });
const money = { amount: '92.00', currency: 'EUR' };

/** The contract's complaints about an answer: '' when it is what the contract says. */
function complaints(schema: z.ZodType, res: TestResponse): string {
  const parsed = schema.safeParse(res.body);
  return parsed.success ? '' : `${parsed.error.message}\n${res.text.slice(0, 400)}`;
}

describe('the answers are what the contract says', () => {
  it('payments: a debit, its read, a refund, a decline', async () => {
    const db = await post('/v1/payments', { ...money, paymentType: 'DB', ...VISA_CARD });
    expect(db.status).toBe(200);
    expect(complaints(payment, db)).toBe('');
    expect(payment.parse(db.body).card?.last4Digits).toBe(VISA_CARD['card.number'].slice(-4));
    expect(complaints(payment, await get(`/v1/payments/${db.body.id}`))).toBe('');
    const rf = await post(`/v1/payments/${db.body.id}`, { ...money, paymentType: 'RF' });
    expect(complaints(payment, rf)).toBe('');
    const declined = await post('/v1/payments', {
      ...money,
      paymentType: 'DB',
      ...VISA_CARD,
      'card.number': '4000000000000002',
    });
    expect(declined.status).toBe(400);
    expect(complaints(payment, declined)).toBe('');
  });

  it('a registration, its read, a payment with it and a schedule on it', async () => {
    const reg = await post('/v1/registrations', VISA_CARD_WITHOUT_CVV);
    expect(complaints(registration, reg)).toBe('');
    expect(complaints(registration, await get(`/v1/registrations/${reg.body.id}`))).toBe('');
    const paid = await post(`/v1/registrations/${reg.body.id}/payments`, { ...money, paymentType: 'DB' });
    expect(complaints(payment, paid)).toBe('');
    const created = await post('/scheduling/v1/schedules', {
      registrationId: reg.body.id as string,
      ...money,
      paymentType: 'DB',
    });
    expect(complaints(schedule, created)).toBe('');
    expect(complaints(schedule, await get(`/scheduling/v1/schedules/${created.body.id}`))).toBe('');
  });

  it("a checkout's session, and its payment read with the merchant's credentials", async () => {
    const checkout = await post('/v1/checkouts', { ...money, paymentType: 'DB' });
    const id = checkout.body.id as string;
    expect(complaints(checkoutSession, await gw.get(`/v1/checkouts/${id}/session`))).toBe('');
    await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'VISA', ...CARD_FIELDS });
    expect(complaints(payment, await get(`/v1/checkouts/${id}/payment`))).toBe('');
  });

  it('every notification stored for these changes', async () => {
    const deliveries = await gw.store.listDeliveries(m.merchantId, { limit: 1000 });
    expect(new Set(deliveries.map((d) => d.notification.type))).toEqual(
      new Set(['PAYMENT', 'REGISTRATION', 'SCHEDULE']),
    );
    const wrong = deliveries.flatMap((d) => {
      const parsed = notification.safeParse(d.notification);
      return parsed.success ? [] : [`${d.notification.type} #${d.seq}: ${parsed.error.message}`];
    });
    expect(wrong).toEqual([]);
  });
});
