/**
 * The adyen connector against the fake of Adyen's Checkout API v71: the acceptance list of issue
 * 33 at the connector level (the contract, as the kit and the notification route call it) and
 * through a gateway's live address where the gateway already carries the flow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '../../../shared/engine/core/model';
import type { ProcessorInstrument } from '../../../shared/engine/core/ports';
import { forwardedPage } from '../../test-kit/connectors/shopper';
import {
  ADYEN_3DS2_VISA,
  ADYEN_VISA,
  type AdyenWorld,
  adyenShopper,
  adyenWorld,
} from '../../test-kit/fakes/adyen/world';
import type { TestMerchant } from '../../test-kit/gateway';
import type { ConnectorAnswer, ConnectorContract, InitialOrder } from '../kit/contract';
import { isNotSupported } from '../kit/contract';
import { adyenConnector } from './connector';

let world: AdyenWorld;
let merchant: TestMerchant;
let contract: ConnectorContract;

beforeAll(async () => {
  world = await adyenWorld();
  merchant = world.merchant;
  contract = world.contract;
}, 120_000);
afterAll(async () => {
  await world?.cleanup();
});

const RETURN = 'https://gateway.example/v1/connectors/return/pay-1';

function card(number: string, holder = 'Jane Shopper', cvv = '737'): ProcessorInstrument {
  return { kind: 'card', brand: 'VISA', number, expiryMonth: '03', expiryYear: '2030', cvv, holder };
}

/** An initial order as the kit hands it over. */
function order(
  request: Record<string, unknown>,
  instrument: ProcessorInstrument,
  extra: Partial<InitialOrder> = {},
) {
  return {
    channel: {} as never,
    request: { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...request },
    decide: { instrument },
    now: new Date(),
    paymentId: `pay-${Math.random().toString(16).slice(2)}`,
    returnUrl: RETURN,
    ...extra,
  } as InitialOrder;
}

const answered = (answer: Awaited<ReturnType<ConnectorContract['debit']>>): ConnectorAnswer => {
  if (isNotSupported(answer)) throw new Error(`not supported: ${answer.notSupported}`);
  return answer;
};

/** The shopper on the fake's page (challenge or provider), choosing; what they bring back. */
async function shopperChooses(
  redirect: ConnectorAnswer['redirect'],
  outcome: 'approve' | 'decline',
): Promise<Record<string, string>> {
  expect(redirect?.method).toBe('GET');
  const fields = Object.fromEntries((redirect?.parameters ?? []).map((p) => [p.name, p.value]));
  const back = await adyenShopper(world.fake)(
    { action: redirect?.url ?? '', method: 'get', fields },
    outcome,
  );
  const location = new URL(back);
  expect(`${location.origin}${location.pathname}`).toBe(RETURN);
  return Object.fromEntries(location.searchParams);
}

const paymentOf = (id: string, theirs: string) =>
  ({ id, paymentType: 'DB', details: { resultDetails: { ConnectorTxID1: theirs } } }) as unknown as Payment;

const post = (path: string, params: Record<string, string>, as = merchant) =>
  world.gateway.live.post(path, { entityId: as.entityId, ...params }, { token: as.token });

