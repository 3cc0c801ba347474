/**
 * The stripe connector through the connector kit's scenario suite (server/test-kit/connectors/):
 * a live channel of a gateway whose connector is Stripe, reached at the stateful fake of Stripe
 * (server/test-kit/fakes/stripe/) with Stripe's own test cards.
 */

import { fakeClock } from '../../test-kit/clock';
import { connectorScenarios } from '../../test-kit/connectors/scenarios';
import {
  droppingServer,
  refusingAddress,
  shopperAtStripe,
  startStripeFake,
  stripeSettings,
} from '../../test-kit/fakes/stripe';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { testGateway } from '../../test-kit/gateway';
import { stripeConnector } from './connector';

connectorScenarios({
  kind: 'stripe',
  async start() {
    const fake = await startStripeFake();
    const dropping = await droppingServer();
    const clock = fakeClock(new Date().toISOString());
    const gateway = await testGateway({ clock });
    const live = (baseUrl: string, threeDSecure = false) =>
      gateway.addMerchant({
        channels: 1,
        mode: 'LIVE',
        settings: { connector: stripeSettings(baseUrl), ...(threeDSecure ? { threeDSecure } : {}) },
      });
    const card = { ...VISA_CARD, 'card.number': '4242424242424242' };
    return {
      gateway,
      merchant: await live(fake.baseUrl),
      refused: await live(await refusingAddress()),
      silent: await live(dropping.baseUrl),
      contract: stripeConnector(stripeSettings(fake.baseUrl), (url, init) => fetch(url, init)),
      cards: {
        approved: card,
        declined: { ...card, 'card.number': '4000000000000002' },
        // Stripe's generic_decline: "declined for an unknown reason"
        declineCode: '800.100.100',
      },
      shopper: {
        authenticating: await live(fake.baseUrl, true),
        // Stripe's 3-D Secure 2 test cards: always challenged; authenticated without the shopper
        cards: {
          challenge: { ...card, 'card.number': '4000000000003220' },
          frictionless: { ...card, 'card.number': '4000000000003055' },
        },
        // iDEAL through a PaymentIntent: Stripe's redirect to the bank's page (its test page)
        redirectBrand: { paymentBrand: 'IDEAL' },
        atProcessor: (page, choice) => shopperAtStripe(page.action, choice),
        advance: (ms) => clock.advance(ms),
      },
      async cleanup() {
        await gateway.cleanup();
        await dropping.close();
        await fake.close();
      },
    };
  },
});
