/**
 * The stripe connector against the stateful fake of Stripe (server/test-kit/fakes/stripe/), at
 * the contract: what it sends Stripe (minor units, capture methods, idempotency keys, the card
 * as payment_method_data) and what it makes of Stripe's answers (the family's codes, the 3-D
 * Secure redirect and its return, registrations and off-session repeats, webhooks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '../../../shared/engine/core/model';
import {
  type StripeFake,
  startStripeFake,
  stripeSettings,
  stripeSignature,
  TEST_WEBHOOK_SECRET,
} from '../../test-kit/fakes/stripe';
import { type ConnectorAnswer, isNotSupported, type NotSupported } from '../kit/contract';
import { stripeConnector } from './connector';

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

const send = (url: string, init: RequestInit) => fetch(url, init);
const connector = () => stripeConnector(stripeSettings(fake.baseUrl), send);

const card = (number: string) => ({
  kind: 'card' as const,
  brand: 'VISA',
  number,
  expiryMonth: '12',
  expiryYear: '2034',
  cvv: '123',
  holder: 'Jane Jones',
});

let ids = 0;
/** An initial order as the engine gives it: the gateway's payment id and its return address. */
function order(number: string, amount: string, paymentType: string, extra: Record<string, unknown> = {}) {
  const paymentId = `8ac7a4a0${String(++ids).padStart(24, '0')}`;
  return {
    channel: {} as never,
    request: { amount, currency: 'EUR', paymentType, ...extra },
    decide: { instrument: card(number) },
    now: new Date(),
    paymentId,
    returnUrl: `https://gateway.example/v1/connector-return/${paymentId}`,
  };
}

/** A payment of the gateway's that the connector made, as `referenced`. */
const made = (answer: ConnectorAnswer, paymentType: string, id = 'gw-1'): Payment =>
  ({
    id,
    paymentType,
    amount: 1000,
    currency: 'EUR',
    details: { resultDetails: { ConnectorTxID1: answer.id } },
  }) as unknown as Payment;

function answered(answer: ConnectorAnswer | NotSupported): ConnectorAnswer {
  if (isNotSupported(answer)) throw new Error(`not supported: ${answer.notSupported}`);
  return answer;
}

const lastRequest = (path: string) => [...fake.requests].reverse().find((r) => r.path === path);

