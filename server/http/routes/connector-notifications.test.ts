/**
 * The processors' notification route, `POST /connectors/{kind}/notifications/{entityId}`: the
 * channel's connector verifies the signature (Adyen's HMAC here, signed by the test kit's fake from
 * Adyen's documentation); a bad one is 401 and changes nothing; a good one is acknowledged the way
 * the processor expects, however often it comes; unknown channels and kinds are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signItem } from '../../test-kit/fakes/adyen/notifications';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const ACCOUNT = 'ShopECOM';

let gw: TestGateway;
let adyen: TestMerchant;
let opp: TestMerchant;

beforeAll(async () => {
  gw = await testGateway();
  adyen = await gw.addMerchant({
    channels: 1,
    settings: {
      connector: {
        kind: 'adyen',
        baseUrl: 'http://adyen.test',
        apiKey: 'key',
        merchantAccount: ACCOUNT,
        hmacKey: HMAC_KEY,
      },
    },
  });
  opp = await gw.addMerchant({
    channels: 1,
    settings: {
      connector: {
        baseUrl: 'http://peer.test',
        entityId: '0123456789abcdef0123456789abcdef',
        accessToken: 't',
      },
    },
  });
});
afterAll(() => gw?.cleanup());

function adyenBody(merchantReference: string, key = HMAC_KEY): string {
  const item = {
    amount: { value: 2000, currency: 'EUR' },
    eventCode: 'AUTHORISATION',
    eventDate: '2026-11-21T12:00:00+00:00',
    merchantAccountCode: ACCOUNT,
    merchantReference,
    pspReference: 'ZX6Q7BWHBJ4QFK65',
    reason: '',
    success: 'true',
  };
  return JSON.stringify({
    live: 'false',
    notificationItems: [{ NotificationRequestItem: signItem(item, key) }],
  });
}

const notify = (kind: string, entityId: string, body: string) =>
  gw.app.request(`/connectors/${kind}/notifications/${entityId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });

describe('POST /connectors/{kind}/notifications/{entityId}', () => {
  it('a signature that is not the processor’s: 401, nothing changes', async () => {
    const res = await notify('adyen', adyen.entityId, adyenBody('a'.repeat(32), 'AA'.repeat(32)));
    expect(res.status).toBe(401);
    expect((await res.json()).result.code).toBe('800.900.300');
  });

  it('a verified one is acknowledged as Adyen expects, each time it comes', async () => {
    const pay = await gw.post(
      '/v1/payments',
      {
        entityId: opp.entityId,
        amount: '1.00',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'VISA',
        'card.number': '4200000000000000',
        'card.expiryMonth': '05',
        'card.expiryYear': '2034',
        'card.cvv': '123',
      },
      { token: opp.token },
    );
    const body = adyenBody(pay.body.id ?? 'f'.repeat(32));
    for (let i = 0; i < 3; i++) {
      const res = await notify('adyen', adyen.entityId, body);
      expect([res.status, await res.text()]).toEqual([200, '[accepted]']);
    }
  });

  it('404 for a channel without a connector of that kind, an unknown channel, a kind without notifications', async () => {
    expect((await notify('stripe', adyen.entityId, '{}')).status).toBe(404);
    expect((await notify('adyen', '0123456789abcdef0123456789abcdef', adyenBody('x'))).status).toBe(404);
    expect((await notify('opp', opp.entityId, '{}')).status).toBe(404);
  });
});
