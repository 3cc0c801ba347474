/**
 * The scenarios of the shopper's part through a connector (issue 32 points 1 and 2): 3-D Secure
 * run by the processor on a channel that authenticates, and a redirect brand on the processor's
 * provider page. The shopper follows the gateway's own redirect to the processor's page, answers
 * there (the kind's `atProcessor`), comes back to the gateway's return address, and the payment
 * ends with the processor's verdict; abandoned, it times out as in test mode. A kind whose harness
 * gives no `shopper` world has them in its table as not supported.
 */
import { expect } from 'vitest';
import { BROWSER } from '../fixtures/three-d-secure';
import type { TestMerchant, TestResponse } from '../gateway';
import { backAtGateway, forwardedPage, type ShopperChoice } from './shopper';
import type { Scenario, ScenarioContext, ShopperWorld, Support } from './world';

const LIVE_SUCCESS = '000.000.000';
const PENDING = '000.200.000';
const TIMED_OUT = '100.396.103';
const RESULT_URL = 'https://shop.example/result';

const read = (c: ScenarioContext, id: string, as: TestMerchant) =>
  c.world.gateway.live.get(`/v1/payments/${id}`, { entityId: as.entityId }, { token: as.token });

/** Pending on the gateway's own redirect, never the processor's page directly. */
function pendingOnTheGateway(answer: TestResponse): void {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.result.code, answer.text).toBe(PENDING);
  expect(new URL(answer.body.redirect.url).pathname).toBe('/connectors/redirect');
}

/** The shopper's round: the gateway's redirect, the processor's page, back to the merchant's result URL. */
async function round(c: ScenarioContext, shopper: ShopperWorld, answer: TestResponse, choice: ShopperChoice) {
  const live = c.world.gateway.live;
  const page = await forwardedPage(live, answer.body.redirect);
  const back = await backAtGateway(live, await shopper.atProcessor(page, choice));
  expect(back.status).toBe(200);
  expect(back.location).toMatch(new RegExp(`^${RESULT_URL}\\?id=`));
}

/** A scenario that needs the shopper's world. */
const withShopper =
  (run: (c: ScenarioContext, shopper: ShopperWorld) => Promise<Support>) =>
  (c: ScenarioContext): Promise<Support> =>
    c.world.shopper === undefined ? Promise.resolve('not supported') : run(c, c.world.shopper);

const cardPayment = (c: ScenarioContext, shopper: ShopperWorld, card: Readonly<Record<string, string>>) =>
  c.post(
    '/v1/payments',
    {
      ...card,
      ...BROWSER,
      currency: 'EUR',
      amount: '12.00',
      paymentType: 'DB',
      shopperResultUrl: RESULT_URL,
    },
    shopper.authenticating,
  );

const redirectPayment = (c: ScenarioContext, brand: Readonly<Record<string, string>>) =>
  c.post('/v1/payments', {
    ...brand,
    currency: 'EUR',
    amount: '9.00',
    paymentType: 'DB',
    shopperResultUrl: RESULT_URL,
  });

export const SHOPPER_SCENARIOS: readonly Scenario[] = [
  {
    name: 'an enrolled card: the processor’s challenge, the shopper returns, success with its eci',
    operations: ['debit', 'finish'],
    run: withShopper(async (c, shopper) => {
      const challenged = await cardPayment(c, shopper, shopper.cards.challenge);
      const unsupported = c.unsupported(challenged);
      if (unsupported) return unsupported;
      pendingOnTheGateway(challenged);
      await round(c, shopper, challenged, 'approve');
      const ended = await read(c, challenged.body.id, shopper.authenticating);
      expect(ended.body.result.code, ended.text).toBe(LIVE_SUCCESS);
      expect(ended.body.threeDSecure?.eci, ended.text).toEqual(expect.any(String));
      expect(ended.body.threeDSecure?.authenticationStatus).toBe('Y');
      return 'supported';
    }),
  },
  {
    name: 'a frictionless enrolled card: success at once with its 3-D Secure results',
    operations: ['debit'],
    run: withShopper(async (c, shopper) => {
      const paid = await cardPayment(c, shopper, shopper.cards.frictionless);
      const unsupported = c.unsupported(paid);
      if (unsupported) return unsupported;
      expect(paid.body.result.code, paid.text).toBe(LIVE_SUCCESS);
      expect(paid.body.threeDSecure?.eci, paid.text).toEqual(expect.any(String));
      return 'supported';
    }),
  },
  {
    name: 'stand-alone 3-D Secure: the processor’s challenge, the shopper returns, its results',
    operations: ['authenticate', 'finish'],
    run: withShopper(async (c, shopper) => {
      const { 'card.cvv': _cvv, ...card } = shopper.cards.challenge;
      const asked = await c.post(
        '/v1/threeDSecure',
        { ...card, ...BROWSER, currency: 'EUR', amount: '12.00', shopperResultUrl: RESULT_URL },
        shopper.authenticating,
      );
      const unsupported = c.unsupported(asked);
      if (unsupported) return unsupported;
      pendingOnTheGateway(asked);
      await round(c, shopper, asked, 'approve');
      const { entityId, token } = shopper.authenticating;
      const ended = await c.world.gateway.live.get(
        `/v1/threeDSecure/${asked.body.id}`,
        { entityId },
        { token },
      );
      expect(ended.body.result.code, ended.text).toBe(LIVE_SUCCESS);
      expect(ended.body.threeDSecure?.authenticationStatus).toBe('Y');
      return 'supported';
    }),
  },
  {
    name: 'a redirect brand: the provider’s page, the shopper returns, success',
    operations: ['debit', 'finish'],
    run: withShopper(async (c, shopper) => {
      if (shopper.redirectBrand === undefined) return 'not supported';
      const pending = await redirectPayment(c, shopper.redirectBrand);
      const unsupported = c.unsupported(pending);
      if (unsupported) return unsupported;
      pendingOnTheGateway(pending);
      await round(c, shopper, pending, 'approve');
      const ended = await read(c, pending.body.id, c.world.merchant);
      expect(ended.body.result.code, ended.text).toBe(LIVE_SUCCESS);
      return 'supported';
    }),
  },
  {
    name: 'an abandoned redirect: 100.396.103 after 30 minutes, as in test mode',
    operations: ['debit', 'finish'],
    run: withShopper(async (c, shopper) => {
      if (shopper.redirectBrand === undefined) return 'not supported';
      const pending = await redirectPayment(c, shopper.redirectBrand);
      const unsupported = c.unsupported(pending);
      if (unsupported) return unsupported;
      pendingOnTheGateway(pending);
      shopper.advance(31 * 60_000);
      await c.world.gateway.pending.runOnce();
      const ended = await read(c, pending.body.id, c.world.merchant);
      expect(ended.body.result.code, ended.text).toBe(TIMED_OUT);
      return 'supported';
    }),
  },
];
