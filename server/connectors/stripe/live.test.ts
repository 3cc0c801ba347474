/**
 * A live channel whose connector is Stripe, end to end through the gateway's live address, against
 * the fake of Stripe: the 3-D Secure challenge of an enrolled card (the gateway's redirect,
 * Stripe's page, the shopper back at the gateway's return address, the verdict read from Stripe),
 * a frictionless one, and what the merchant reads afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../test-kit/clock';
import { backAtGateway, forwardedPage } from '../../test-kit/connectors/shopper';
import {
  type StripeFake,
  shopperAtStripe,
  startStripeFake,
  stripeSettings,
  stripeSignature,
  TEST_WEBHOOK_SECRET,
} from '../../test-kit/fakes/stripe';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { BROWSER } from '../../test-kit/fixtures/three-d-secure';
import { LIVE_BASE, type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

let fake: StripeFake;
let gw: TestGateway;
let merchant: TestMerchant;

beforeAll(async () => {
  fake = await startStripeFake();
  gw = await testGateway();
  merchant = await gw.addMerchant({
    channels: 1,
    mode: 'LIVE',
    settings: { threeDSecure: true, connector: stripeSettings(fake.baseUrl) },
  });
});
afterAll(async () => {
  await gw.cleanup();
  await fake.close();
});

const post = (params: Record<string, string>) =>
  gw.live.post('/v1/payments', { entityId: merchant.entityId, ...params }, { token: merchant.token });
const read = (id: string) =>
  gw.live.get(`/v1/payments/${id}`, { entityId: merchant.entityId }, { token: merchant.token });
const payment = (number: string) => ({
  ...VISA_CARD,
  ...BROWSER,
  'card.number': number,
  amount: '20.00',
  currency: 'EUR',
  paymentType: 'DB',
  shopperResultUrl: 'https://shop.example/result',
});

describe('a live Stripe channel that authenticates', () => {
  it('an enrolled card: pending on the gateway’s redirect, Stripe’s challenge passed, back at the gateway: 000.000.000 with its 3-D Secure results', async () => {
    const challenged = await post(payment('4000000000003220'));
    expect(challenged.status, challenged.text).toBe(200);
    expect(challenged.body.result.code).toBe('000.200.000');
    expect(challenged.body.redirect.url).toBe(`${LIVE_BASE}/connectors/redirect`);
    const page = await forwardedPage(gw.live, challenged.body.redirect);
    expect(page.action).toMatch(new RegExp(`^${fake.baseUrl}/authenticate/pi_`));
    // Stripe was given the gateway's own return address, never the merchant's shopperResultUrl
    const returnUrl = [...fake.ledger.intents.values()].at(-1)?.returnUrl;
    expect(returnUrl).toMatch(new RegExp(`^${LIVE_BASE}/connectors/return/`));
    const back = await backAtGateway(gw.live, await shopperAtStripe(page.action, 'approve'));
    expect(back.location).toMatch(/^https:\/\/shop\.example\/result\?id=/);
    const final = await read(challenged.body.id);
    expect(final.body.result.code, final.text).toBe('000.000.000');
    expect(final.body.resultDetails.ConnectorTxID1).toMatch(/^pi_/);
    expect(final.body.threeDSecure).toMatchObject({ eci: '05', authenticationStatus: 'Y' });
    expect(fake.ledger.charges.filter((c) => c.amount === 2000)).toHaveLength(1);
  });

  it('a failed challenge is Stripe’s refusal, nothing charged', async () => {
    const before = fake.ledger.charges.length;
    const challenged = await post(payment('4000000000003220'));
    const page = await forwardedPage(gw.live, challenged.body.redirect);
    await backAtGateway(gw.live, await shopperAtStripe(page.action, 'decline'));
    const final = await read(challenged.body.id);
    expect(final.body.result.code, final.text).toBe('100.380.401');
    expect(fake.ledger.charges.length).toBe(before);
  });

  it('a card the issuer authenticates without the shopper ends at once; Stripe was asked to authenticate', async () => {
    const paid = await post(payment('4000000000003055'));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.result.code).toBe('000.000.000');
    expect(paid.body.threeDSecure).toMatchObject({ authenticationStatus: 'Y' });
    expect(fake.requests.at(-1)?.form).toMatchObject({
      payment_method_options: { card: { request_three_d_secure: 'any' } },
    });
  });
});

describe('Stripe’s webhooks at the gateway’s notification address', () => {
  /** A challenged payment whose shopper passed Stripe's page but never came back to the gateway. */
  async function authenticatedElsewhere() {
    const challenged = await post(payment('4000000000003220'));
    const page = await forwardedPage(gw.live, challenged.body.redirect);
    await shopperAtStripe(page.action, 'approve');
    const theirId = /\/authenticate\/(pi_\w+)/.exec(page.action)?.[1];
    const event = fake.events.find(
      (e) =>
        e.type === 'payment_intent.succeeded' && (e.data as { object: { id: string } }).object.id === theirId,
    );
    return { id: challenged.body.id as string, body: JSON.stringify(event) };
  }
  const notify = (body: string, signature: string) =>
    gw.live.send('POST', `/connectors/stripe/notifications/${merchant.entityId}`, body, {
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    });

  it('a valid one ends the pending payment once, however often it comes', async () => {
    const { id, body } = await authenticatedElsewhere();
    expect((await read(id)).body.result.code).toBe('000.200.000');
    for (let i = 0; i < 3; i++) {
      const answer = await notify(body, stripeSignature(body, TEST_WEBHOOK_SECRET));
      expect(answer.status, answer.text).toBe(200);
    }
    const final = await read(id);
    expect(final.body.result.code, final.text).toBe('000.000.000');
    expect(final.body.resultDetails.ConnectorTxID1).toMatch(/^pi_/);
  });

  it('an invalid signature: 401, and the payment stays as it was', async () => {
    const { id, body } = await authenticatedElsewhere();
    const forged = await notify(body, stripeSignature(body, 'whsec_not_the_channels'));
    expect(forged.status, forged.text).toBe(401);
    expect(forged.body.result.code).toBe('800.900.300');
    expect((await read(id)).body.result.code).toBe('000.200.000');
  });
});

