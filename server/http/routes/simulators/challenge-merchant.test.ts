import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSER, CHALLENGE_CARD } from '../../../test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, testGateway } from '../../../test-kit/gateway';

let gw: TestGateway;
let m: TestMerchant;

beforeAll(async () => {
  gw = await testGateway({ pending: { autoStart: false } });
  m = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
});
afterAll(() => gw.cleanup());

/**
 * The shopper confirms a payment to someone they know: the challenge page names the merchant (its
 * name, as the dashboard shows it), never the descriptor, which is the statement text.
 */
it("the challenge page names the merchant by its name, not the payment's descriptor", async () => {
  const res = await gw.post(
    '/v1/payments',
    {
      entityId: m.entityId,
      amount: '12.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: 'VISA',
      'card.number': CHALLENGE_CARD,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
      descriptor: 'STATEMENT*TEXT 42',
      shopperResultUrl: 'https://shop.example/result',
      ...BROWSER,
    },
    { token: m.token },
  );
  expect(res.body.result.code).toBe('000.200.000');
  const session = (res.body.redirect.parameters as { name: string; value: string }[]).find(
    (p) => p.name === 'threeDSSessionData',
  )?.value;
  const page = await gw.get('/simulators/acs/challenge', { threeDSSessionData: session ?? '' });
  expect(page.status).toBe(200);
  const merchant = /<dt>Merchant<\/dt><dd>([^<]*)<\/dd>/.exec(page.text)?.[1];
  expect(merchant).toMatch(/^Test Merchant [0-9a-f]{6}$/);
  expect(page.text).not.toContain('STATEMENT*TEXT 42');
});
