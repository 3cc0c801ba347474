/**
 * The stripe kind: Stripe's PaymentIntents API, the kit's contract over the request transformer
 * (request.ts), Stripe's official SDK (client.ts), the response transformer (response.ts) and its
 * webhooks (notifications.ts).
 *
 * PA and DB create and confirm a PaymentIntent with the card (`capture_method` manual or
 * automatic); an enrolled card answers `requires_action` and is pending with Stripe's 3-D Secure
 * page, the shopper sent back to the gateway's return address, where `finish` reads the
 * PaymentIntent. DB with a bank redirect (iDEAL, EPS, giropay, Przelewy24, Sofort: redirects.ts)
 * takes the same way through the bank's page. CP captures it, RV cancels an authorisation (a captured payment is refunded in
 * full), RF refunds. A registration is a customer with a card set up for later payments without
 * the shopper (a SetupIntent; `setup_future_usage` when a payment registers along); payments with
 * it name the customer and the card, `off_session` when the merchant initiates them.
 * Not with Stripe: CD (Stripe pays no money to a card outside Connect), RB (a PaymentIntent is
 * not charged again; a repeat needs a registration), stand-alone 3-D Secure (Stripe authenticates
 * only as part of a payment), settlement (not yet).
 */
import type { StripeConnectorSettings } from '../../../shared/engine/core/model';
import { type ConnectorContract, notSupported } from '../kit/contract';
import { type Fetch, type StripeClientOptions, stripeClient } from './client';
import { inquireRegistration } from './inquire-registration';
import { abandon, capture, read, readModification, refund, reverse } from './modifications';
import { verifyStripeNotification } from './notifications';
import { pay, payWithRegistration, register } from './payments';
import { STRIPE_REDIRECT_BRANDS } from './redirects';

/** The payment types that modify a PaymentIntent of the referenced payment's. */
const MODIFICATIONS: ReadonlySet<string> = new Set(['CP', 'RF', 'RV']);

/** The card brands Stripe processes (the catalogue's names), then its bank redirects (redirects.ts). */
export const STRIPE_BRANDS = [
  'VISA',
  'MASTER',
  'AMEX',
  'DISCOVER',
  'DINERS',
  'JCB',
  'UNIONPAY',
  'CARTEBANCAIRE',
  ...STRIPE_REDIRECT_BRANDS,
];

/** The stripe connector of one channel's credentials, sending through `fetch`. */
export function stripeConnector(
  settings: StripeConnectorSettings,
  fetch: Fetch,
  options: StripeClientOptions = {},
): ConnectorContract {
  const stripe = stripeClient(settings, fetch, options);
  return {
    authorize: pay(stripe, 'manual', 'authorize'),
    debit: pay(stripe, 'automatic', 'debit'),
    credit: async () => notSupported('credit'),
    capture: (order) => capture(stripe, order),
    reverse: (order) => reverse(stripe, order),
    refund: (order) => refund(stripe, order, 'refund'),
    rebill: async () => notSupported('rebill'),
    register: register(stripe),
    payWithRegistration: payWithRegistration(stripe),
    authenticate: async () => notSupported('authenticate'),
    // The PaymentIntent the gateway kept, never one the shopper's return names: the return's
    // `payment_intent` parameter is the shopper's to change.
    // An abandoned one is cancelled there first: a PaymentIntent waiting for its shopper stays
    // open at Stripe, and the shopper's late approval would charge a payment timed out here.
    finish: (returned) =>
      returned.abandoned === true
        ? abandon(stripe, returned.payment)
        : read(stripe, returned.payment, 'finish'),
    // a capture, refund or reversal is read on the PaymentIntent it modified
    inquire: (payment, referenced) =>
      MODIFICATIONS.has(payment.paymentType)
        ? readModification(stripe, payment, referenced)
        : read(stripe, payment, 'inquire'),
    // the customer by the gateway's id in its metadata, then its SetupIntent
    inquireRegistration: (registration) => inquireRegistration(stripe, registration),
    settle: async () => notSupported('settle'),
    verifyNotification: (notification) =>
      verifyStripeNotification(stripe, notification, settings.webhookSecret),
    brands: STRIPE_BRANDS,
    takesCardOnFile: true,
  };
}
