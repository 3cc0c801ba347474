/**
 * Stand-alone 3-D Secure (issue 17, point 4) over HTTP on a gateway started with `startGateway`
 * (SQLite, fake clock): POST /v1/threeDSecure authenticates without paying (frictionless at once,
 * a challenge pending with the simulated issuer's page), GET /v1/threeDSecure/{id} reads the
 * result after the shopper's answer, and a later POST /v1/payments passes the result on as an
 * external authentication's values. Validation, refusals (not enrolled, live, EXTERNAL), unknown
 * ids and credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parameterErrorNames as names } from '../../test-kit/answers';
import { fakeClock } from '../../test-kit/clock';
import { VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import { BROWSER, CHALLENGE_CARD, FRICTIONLESS_CARD } from '../../test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const SHOP = 'https://shop.example/3ds?order=7';
const NOT_ENROLLED = '4200000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HEX32 = /^[0-9a-f]{32}$/;

function parameter(res: TestResponse, name: string): string {
  const found = (res.body.redirect?.parameters ?? []).find((p: { name: string }) => p.name === name);
  expect(found, `redirect parameter ${name}`).toBeDefined();
  return found.value;
}

describe('POST /v1/threeDSecure and GET /v1/threeDSecure/{id} over HTTP', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;
  let live: TestMerchant;
  const clock = fakeClock();

  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false } });
    // No 3-D Secure setting: a stand-alone authentication is asked for explicitly.
    m = await gw.addMerchant({ channels: 1 });
    other = await gw.addMerchant({ channels: 1 });
    live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
  });
  afterAll(() => gw.cleanup());

  const params = (number: string, extra: Record<string, string> = {}, who = m) => ({
    entityId: who.entityId,
    amount: '92.00',
    currency: 'EUR',
    ...VISA_CARD_WITHOUT_CVV,
    'card.number': number,
    shopperResultUrl: SHOP,
    ...BROWSER,
    ...extra,
  });
  const authenticate = (number: string, extra: Record<string, string> = {}, who = m) =>
    gw.post('/v1/threeDSecure', params(number, extra, who), { token: who.token });
  const read = (id: string, who = m) =>
    gw.get(`/v1/threeDSecure/${id}`, { entityId: who.entityId }, { token: who.token });
  const answer = (session: string, fields: Record<string, string>) =>
    gw.post('/simulators/acs/challenge/answer', { threeDSSessionData: session, ...fields });

  it('frictionless: answered at once with threeDSecure.*, nothing charged, durable, readable by id', async () => {
    const res = await authenticate(FRICTIONLESS_CARD);
    expect(res.status).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.id).toMatch(HEX32);
    expect(res.body.paymentType).toBe('3D');
    expect(res.body.amount).toBe('92.00');
    expect(res.body.currency).toBe('EUR');
    const t = res.body.threeDSecure;
    expect(t.eci).toBe('05');
    expect(t.verificationId).toHaveLength(28);
    expect(t.authenticationStatus).toBe('Y');
    expect(t.dsTransactionId).toMatch(UUID);
    expect(t.version).toBe('2.2.0');
    expect(res.body.card.last4Digits).toBe('0091');
    expect(res.text).not.toContain(FRICTIONLESS_CARD);
    expect(res.body.redirect).toBeUndefined();
    // durable before the answer: in the database already
    expect(await gw.paymentIds(m.merchantId)).toContain(res.body.id);

    const again = await read(res.body.id);
    expect(again.status).toBe(200);
    expect(again.body.result.code).toBe('000.100.110');
    expect(again.body.threeDSecure).toEqual(t);
  });

  it('challenge: pending with the issuer page; the answer returns the shopper with this resource path; then readable', async () => {
    const res = await authenticate(CHALLENGE_CARD);
    expect(res.status).toBe(200);
    expect(res.body.result.code).toBe('000.200.000');
    expect(res.body.redirect.url).toBe('http://localhost/simulators/acs/challenge');
    const id = res.body.id as string;
    const session = parameter(res, 'threeDSSessionData');
    expect(parameter(res, 'creq')).toBeTruthy();
    expect((await read(id)).body.result.code).toBe('000.200.000');

    const page = await gw.get('/simulators/acs/challenge', { threeDSSessionData: session });
    expect(page.status).toBe(200);
    expect(page.text).toContain('92.00');

    const back = await answer(session, { action: 'submit', otp: '1234' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${SHOP}&id=${id}&resourcePath=%2Fv1%2FthreeDSecure%2F${id}`);
    const done = await read(id);
    expect(done.status).toBe(200);
    expect(done.body.result.code).toBe('000.100.110');
    expect(done.body.threeDSecure.eci).toBe('05');
    expect(done.body.threeDSecure.verificationId).toHaveLength(28);
    expect(done.body.threeDSecure.authenticationStatus).toBe('Y');
    expect(done.body.redirect).toBeUndefined();
  });

  it('a failed challenge is readable as failed (800.400.200)', async () => {
    const res = await authenticate(CHALLENGE_CARD);
    await answer(parameter(res, 'threeDSSessionData'), { action: 'submit', otp: '0000' });
    const done = await read(res.body.id);
    expect(done.status).toBe(400);
    expect(done.body.result.code).toBe('800.400.200');
    expect(done.body.threeDSecure.authenticationStatus).toBe('N');
  });

  it('a later payment passes the result on as external values: no second authentication', async () => {
    const res = await authenticate(CHALLENGE_CARD);
    await answer(parameter(res, 'threeDSSessionData'), { action: 'submit', otp: '1234' });
    const t = (await read(res.body.id)).body.threeDSecure;
    const paid = await gw.post(
      '/v1/payments',
      {
        ...params(CHALLENGE_CARD),
        paymentType: 'DB',
        'card.cvv': '123',
        'threeDSecure.eci': t.eci,
        'threeDSecure.verificationId': t.verificationId,
        'threeDSecure.authenticationStatus': t.authenticationStatus,
        'threeDSecure.dsTransactionId': t.dsTransactionId,
        'threeDSecure.version': t.version,
      },
      { token: m.token },
    );
    expect(paid.status).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');
    expect(paid.body.paymentType).toBe('DB');
    expect(paid.body.redirect).toBeUndefined();
    expect(paid.body.threeDSecure.eci).toBe(t.eci);
  });

  it('is no payment: nothing references it (capture, refund, reversal, referenceUuid)', async () => {
    const res = await authenticate(FRICTIONLESS_CARD);
    const id = res.body.id as string;
    for (const paymentType of ['CP', 'RF', 'RV']) {
      const referenced = await gw.post(
        `/v1/payments/${id}`,
        { entityId: m.entityId, paymentType, amount: '92.00', currency: 'EUR' },
        { token: m.token },
      );
      expect(referenced.status, paymentType).toBe(400);
      expect(referenced.body.result.code, paymentType).toMatch(/^700\./);
    }
    const linked = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'PA',
        paymentBrand: 'VISA',
        referenceUuid: id,
      },
      { token: m.token },
    );
    expect(linked.status).toBe(400);
    expect(names(linked)).toEqual(['referenceUuid']);
  });

  it('validates: card and browser fields of v2, shopperResultUrl for a challenge, no result values; all at once', async () => {
    const bare = await gw.post(
      '/v1/threeDSecure',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentBrand: 'VISA' },
      { token: m.token },
    );
    expect(bare.status).toBe(400);
    expect(bare.body.result.code).toBe('200.300.404');
    expect(names(bare)).toEqual(
      expect.arrayContaining(['card.number', 'card.expiryMonth', 'card.expiryYear']),
    );

    const noBrowser = await gw.post(
      '/v1/threeDSecure',
      Object.fromEntries(
        Object.entries(params(FRICTIONLESS_CARD)).filter(([k]) => !k.startsWith('customer.')),
      ),
      { token: m.token },
    );
    expect(noBrowser.status).toBe(400);
    expect(names(noBrowser)).toContain('customer.browser.userAgent');

    const noReturn = await gw.post(
      '/v1/threeDSecure',
      Object.fromEntries(Object.entries(params(CHALLENGE_CARD)).filter(([k]) => k !== 'shopperResultUrl')),
      { token: m.token },
    );
    expect(noReturn.status).toBe(400);
    expect(names(noReturn)).toEqual(['shopperResultUrl']);

    const results = await authenticate(FRICTIONLESS_CARD, { 'threeDSecure.eci': '05', paymentType: 'DB' });
    expect(results.status).toBe(400);
    expect(names(results)).toEqual(['paymentType', 'threeDSecure.eci']);
    expect(results.text).not.toContain(FRICTIONLESS_CARD);
  });

  it('answers what the issuer says of cards it cannot authenticate: not enrolled 000.400.109, not participating 000.400.101', async () => {
    const none = await authenticate(NOT_ENROLLED);
    expect(none.status).toBe(400);
    expect(none.body.result.code).toBe('000.400.109');
    expect(none.body.id).toMatch(HEX32);
    const out = await authenticate('4532497088771651');
    expect(out.status).toBe(400);
    expect(out.body.result.code).toBe('000.400.101');
    // an unknown brand, as for a payment
    expect((await authenticate(FRICTIONLESS_CARD, { paymentBrand: 'NOPE' })).body.result.code).toBe(
      '600.200.100',
    );
  });

  it('is refused where no simulator authenticates: live (and EXTERNAL without a connector), 600.200.201', async () => {
    const onLive = await gw.live.post('/v1/threeDSecure', params(FRICTIONLESS_CARD, {}, live), {
      token: live.token,
    });
    expect(onLive.status).toBe(400);
    expect(onLive.body.result.code).toBe('600.200.201');
    const external = await authenticate(FRICTIONLESS_CARD, { testMode: 'EXTERNAL' });
    expect(external.body.result.code).toBe('600.200.201');
  });

  it('unknown ids, other merchants and payments are 404 with the catalogue text; credentials as everywhere', async () => {
    const unknown = await read('f'.repeat(32));
    expect(unknown.status).toBe(404);
    expect(unknown.body.result).toEqual({ code: '700.400.580', description: 'cannot find transaction' });

    const mine = await authenticate(FRICTIONLESS_CARD);
    expect((await read(mine.body.id, other)).status).toBe(404);
    const payment = await gw.post(
      '/v1/payments',
      { ...params(NOT_ENROLLED), paymentType: 'DB', 'card.cvv': '123' },
      { token: m.token },
    );
    expect(payment.status).toBe(200);
    expect((await read(payment.body.id)).status).toBe(404);

    expect((await gw.post('/v1/threeDSecure', params(FRICTIONLESS_CARD))).status).toBe(401);
    expect((await gw.get(`/v1/threeDSecure/${mine.body.id}`, { entityId: m.entityId })).status).toBe(401);
  });
});