describe('a live Stripe channel: iDEAL, a PaymentIntent redirected to the bank', () => {
  const ideal = {
    paymentBrand: 'IDEAL',
    amount: '15.00',
    currency: 'EUR',
    paymentType: 'DB',
    shopperResultUrl: 'https://shop.example/result',
  };
  /** The PaymentIntent the fake made last: its id and the return address Stripe was given. */
  const lastIntent = () => [...fake.ledger.intents.values()].at(-1);

  it('pending on the gateway’s redirect, the bank’s page authorised, back at the gateway: 000.000.000', async () => {
    const before = fake.ledger.charges.length;
    const pending = await post(ideal);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body.result.code).toBe('000.200.000');
    expect(pending.body.redirect.url).toBe(`${LIVE_BASE}/connectors/redirect`);
    expect(fake.requests.at(-1)?.form).toMatchObject({
      amount: '1500',
      currency: 'eur',
      confirm: 'true',
      payment_method_data: { type: 'ideal' },
      allowed_payment_method_types: ['ideal'],
      return_url: expect.stringMatching(new RegExp(`^${LIVE_BASE}/connectors/return/`)),
    });
    const page = await forwardedPage(gw.live, pending.body.redirect);
    expect(page.action).toMatch(new RegExp(`^${fake.baseUrl}/authorize/pi_`));
    const back = await backAtGateway(gw.live, await shopperAtStripe(page.action, 'approve'));
    expect(back.location).toMatch(/^https:\/\/shop\.example\/result\?id=/);
    const final = await read(pending.body.id);
    expect(final.body.result.code, final.text).toBe('000.000.000');
    expect(final.body.paymentBrand).toBe('IDEAL');
    expect(final.body.resultDetails.ConnectorTxID1).toBe(lastIntent()?.id);
    expect(fake.ledger.charges.length).toBe(before + 1);
    expect(fake.ledger.charges.at(-1)?.amount).toBe(1500);
  });

  it('the shopper fails at the bank: the family’s cancel 100.396.101, nothing charged', async () => {
    const before = fake.ledger.charges.length;
    const pending = await post(ideal);
    const page = await forwardedPage(gw.live, pending.body.redirect);
    await backAtGateway(gw.live, await shopperAtStripe(page.action, 'decline'));
    const final = await read(pending.body.id);
    expect(final.body.result.code, final.text).toBe('100.396.101');
    expect(final.body.resultDetails.AcquirerResponse).toBe('payment_intent_payment_attempt_failed');
    expect(fake.ledger.charges.length).toBe(before);
  });

  it('a return naming another payment’s succeeded PaymentIntent decides nothing: the kept one is read', async () => {
    // the attacker's own iDEAL payment, authorised: a succeeded PaymentIntent and its client secret
    const paid = await post(ideal);
    const paidPage = await forwardedPage(gw.live, paid.body.redirect);
    const paidReturn = new URL(await shopperAtStripe(paidPage.action, 'approve'));
    // a second payment, left at the bank; its return address called with the first one's answer
    const pending = await post(ideal);
    const returnUrl = new URL(lastIntent()?.returnUrl ?? '');
    for (const name of ['payment_intent', 'payment_intent_client_secret', 'redirect_status'])
      returnUrl.searchParams.set(name, paidReturn.searchParams.get(name) ?? '');
    await backAtGateway(gw.live, returnUrl.toString());
    const still = await read(pending.body.id);
    expect(still.body.result.code, still.text).toBe('000.200.000');
  });

  it('PA with iDEAL: Stripe captures bank redirects at once only, so 600.200.201 and nothing sent', async () => {
    const sent = fake.requests.length;
    const pa = await post({ ...ideal, paymentType: 'PA' });
    expect(pa.status, pa.text).toBe(400);
    expect(pa.body.result.code).toBe('600.200.201');
    expect(fake.requests.length).toBe(sent);
  });
});

