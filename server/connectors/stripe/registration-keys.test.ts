/**
 * A registration through a Stripe channel is keyed by the gateway's id of it (issue 33): its
 * customer and SetupIntent carry idempotency keys made of the registration's id, so that a retry
 * of the same registration is the same request to Stripe, never a second customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeFake, startStripeFake, stripeSettings } from '../../test-kit/fakes/stripe';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

let fake: StripeFake;
let gw: TestGateway;
let merchant: TestMerchant;

beforeAll(async () => {
  fake = await startStripeFake();
  gw = await testGateway();
  merchant = await gw.addMerchant({ channels: 1, settings: { connector: stripeSettings(fake.baseUrl) } });
});
afterAll(async () => {
  await gw?.cleanup();
  await fake?.close();
});

describe('a registration at Stripe', () => {
  it('its requests carry idempotency keys of the registration’s id', async () => {
    const before = fake.requests.length;
    const rg = await gw.post(
      '/v1/registrations',
      { entityId: merchant.entityId, ...VISA_CARD, 'card.number': '4242424242424242', testMode: 'EXTERNAL' },
      { token: merchant.token },
    );
    expect(rg.status, rg.text).toBe(200);
    expect(rg.body.result.code).toBe('000.100.112');
    const keys = fake.requests
      .slice(before)
      .filter((r) => r.method === 'POST')
      .map((r) => r.idempotencyKey);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).toMatch(new RegExp(`^opg-${rg.body.id}-`));
  });
});
