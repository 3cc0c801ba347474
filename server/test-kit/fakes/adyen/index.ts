/** The fake of Adyen's Checkout API v71 for the adyen connector's tests (README.md). */
export { ADYEN_TEST_CARDS, HOLDER_REFUSALS, TEST_EXPIRY, testCvc } from './cards';
export { signedData, signItem } from './notifications';
export { CHECKOUT_DOCUMENT, loadCheckoutSchema } from './schema';
export {
  type AdyenFake,
  type AdyenFakeOptions,
  CHECKOUT_PATH,
  type Delivery,
  startAdyenFake,
} from './server';
