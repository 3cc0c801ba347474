/**
 * `open-payment-gateway/testing`: the kit for QA teams' Playwright suites (README, "Testing your
 * shop with Playwright").
 *
 * - startTestGateway / connectTestGateway: a throwaway gateway (or one started elsewhere) with its
 *   merchant, test channel and token, its test clock and its webhook inbox;
 * - paymentWidget: the widget on any page that embeds it, driven as a shopper drives it;
 * - cards, ibans, walletCards, redirectMethods, acceptedLaterBrands, threeDSecureCards: the
 *   simulator's test data.
 */
export type {
  AdminAccess,
  ClockMove,
  InboxFilter,
  InboxNotification,
  TestClock,
  WebhookInbox,
} from './admin';
export {
  acceptedLaterBrands,
  type Card,
  CHALLENGE_CODE,
  cards,
  challengeOutcomes,
  type DeclinedCard,
  declinedCards,
  ibans,
  type RedirectTrigger,
  redirectMethods,
  type TestCard,
  threeDSecureCards,
  type WalletCard,
  walletCards,
} from './cards';
export {
  type ConnectedGateway,
  connectTestGateway,
  startTestGateway,
  type TestGateway,
  type TestGatewayInfo,
  type TestGatewayOptions,
} from './gateway';
export {
  type BillingAddress,
  type CardBillingAddress,
  type CardField,
  PaymentWidget,
  type PaymentWidgetOptions,
  paymentWidget,
} from './widget';