describe('a live Stripe channel: an iDEAL payment the shopper abandons', () => {
  it('after 30 minutes the gateway cancels its PaymentIntent at Stripe and ends 100.396.103: the bank can no longer charge it', async () => {
    const clock = fakeClock(new Date().toISOString());
    const own = await testGateway({ clock });
    try {
      const m = await own.addMerchant({
        channels: 1,
        mode: 'LIVE',
        settings: { connector: stripeSettings(fake.baseUrl) },
      });
      const pending = await own.live.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          paymentBrand: 'IDEAL',
          amount: '15.00',
          currency: 'EUR',
          paymentType: 'DB',
          shopperResultUrl: 'https://shop.example/result',
        },
        { token: m.token },
      );
      expect(pending.body.result.code, pending.text).toBe('000.200.000');
      const intent = [...fake.ledger.intents.values()].at(-1);
      expect(intent?.status).toBe('requires_action');
      clock.advance(31 * 60_000);
      await own.pending.runOnce();
      const ended = await own.live.get(
        `/v1/payments/${pending.body.id}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(ended.body.result.code, ended.text).toBe('100.396.103');
      // left open at Stripe, the shopper's late approval at the bank would charge a payment the
      // merchant was told had timed out
      expect(fake.ledger.intents.get(intent?.id ?? '')?.status).toBe('canceled');
      const charges = fake.ledger.charges.length;
      expect(fake.ledger.authorizeRedirect(intent?.id ?? '', true)).toBeUndefined();
      expect(fake.ledger.charges.length).toBe(charges);
    } finally {
      await own.cleanup();
    }
  });

  it('a Sofort payment Stripe is still processing when its 30 minutes end is not timed out: asked again later, it ends with Stripe’s word', async () => {
    const clock = fakeClock(new Date().toISOString());
    const own = await testGateway({ clock });
    try {
      const m = await own.addMerchant({
        channels: 1,
        mode: 'LIVE',
        settings: { connector: stripeSettings(fake.baseUrl) },
      });
      const read = (id: string) =>
        own.live.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });
      const pending = await own.live.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          paymentBrand: 'SOFORTUEBERWEISUNG',
          'bankAccount.country': 'DE',
          amount: '15.00',
          currency: 'EUR',
          paymentType: 'DB',
          shopperResultUrl: 'https://shop.example/result',
        },
        { token: m.token },
      );
      expect(pending.body.result.code, pending.text).toBe('000.200.000');
      const page = await forwardedPage(own.live, pending.body.redirect);
      await backAtGateway(own.live, await shopperAtStripe(page.action, 'approve'));
      const intent = [...fake.ledger.intents.values()].at(-1);
      expect(intent?.status).toBe('processing');
      expect((await read(pending.body.id)).body.result.code).toBe('000.200.000');
      clock.advance(31 * 60_000);
      await own.pending.runOnce();
      // the shopper paid at the bank: timing it out would tell the merchant of a failure Stripe
      // then charges
      expect((await read(pending.body.id)).body.result.code).toBe('000.200.000');
      expect(fake.ledger.succeedProcessing(intent?.id ?? '')).toBe(true);
      clock.advance(60 * 60_000);
      await own.pending.runOnce();
      const ended = await read(pending.body.id);
      expect(ended.body.result.code, ended.text).toBe('000.000.000');
    } finally {
      await own.cleanup();
    }
  });

  it('Stripe unreachable when the shopper comes back is no failure, nor at the timeout: the payment stays pending and is asked again later', async () => {
    const down = await startStripeFake();
    const clock = fakeClock(new Date().toISOString());
    const own = await testGateway({ clock });
    try {
      const m = await own.addMerchant({
        channels: 1,
        mode: 'LIVE',
        settings: { threeDSecure: true, connector: stripeSettings(down.baseUrl) },
      });
      const read = (id: string) =>
        own.live.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });
      const challenged = await own.live.post(
        '/v1/payments',
        { entityId: m.entityId, ...payment('4000000000003220') },
        { token: m.token },
      );
      expect(challenged.body.result.code, challenged.text).toBe('000.200.000');
      const page = await forwardedPage(own.live, challenged.body.redirect);
      const returnAddress = await shopperAtStripe(page.action, 'approve');
      // the shopper passed the challenge and Stripe charged; then Stripe cannot be reached
      await down.close();
      await backAtGateway(own.live, returnAddress);
      expect((await read(challenged.body.id)).body.result.code).toBe('000.200.000');
      clock.advance(31 * 60_000);
      await own.pending.runOnce();
      expect((await read(challenged.body.id)).body.result.code).toBe('000.200.000');
    } finally {
      await own.cleanup();
    }
  });
});
