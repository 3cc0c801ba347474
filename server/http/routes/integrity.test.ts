/**
 * integrity=true wherever the family accepts it (a payment, a payment with a registration, a
 * checkout) answers the SRI hash of the widget script, `sha384-…`, as the checkout creation does:
 * never the string "true"; without a widget build the field is left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD, VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const HASH = `sha384-${'A'.repeat(64)}`;

describe('integrity=true', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let hash: string | undefined = HASH;

  beforeAll(async () => {
    gw = await testGateway({ integrity: () => hash });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw.cleanup());

  const debit = { amount: '10.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' };
  const post = (path: string, params: Record<string, string>) =>
    gw.post(path, { entityId: m.entityId, ...params }, { token: m.token });

  it('answers the widget script’s hash on a payment, and on its reads', async () => {
    const paid = await post('/v1/payments', { ...debit, ...VISA_CARD });
    expect(paid.status).toBe(200);
    expect(paid.body.integrity).toBe(HASH);
    const read = await gw.get(`/v1/payments/${paid.body.id}`, { entityId: m.entityId }, { token: m.token });
    expect(read.body.integrity).toBe(HASH);
  });

  it('answers it on a payment with a registration, and on a checkout', async () => {
    const registered = await post('/v1/registrations', VISA_CARD_WITHOUT_CVV);
    const paid = await post(`/v1/registrations/${registered.body.id}/payments`, debit);
    expect(paid.status).toBe(200);
    expect(paid.body.integrity).toBe(HASH);
    const checkout = await post('/v1/checkouts', debit);
    expect(checkout.body.integrity).toBe(HASH);
  });

  it('leaves it out without a widget build, and echoes integrity=false as sent', async () => {
    hash = undefined;
    try {
      const paid = await post('/v1/payments', { ...debit, ...VISA_CARD });
      expect(paid.status).toBe(200);
      expect(paid.body).not.toHaveProperty('integrity');
    } finally {
      hash = HASH;
    }
    const plain = await post('/v1/payments', { ...debit, ...VISA_CARD, integrity: 'false' });
    expect(plain.body.integrity).toBe('false');
  });
});