describe('the stripe connector, against the fake of Stripe', () => {
  it('DB: a PaymentIntent confirmed with the card, captured at once, in minor units', async () => {
    const db = answered(await connector().debit(order('4242424242424242', '10.50', 'DB')));
    expect(db).toMatchObject({
      code: '000.000.000',
      processorCode: 'succeeded',
      id: expect.stringMatching(/^pi_/),
    });
    expect(db.result).toEqual({ cvvResponse: 'M' });
    expect(db.card).toEqual({ type: 'CREDIT', binCountry: 'US' });
    const sent = lastRequest('/v1/payment_intents');
    expect(sent?.form).toMatchObject({
      amount: '1050',
      currency: 'eur',
      confirm: 'true',
      capture_method: 'automatic',
      payment_method_data: {
        type: 'card',
        card: { number: '4242424242424242', exp_month: '12', exp_year: '2034', cvc: '123' },
      },
      metadata: { gateway_payment_id: expect.stringMatching(/^8ac7a4a0/) },
    });
    expect(sent?.idempotencyKey).toMatch(/^opg-8ac7a4a0\d+-debit$/);
  });

  it('PA → CP in part → RF: held, captured, refunded; over the captured amount refused with 700.400.200', async () => {
    const c = connector();
    const pa = answered(await c.authorize(order('4242424242424242', '10.00', 'PA')));
    expect(pa).toMatchObject({ code: '000.000.000', processorCode: 'requires_capture' });
    expect(lastRequest('/v1/payment_intents')?.form.capture_method).toBe('manual');
    const theirId = pa.id as string;
    const ref = (paymentType: string, amount: string, referenced = made(pa, 'PA')) => ({
      channel: {} as never,
      paymentType: paymentType as 'CP',
      referenced,
      request: { amount, currency: 'EUR', paymentType },
      now: new Date(),
      theirId,
    });
    const cp = answered(await c.capture(ref('CP', '6.00')));
    expect(cp).toMatchObject({ code: '000.000.000', processorCode: 'succeeded', id: theirId });
    expect(lastRequest(`/v1/payment_intents/${theirId}/capture`)?.form.amount_to_capture).toBe('600');
    const rf = answered(await c.refund(ref('RF', '2.50', made(cp, 'CP'))));
    expect(rf).toMatchObject({ code: '000.000.000', id: expect.stringMatching(/^re_/) });
    expect(lastRequest('/v1/refunds')?.form).toMatchObject({ payment_intent: theirId, amount: '250' });
    const over = answered(await c.refund(ref('RF', '4.00', made(cp, 'CP'))));
    expect(over).toMatchObject({ code: '700.400.200', processorCode: 'amount_too_large' });
  });

  it('RV: an authorisation cancelled; the same cancel again is answered Stripe’s first answer (its idempotency key)', async () => {
    const c = connector();
    const pa = answered(await c.authorize(order('4242424242424242', '7.00', 'PA')));
    const rv = {
      channel: {} as never,
      paymentType: 'RV' as const,
      referenced: made(pa, 'PA'),
      request: { paymentType: 'RV' },
      now: new Date(),
      theirId: pa.id as string,
    };
    expect(answered(await c.reverse(rv))).toMatchObject({ code: '000.000.000', processorCode: 'canceled' });
    expect(fake.ledger.intents.get(pa.id as string)?.status).toBe('canceled');
    const again = await stripeConnector(stripeSettings(fake.baseUrl), send).reverse({
      ...rv,
      referenced: made(pa, 'PA', 'gw-2'),
    });
    // the same cancel's idempotency key: Stripe replays its first answer
    expect(answered(again).code).toBe('000.000.000');
  });

  it('declines map onto the family’s codes, Stripe’s own code kept', async () => {
    const cases: [string, string, string][] = [
      ['4000000000000002', '800.100.100', 'generic_decline'],
      ['4000000000009995', '800.100.155', 'insufficient_funds'],
      ['4000000000009987', '800.100.165', 'lost_card'],
      ['4000000000000069', '100.100.303', 'expired_card'],
      ['4000000000000127', '800.100.153', 'incorrect_cvc'],
    ];
    const before = fake.ledger.charges.length;
    for (const [number, code, theirs] of cases) {
      const answer = answered(await connector().debit(order(number, '2.00', 'DB')));
      expect(answer, number).toMatchObject({
        code,
        processorCode: theirs,
        id: expect.stringMatching(/^pi_/),
      });
    }
    // nothing was charged
    expect(fake.ledger.charges.length).toBe(before);
  });

  it('an enrolled card: requires_action → Stripe’s page → the return address → finish reads succeeded with its 3-D Secure results', async () => {
    const c = connector();
    const sent = order('4000002500003155', '30.00', 'DB');
    const pending = answered(await c.debit(sent));
    expect(pending).toMatchObject({ code: '000.200.000', processorCode: 'requires_action' });
    expect(lastRequest('/v1/payment_intents')?.form.return_url).toBe(sent.returnUrl);
    const page = pending.redirect?.url as string;
    expect(page).toMatch(/\/authenticate\/pi_/);
    expect(await (await fetch(page)).text()).toContain('3D Secure 2 Test Page');
    const back = await fetch(page, {
      method: 'POST',
      body: 'outcome=complete',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(back.status).toBe(302);
    const returned = new URL(back.headers.get('location') as string);
    expect(`${returned.origin}${returned.pathname}`).toBe(sent.returnUrl);
    expect(returned.searchParams.get('redirect_status')).toBe('succeeded');
    const payment = made(pending, 'DB', sent.paymentId);
    const verdict = answered(
      await c.finish({ payment, parameters: Object.fromEntries(returned.searchParams) }),
    );
    expect(verdict).toMatchObject({
      code: '000.000.000',
      id: pending.id,
      threeDSecure: { authenticationStatus: 'Y', eci: '05', version: '2.2.0' },
    });
  });

  it('a failed authentication: finish reads the decline 100.380.401; the shopper’s own payment_intent parameter is never trusted', async () => {
    const c = connector();
    const other = answered(await c.debit(order('4242424242424242', '1.00', 'DB')));
    const pending = answered(await c.debit(order('4000000000003220', '5.00', 'DB')));
    await fetch(pending.redirect?.url as string, {
      method: 'POST',
      body: 'outcome=fail',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    const verdict = answered(
      await c.finish({ payment: made(pending, 'DB'), parameters: { payment_intent: other.id as string } }),
    );
    expect(verdict).toMatchObject({ code: '100.380.401', id: pending.id });
  });

  it('a registration, then an off-session repeat that needs no shopper', async () => {
    const c = connector();
    const rg = answered(
      await c.register({
        channel: {} as never,
        request: { 'customer.email': 'jane@example.com' },
        decide: { instrument: card('4000002500003155') },
        now: new Date(),
      }),
    );
    expect(rg).toMatchObject({
      code: '000.000.000',
      registrationId: expect.stringMatching(/^cus_\w+:pm_\w+$/),
    });
    const repeat = {
      channel: {} as never,
      registration: {} as never,
      request: {
        amount: '6.00',
        currency: 'EUR',
        paymentType: 'DB',
        standingInstruction: { source: 'MIT', mode: 'REPEATED', type: 'UNSCHEDULED' },
      },
      decide: {
        instrument: { kind: 'storedCard' as const, brand: 'VISA', expiryMonth: '12', expiryYear: '2034' },
      },
      now: new Date(),
      theirRegistrationId: rg.registrationId as string,
    };
    // 3155 asks for 3-D Secure on-session, not once set up for off-session payments
    const paid = answered(await c.payWithRegistration(repeat));
    expect(paid).toMatchObject({ code: '000.000.000', processorCode: 'succeeded' });
    const [customer, method] = (rg.registrationId as string).split(':');
    expect(lastRequest('/v1/payment_intents')?.form).toMatchObject({
      off_session: 'true',
      customer,
      payment_method: method,
      amount: '600',
    });
  });

  it('a payment that registers along: setup_future_usage with a customer, its registration answered', async () => {
    const answer = answered(
      await connector().debit(order('4242424242424242', '3.00', 'DB', { createRegistration: 'true' })),
    );
    expect(answer).toMatchObject({
      code: '000.000.000',
      registrationId: expect.stringMatching(/^cus_\w+:pm_\w+$/),
    });
    expect(lastRequest('/v1/payment_intents')?.form).toMatchObject({
      setup_future_usage: 'off_session',
      customer: expect.stringMatching(/^cus_/),
    });
  });

  it('a retried POST charges once: the answer lost on the way back, the SDK’s retry carries the same key', async () => {
    let dropped = false;
    const losing = async (url: string, init: RequestInit) => {
      const response = await fetch(url, init);
      if (!dropped && init.method === 'POST' && new URL(url).pathname === '/v1/payment_intents') {
        dropped = true;
        await response.arrayBuffer();
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        });
      }
      return response;
    };
    const before = fake.ledger.charges.length;
    const sent = order('4242424242424242', '9.99', 'DB');
    const answer = answered(await stripeConnector(stripeSettings(fake.baseUrl), losing).debit(sent));
    expect(answer.code).toBe('000.000.000');
    expect(fake.ledger.charges.length - before).toBe(1);
    const tries = fake.requests.filter((r) => r.idempotencyKey === `opg-${sent.paymentId}-debit`);
    expect(tries).toHaveLength(2);
    // and the gateway's own retry of the same payment (after an uncertain outcome) is the same request
    expect(answered(await connector().debit(sent)).id).toBe(answer.id);
    expect(fake.ledger.charges.length - before).toBe(1);
  });

  it('inquire finds an uncertain payment by the gateway’s id, and says 700.400.580 when Stripe has none', async () => {
    const sent = order('4242424242424242', '4.00', 'DB');
    const db = answered(await connector().debit(sent));
    const unknownId = { id: sent.paymentId, details: {} } as unknown as Payment;
    expect(answered(await connector().inquire(unknownId))).toMatchObject({ code: '000.000.000', id: db.id });
    expect(fake.requests.at(-1)?.path).toBe('/v1/payment_intents/search');
    const none = { id: 'never-sent', details: {} } as unknown as Payment;
    expect(answered(await connector().inquire(none)).code).toBe('700.400.580');
  });

  it('inquire finds an uncertain capture or refund on the PaymentIntent it modified; none there: 700.400.580; no PaymentIntent: pending', async () => {
    const pa = answered(await connector().authorize(order('4242424242424242', '10.00', 'PA')));
    const authorised = made(pa, 'PA', 'gw-pa');
    const modification = (id: string, paymentType: string) =>
      ({ id, paymentType, referencedId: authorised.id, details: {} }) as unknown as Payment;
    // not captured yet: Stripe has no such capture
    expect(answered(await connector().inquire(modification('gw-cp-0', 'CP'), authorised)).code).toBe(
      '700.400.580',
    );
    // captured, the answer lost: the PaymentIntent says so
    await connector().capture({
      channel: {} as never,
      paymentType: 'CP',
      referenced: authorised,
      theirId: pa.id ?? '',
      request: { amount: '10.00', currency: 'EUR', paymentType: 'CP' },
      now: new Date(),
      paymentId: 'gw-cp-1',
    });
    expect(answered(await connector().inquire(modification('gw-cp-1', 'CP'), authorised))).toMatchObject({
      code: '000.000.000',
      id: pa.id,
    });
    // a refund, found among the charge's refunds by the gateway's id
    const db = answered(await connector().debit(order('4242424242424242', '8.00', 'DB')));
    const debited = made(db, 'DB', 'gw-db');
    const refund = answered(
      await connector().refund({
        channel: {} as never,
        paymentType: 'RF',
        referenced: debited,
        theirId: db.id ?? '',
        request: { amount: '3.00', currency: 'EUR', paymentType: 'RF' },
        now: new Date(),
        paymentId: 'gw-rf-1',
      }),
    );
    const refundOf = (id: string) =>
      ({ id, paymentType: 'RF', referencedId: 'gw-db', details: {} }) as unknown as Payment;
    expect(answered(await connector().inquire(refundOf('gw-rf-1'), debited))).toMatchObject({
      code: '000.000.000',
      id: refund.id,
    });
    expect(answered(await connector().inquire(refundOf('gw-rf-2'), debited)).code).toBe('700.400.580');
    // without the PaymentIntent it modified, nothing to read: pending until Stripe's notification
    expect(answered(await connector().inquire(refundOf('gw-rf-3'))).code).toBe('000.200.000');
  });

  it('a connection refused is a known failure; a connection dropped mid-answer is uncertain', async () => {
    const { refusingAddress, droppingServer } = await import('../../test-kit/fakes/stripe');
    const refused = answered(
      await stripeConnector(stripeSettings(await refusingAddress()), send).debit(
        order('4242424242424242', '1.00', 'DB'),
      ),
    );
    expect(refused).toMatchObject({ code: '999.999.999', technical: 'refused' });
    const dropping = await droppingServer(50);
    try {
      const lost = answered(
        await stripeConnector(stripeSettings(dropping.baseUrl), send).debit(
          order('4242424242424242', '1.00', 'DB'),
        ),
      );
      expect(lost).toMatchObject({ code: '900.100.300', technical: 'uncertain' });
    } finally {
      await dropping.close();
    }
  });
});

describe('Stripe’s webhooks', () => {
  it('a signed event is verified and names its payment; the same event three times is one event id', async () => {
    const sent = order('4242424242424242', '8.00', 'DB');
    const db = answered(await connector().debit(sent));
    const event = [...fake.events].reverse().find((e) => e.type === 'payment_intent.succeeded') as Record<
      string,
      unknown
    >;
    const body = JSON.stringify(event);
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(
        answered(
          await connector().verifyNotification({
            headers: { 'Stripe-Signature': stripeSignature(body, TEST_WEBHOOK_SECRET) },
            body,
          }),
        ),
      );
    for (const answer of answers)
      expect(answer).toMatchObject({
        code: '000.000.000',
        id: db.id,
        notice: {
          eventId: event.id,
          eventType: 'payment_intent.succeeded',
          theirId: db.id,
          gatewayId: sent.paymentId,
        },
      });
  });

  it('refuses a wrong signature, a changed body, a stale timestamp and a channel without a secret: 800.900.300', async () => {
    const event = fake.events[0] as Record<string, unknown>;
    const body = JSON.stringify(event);
    const verify = (headers: Record<string, string>, text = body, secret?: string) =>
      stripeConnector(
        { ...stripeSettings(fake.baseUrl), ...(secret === undefined ? {} : { webhookSecret: secret }) },
        send,
      ).verifyNotification({ headers, body: text });
    const refusals = [
      await verify({ 'stripe-signature': stripeSignature(body, 'whsec_another') }),
      await verify(
        { 'stripe-signature': stripeSignature(body, TEST_WEBHOOK_SECRET) },
        body.replace('"livemode":false', '"livemode":true'),
      ),
      await verify({
        'stripe-signature': stripeSignature(body, TEST_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600),
      }),
      await verify({}),
      await verify({ 'stripe-signature': stripeSignature(body, TEST_WEBHOOK_SECRET) }, body, ''),
    ];
    for (const refusal of refusals)
      expect(answered(refusal)).toMatchObject({ code: '800.900.300', description: expect.any(String) });
  });
});
