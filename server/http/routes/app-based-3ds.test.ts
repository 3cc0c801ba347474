/**
 * App-based 3-D Secure (issue 17, point 19) over HTTP (SQLite, fake clock): with
 * `threeDSecure.deviceInfo` (spec: "needed to start the app-based v2 flow") the browser fields are
 * not required, and a challenge is the app's: pending with the threeDSecure values the app's SDK
 * needs (acsTransactionId, dsTransactionId, version), no browser redirect; the SDK's challenge
 * exchange with the simulated access control server (CReq → CRes) ends it. On /v1/payments and
 * /v1/threeDSecure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parameterErrorNames as names } from '../../test-kit/answers';
import { fakeClock } from '../../test-kit/clock';
import { VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import { BILLING, CHALLENGE_CARD, FRICTIONLESS_CARD } from '../../test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** What a mobile SDK hands over: an opaque, encrypted device description. */
const DEVICE_INFO = 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.c2RrRGV2aWNlRGF0YQ';

describe('app-based 3-D Secure (threeDSecure.deviceInfo) over HTTP', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  const clock = fakeClock();

  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
  });
  afterAll(() => gw.cleanup());

  const card = (number: string) => ({
    entityId: m.entityId,
    amount: '92.00',
    currency: 'EUR',
    ...VISA_CARD_WITHOUT_CVV,
    'card.number': number,
  });
  const pay = (number: string, extra: Record<string, string> = {}) =>
    gw.post(
      '/v1/payments',
      {
        ...card(number),
        paymentType: 'DB',
        'card.cvv': '123',
        'threeDSecure.deviceInfo': DEVICE_INFO,
        ...BILLING,
        ...extra,
      },
      { token: m.token },
    );
  /** The app's SDK answering the challenge at the access control server (EMV CReq fields). */
  const challenge = (acsTransID: string, fields: Record<string, string>) =>
    gw.post('/simulators/acs/app/challenge', { acsTransID, messageType: 'CReq', ...fields });
  const status = (id: string) => gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });

  /** A pending app challenge: no browser redirect, the SDK's values in threeDSecure. */
  function expectAppChallenge(res: TestResponse): string {
    expect(res.status).toBe(200);
    expect(res.body.result.code).toBe('000.200.000');
    expect(res.body.redirect).toBeUndefined();
    const t = res.body.threeDSecure;
    expect(t.acsTransactionId).toMatch(UUID);
    expect(t.dsTransactionId).toMatch(UUID);
    expect(t.version).toBe('2.2.0');
    expect(t.eci).toBeUndefined();
    return t.acsTransactionId;
  }

  it('frictionless: no browser fields needed, answered at once with threeDSecure.*', async () => {
    const res = await pay(FRICTIONLESS_CARD);
    expect(res.status).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.threeDSecure.eci).toBe('05');
    expect(res.body.threeDSecure.authenticationStatus).toBe('Y');
  });

  it('the billing address stays mandatory for v2 in an app; without deviceInfo the shopper is met on the gateway page', async () => {
    const noBilling = await gw.post(
      '/v1/payments',
      { ...card(FRICTIONLESS_CARD), paymentType: 'DB', 'threeDSecure.deviceInfo': DEVICE_INFO },
      { token: m.token },
    );
    expect(noBilling.status).toBe(400);
    expect(names(noBilling)).toEqual([
      'billing.city',
      'billing.country',
      'billing.postcode',
      'billing.street1',
    ]);

    const browser = await gw.post(
      '/v1/payments',
      { ...card(FRICTIONLESS_CARD), paymentType: 'DB', ...BILLING },
      { token: m.token },
    );
    // Without deviceInfo it is a browser payment: what it lacks is met on the gateway's page,
    // which needs the address to send the shopper back to.
    expect(browser.status).toBe(400);
    expect(names(browser)).toEqual(['shopperResultUrl']);
  });

  it('challenge: pending for the app (no shopperResultUrl needed); the SDK answers the ACS; then paid', async () => {
    const res = await pay(CHALLENGE_CARD);
    const acsTransID = expectAppChallenge(res);
    expect((await status(res.body.id)).body.result.code).toBe('000.200.000');

    const cres = await challenge(acsTransID, { challengeDataEntry: '1234' });
    expect(cres.status).toBe(200);
    expect(cres.body).toEqual({
      messageType: 'CRes',
      messageVersion: '2.2.0',
      acsTransID,
      transStatus: 'Y',
      challengeCompletionInd: 'Y',
    });
    const done = await status(res.body.id);
    expect(done.body.result.code).toBe('000.100.110');
    expect(done.body.threeDSecure.eci).toBe('05');
    expect(done.body.threeDSecure.acsTransactionId).toBe(acsTransID);

    // the exchange is over: the same transaction answers its end again, changes nothing
    const again = await challenge(acsTransID, { challengeDataEntry: '0000' });
    expect(again.body.transStatus).toBe('Y');
  });

  it('a wrong code fails (800.400.200), a cancel cancels (100.396.101); an unknown transaction is 404', async () => {
    const wrong = await pay(CHALLENGE_CARD);
    const failed = await challenge(expectAppChallenge(wrong), { challengeDataEntry: '9999' });
    expect(failed.body.transStatus).toBe('N');
    expect((await status(wrong.body.id)).body.result.code).toBe('800.400.200');

    const left = await pay(CHALLENGE_CARD);
    const cancelled = await challenge(expectAppChallenge(left), { challengeCancel: '01' });
    expect(cancelled.body.challengeCompletionInd).toBe('Y');
    expect((await status(left.body.id)).body.result.code).toBe('100.396.101');

    const unknown = await challenge('00000000-0000-4000-8000-000000000000', { challengeDataEntry: '1234' });
    expect(unknown.status).toBe(404);
  });

  it('stand-alone: POST /v1/threeDSecure with deviceInfo is the app flow too', async () => {
    const res = await gw.post(
      '/v1/threeDSecure',
      { ...card(CHALLENGE_CARD), 'threeDSecure.deviceInfo': DEVICE_INFO, ...BILLING },
      { token: m.token },
    );
    const acsTransID = expectAppChallenge(res);
    expect(res.body.paymentType).toBe('3D');
    await challenge(acsTransID, { challengeDataEntry: '1234' });
    const done = await gw.get(
      `/v1/threeDSecure/${res.body.id}`,
      { entityId: m.entityId },
      { token: m.token },
    );
    expect(done.body.result.code).toBe('000.100.110');
    expect(done.body.threeDSecure.verificationId).toHaveLength(28);
  });
});