describe('payments through the live address', () => {
  it('DB: 000.000.000, Adyen’s pspReference kept, the gateway’s id as Adyen’s reference, in minor units', async () => {
    const db = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '12.34',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(db.status, db.text).toBe(200);
    expect(db.body.result.code).toBe('000.000.000');
    const psp = db.body.resultDetails.ConnectorTxID1;
    expect(psp).toMatch(/^[0-9A-Z]{16}$/);
    expect(db.body.resultDetails.AcquirerResponse).toBe('Authorised');
    expect(db.body.result.cvvResponse).toBe('M');
    const sent = world.fake.received.filter((r) => r.path === '/payments').at(-1)?.body as Record<
      string,
      unknown
    >;
    expect(sent).toMatchObject({
      amount: { value: 1234, currency: 'EUR' },
      reference: db.body.id,
      merchantAccount: world.fake.merchantAccount,
      paymentMethod: { type: 'scheme', number: ADYEN_VISA['card.number'], cvc: '737' },
      captureDelayHours: 0,
    });
  });

  it('PA → CP → RF: each accepted as received, its outcome in a signed notification', async () => {
    const pa = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '20.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    expect(pa.body.result.code, pa.text).toBe('000.000.000');
    const cp = await post(`/v1/payments/${pa.body.id}`, {
      paymentType: 'CP',
      amount: '20.00',
      currency: 'EUR',
    });
    expect(cp.body.result.code, cp.text).toBe('000.000.000');
    expect(cp.body.resultDetails.AcquirerResponse).toBe('received');
    const rf = await post(`/v1/payments/${cp.body.id}`, {
      paymentType: 'RF',
      amount: '5.00',
      currency: 'EUR',
    });
    expect(rf.body.result.code, rf.text).toBe('000.000.000');
    const paths = world.fake.received.slice(-3).map((r) => r.path);
    const psp = pa.body.resultDetails.ConnectorTxID1;
    // the refund of the capture is of Adyen's payment
    expect(paths).toEqual(['/payments', `/payments/${psp}/captures`, `/payments/${psp}/refunds`]);
    // the notifications Adyen sends afterwards tell the outcome, each verified by its HMAC
    const told = await Promise.all(
      world.fake.outbox.slice(-2).map((body) => contract.verifyNotification({ headers: {}, body })),
    );
    expect(told.map((t) => (isNotSupported(t) ? t : [t.code, t.processorCode]))).toEqual([
      ['000.000.000', 'CAPTURE true'],
      ['000.000.000', 'REFUND true'],
    ]);
  });

  it('RV of an authorisation: Adyen’s /cancels', async () => {
    const pa = await post('/v1/payments', {
      ...ADYEN_VISA,
      amount: '7.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    const rv = await post(`/v1/payments/${pa.body.id}`, { paymentType: 'RV' });
    expect(rv.body.result.code, rv.text).toBe('000.000.000');
    expect(world.fake.received.at(-1)?.path).toBe(
      `/payments/${pa.body.resultDetails.ConnectorTxID1}/cancels`,
    );
  });

  it('a refusal by Adyen: the family’s decline code, Adyen’s refusal kept', async () => {
    const declined = await post('/v1/payments', {
      ...ADYEN_VISA,
      'card.holder': 'DECLINED',
      amount: '3.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(declined.status).toBe(400);
    expect(declined.body.result.code).toBe('800.100.152');
    expect(declined.body.resultDetails).toMatchObject({
      AcquirerResponse: 'Refused 2',
      refusalReason: 'Refused',
    });
  });

  it('every POST carried the API key and an Idempotency-Key', () => {
    expect(world.fake.received.length).toBeGreaterThan(0);
    for (const request of world.fake.received) {
      expect(request.apiKey).toBe(world.fake.apiKey);
      expect(request.idempotencyKey, request.path).toEqual(expect.any(String));
    }
  });
});

describe('the contract against the fake', () => {
  it('maps Adyen’s refusal reasons onto the family’s decline codes', async () => {
    const cases: [string, string, string][] = [
      ['NOT_ENOUGH_BALANCE', '800.100.155', 'Refused 12'],
      ['CVC_DECLINED', '800.100.153', 'Refused 24'],
      ['BLOCK_CARD', '800.100.160', 'Refused 5'],
      ['FRAUD', '800.100.158', 'Refused 20'],
    ];
    for (const [holder, code, processorCode] of cases) {
      const answer = answered(await contract.debit(order({}, card('4111111145551142', holder))));
      expect([holder, answer.code, answer.processorCode]).toEqual([holder, code, processorCode]);
    }
  });

  it('an enrolled card through 3-D Secure 2: pending with Adyen’s action, challenge, then /payments/details', async () => {
    const pending = answered(await contract.debit(order({}, card(ADYEN_3DS2_VISA['card.number']))));
    expect(pending.code).toBe('000.200.000');
    expect(pending.processorCode).toBe('RedirectShopper');
    expect(pending.redirect).toMatchObject({
      method: 'GET',
      url: expect.stringContaining('/pages/challenge'),
    });
    const back = await shopperChooses(pending.redirect, 'approve');
    const verdict = answered(
      await contract.finish({ payment: paymentOf('pay-3ds', pending.id ?? ''), parameters: back }),
    );
    expect(verdict.code).toBe('000.000.000');
    expect(verdict.threeDSecure).toMatchObject({ eci: '05', authenticationStatus: 'Y', version: '2.2.0' });
    expect(world.fake.received.at(-1)).toMatchObject({ path: '/payments/details', body: { details: back } });
  });

  it('a failed challenge is Adyen’s 11 "3D Not Authenticated"', async () => {
    const pending = answered(await contract.debit(order({}, card(ADYEN_3DS2_VISA['card.number']))));
    const back = await shopperChooses(pending.redirect, 'decline');
    const verdict = answered(
      await contract.finish({ payment: paymentOf('p', pending.id ?? ''), parameters: back }),
    );
    expect([verdict.code, verdict.processorCode]).toEqual(['100.390.114', 'Refused 11']);
  });

  it('a redirect method (iDEAL): Adyen’s type, the provider’s page, then its verdict', async () => {
    const pending = answered(await contract.debit(order({ paymentBrand: 'IDEAL' }, { kind: 'other' })));
    expect(world.fake.received.at(-1)?.body).toMatchObject({
      paymentMethod: { type: 'ideal' },
      returnUrl: RETURN,
    });
    expect(pending.redirect?.url).toContain('/pages/provider');
    const back = await shopperChooses(pending.redirect, 'approve');
    const verdict = answered(
      await contract.finish({ payment: paymentOf('p', pending.id ?? ''), parameters: back }),
    );
    expect(verdict.code).toBe('000.000.000');
  });

  it('a redirect brand Adyen does not take here (EPS) is not supported, nothing sent', async () => {
    const before = world.fake.requests();
    expect(await contract.debit(order({ paymentBrand: 'EPS' }, { kind: 'other' }))).toEqual({
      notSupported: 'debit',
    });
    expect(world.fake.requests()).toBe(before);
  });

  it('a registration stores the card; a merchant-initiated repeat goes as ContAuth with its shopper', async () => {
    const registered = answered(
      await contract.register({
        channel: {} as never,
        request: {},
        decide: { instrument: card('4111111145551142') },
        now: new Date(),
      }),
    );
    expect(registered.code).toBe('000.000.000');
    expect(world.fake.received.at(-1)?.body).toMatchObject({
      amount: { value: 0 },
      storePaymentMethod: true,
      recurringProcessingModel: 'CardOnFile',
      shopperInteraction: 'Ecommerce',
    });
    const [stored, shopper] = (registered.registrationId ?? '').split(':');
    const repeat = answered(
      await contract.payWithRegistration({
        channel: {} as never,
        registration: {} as never,
        request: {
          amount: '9.99',
          currency: 'EUR',
          paymentType: 'DB',
          standingInstruction: { mode: 'REPEATED', source: 'MIT', type: 'UNSCHEDULED' },
        },
        decide: { instrument: { kind: 'storedCard', brand: 'VISA', expiryMonth: '03', expiryYear: '2030' } },
        now: new Date(),
        theirRegistrationId: registered.registrationId ?? '',
      }),
    );
    expect(repeat.code).toBe('000.000.000');
    expect(world.fake.received.at(-1)?.body).toMatchObject({
      amount: { value: 999, currency: 'EUR' },
      paymentMethod: { type: 'scheme', storedPaymentMethodId: stored },
      shopperReference: shopper,
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'UnscheduledCardOnFile',
    });
  });

  it('Adyen’s error body is a failure with its errorCode kept (a wrong API key: 401)', async () => {
    const wrong = adyenConnector({ ...world.settings(), apiKey: 'not-the-key' }, (url, init) =>
      fetch(url, init),
    );
    const answer = answered(await wrong.debit(order({}, card('4111111145551142'))));
    expect(answer).toMatchObject({ code: '999.999.999', processorCode: 'security 000' });
  });
});

describe('standard notifications', () => {
  /** A capture, and the notification Adyen sends about it. */
  async function captureNotice(): Promise<string> {
    const pa = answered(await contract.authorize(order({ paymentType: 'PA' }, card('4111111145551142'))));
    const before = world.fake.outbox.length;
    answered(
      await contract.capture({
        channel: {} as never,
        paymentType: 'CP',
        referenced: { amount: 1000, currency: 'EUR', paymentType: 'PA' } as never,
        request: { amount: '10.00', currency: 'EUR' },
        now: new Date(),
        theirId: pa.id ?? '',
      }),
    );
    expect(world.fake.outbox.length).toBe(before + 1);
    return world.fake.outbox.at(-1) ?? '';
  }

  it('a valid HMAC: what it says, the same event however often it is sent', async () => {
    const body = await captureNotice();
    const thrice = await Promise.all([1, 2, 3].map(() => contract.verifyNotification({ headers: {}, body })));
    const [first] = thrice as [ConnectorAnswer & { notice?: { eventId: string } }];
    expect(first).toMatchObject({ code: '000.000.000', processorCode: 'CAPTURE true' });
    expect(new Set(thrice.map((t) => (t as { notice?: { eventId: string } }).notice?.eventId)).size).toBe(1);
  });

  it('an invalid HMAC (the amount changed after signing), no key, or not Adyen’s: refused', async () => {
    const body = await captureNotice();
    const tampered = body.replace('"value":1000', '"value":1');
    expect(tampered).not.toBe(body);
    const refusedCode = '800.900.300';
    expect(
      (await contract.verifyNotification({ headers: {}, body: tampered })) as ConnectorAnswer,
    ).toMatchObject({
      code: refusedCode,
    });
    const keyless = adyenConnector({ ...world.settings(), hmacKey: undefined }, fetch);
    expect(((await keyless.verifyNotification({ headers: {}, body })) as ConnectorAnswer).code).toBe(
      refusedCode,
    );
    expect(
      ((await contract.verifyNotification({ headers: {}, body: '[accepted]' })) as ConnectorAnswer).code,
    ).toBe(refusedCode);
  });

  it('a failed refund (over what was captured) is told as the refund’s failure', async () => {
    const db = answered(await contract.debit(order({}, card('4111111145551142'))));
    answered(
      await contract.refund({
        channel: {} as never,
        paymentType: 'RF',
        referenced: { amount: 1000, currency: 'EUR', paymentType: 'DB' } as never,
        request: { amount: '50.00', currency: 'EUR' },
        now: new Date(),
        theirId: db.id ?? '',
      }),
    );
    const told = (await contract.verifyNotification({
      headers: {},
      body: world.fake.outbox.at(-1) ?? '',
    })) as ConnectorAnswer;
    expect([told.code, told.processorCode]).toEqual(['700.400.200', 'REFUND false']);
  });
});

describe('Adyen’s notifications at the gateway’s address (/connectors/adyen/notifications/{entityId})', () => {
  const notify = (body: string) =>
    world.gateway.live.send('POST', `/connectors/adyen/notifications/${merchant.entityId}`, body, {
      headers: { 'Content-Type': 'application/json' },
    });
  const read = (id: string) =>
    world.gateway.live.get(`/v1/payments/${id}`, { entityId: merchant.entityId }, { token: merchant.token });

  /** A PayPal payment the shopper approved at the provider, never coming back: Adyen's AUTHORISATION. */
  async function approvedWithoutReturn(): Promise<{ id: string; notification: string }> {
    const pending = await post('/v1/payments', {
      paymentBrand: 'PAYPAL',
      amount: '8.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(pending.body.result.code, pending.text).toBe('000.200.000');
    const page = await forwardedPage(world.gateway.live, pending.body.redirect);
    await adyenShopper(world.fake)(page, 'approve');
    const notification = world.fake.outbox.at(-1) ?? '';
    expect(JSON.parse(notification).notificationItems[0].NotificationRequestItem).toMatchObject({
      eventCode: 'AUTHORISATION',
      success: 'true',
      merchantReference: pending.body.id,
    });
    return { id: pending.body.id, notification };
  }

  it('a valid HMAC ends the pending payment, once however often Adyen sends it; answered [accepted]', async () => {
    const { id, notification } = await approvedWithoutReturn();
    expect((await read(id)).body.result.code).toBe('000.200.000');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await notify(notification));
    expect(answers.map((a) => [a.status, a.text])).toEqual(Array(3).fill([200, '[accepted]']));
    const ended = await read(id);
    expect(ended.body.result.code, ended.text).toBe('000.000.000');
    expect(ended.body.resultDetails.ConnectorTxID1).toEqual(expect.any(String));
  });

  it('an invalid HMAC: 401, and the payment stays as it was', async () => {
    const { id, notification } = await approvedWithoutReturn();
    const forged = notification.replace('"success":"true"', '"success":"false"');
    expect(forged).not.toBe(notification);
    const answer = await notify(forged);
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body.result.code).toBe('800.900.300');
    expect((await read(id)).body.result.code).toBe('000.200.000');
  });
});

describe('what the adyen connector sent in these tests', () => {
  it('every request matched the published Checkout API v71 schema', ({ skip }) => {
    if (!world.fake.schemaChecked)
      skip('../shared/facts/connectors/adyen is not here: nothing to check against');
    expect(world.fake.requests()).toBeGreaterThan(10);
    expect(world.fake.schemaFailures).toEqual([]);
  });
});
