/** The Stripe fake (server.ts) and its companions (harness.ts, cards.ts), as tests import them. */
export { NOT_A_TEST_CARD, STRIPE_TEST_CARDS } from './cards';
export {
  droppingServer,
  refusingAddress,
  shopperAtStripe,
  stripeSettings,
  TEST_API_KEY,
  TEST_WEBHOOK_SECRET,
} from './harness';
export { type ReceivedRequest, type StripeFake, startStripeFake, stripeSignature } from './server';
