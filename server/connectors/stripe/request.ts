/**
 * The stripe kind's request transformer: the engine's orders → the parameters of Stripe's API
 * (PaymentIntents, refunds, customers, SetupIntents), as its official SDK takes them.
 *
 * Amounts are integers in the currency's minor unit (shared/money: from the decimal string, never
 * a float), currencies lower case; the card goes as `payment_method_data` (the gateway holds the
 * card data, so Stripe never needs a token of its own); `metadata[gateway_payment_id]` is the
 * gateway's id of the payment, so an uncertain one can be found by it (inquire).
 */
import type Stripe from 'stripe';
import type { ProcessorInstrument } from '../../../shared/engine/core/ports';
import { isToMinorError, toMinor } from '../../../shared/money';

/** The metadata key of the gateway's own id of a payment, searched by `inquire`. */
export const GATEWAY_ID = 'gateway_payment_id';

/** The fields of a validated request this transformer reads. */
interface RequestFields {
  readonly amount?: string;
  readonly currency?: string;
  readonly descriptor?: string;
  readonly merchantTransactionId?: string;
  readonly createRegistration?: string;
  readonly shopperResultUrl?: string;
  readonly customer?: { readonly email?: string; readonly givenName?: string; readonly surname?: string };
  readonly standingInstruction?: { readonly source?: string; readonly type?: string; readonly mode?: string };
}

const fieldsOf = (request: object) => request as RequestFields;

/** An amount Stripe cannot take (no amount, an unknown currency, more decimals than it has). */
export class AmountError extends Error {}

/** `amount` and `currency` of a request as Stripe takes them: minor units, lower case. */
export function moneyOf(request: object): { readonly amount: number; readonly currency: string } {
  const { amount, currency } = fieldsOf(request);
  if (amount === undefined || currency === undefined)
    throw new AmountError('amount and currency are required');
  const minor = toMinor(amount, currency);
  if (isToMinorError(minor)) throw new AmountError(`${amount} ${currency}: ${minor.error}`);
  return { amount: minor, currency: currency.toLowerCase() };
}

/** The card of an instrument as `payment_method_data`; undefined when it carries no card number. */
export function cardData(
  instrument: ProcessorInstrument,
): Stripe.PaymentIntentCreateParams.PaymentMethodData | undefined {
  if (instrument.kind !== 'card' && instrument.kind !== 'tokenAccount') return undefined;
  if (instrument.expiryMonth === undefined || instrument.expiryYear === undefined) return undefined;
  return {
    type: 'card',
    // payment_method_data[card] with raw numbers is what Stripe's API takes from a PCI-compliant
    // server; the SDK's types only list tokens, hence the cast.
    card: {
      number: instrument.number,
      exp_month: Number(instrument.expiryMonth),
      exp_year: Number(instrument.expiryYear),
      ...(instrument.kind === 'card' && instrument.cvv !== undefined ? { cvc: instrument.cvv } : {}),
    },
    ...(instrument.kind === 'card' && instrument.holder !== undefined
      ? { billing_details: { name: instrument.holder } }
      : {}),
  } as unknown as Stripe.PaymentIntentCreateParams.PaymentMethodData;
}

/** The metadata every PaymentIntent carries: the gateway's id, the merchant's own reference. */
export function metadataOf(gatewayId: string, request: object): Record<string, string> {
  const { merchantTransactionId } = fieldsOf(request);
  return {
    [GATEWAY_ID]: gatewayId,
    ...(merchantTransactionId === undefined ? {} : { merchant_transaction_id: merchantTransactionId }),
  };
}

/** Whether a request asks to keep the card for later (createRegistration=true). */
export const registers = (request: object): boolean =>
  ['true', '1'].includes(fieldsOf(request).createRegistration ?? '');

/** Whether a payment with a registration is merchant-initiated (standingInstruction.source=MIT). */
export const merchantInitiated = (request: object): boolean =>
  fieldsOf(request).standingInstruction?.source === 'MIT';

/** What a new PaymentIntent is created with, but the card and the customer. */
export interface IntentOrder {
  readonly request: object;
  readonly gatewayId: string;
  /** PA: held for a capture; DB: captured at once. */
  readonly capture: 'manual' | 'automatic';
  /** Where Stripe sends the shopper back after its 3-D Secure page (the gateway's return address). */
  readonly returnUrl?: string;
  /**
   * The channel authenticates (settings.threeDSecure): Stripe is asked for 3-D Secure on every
   * card that supports it (`request_three_d_secure=any`), so an enrolled card is never charged
   * unauthenticated (DECISIONS); otherwise Stripe decides (`automatic`: when the issuer asks).
   */
  readonly authenticate?: boolean;
}

const threeDSecureOptions = (order: IntentOrder) =>
  order.authenticate === true
    ? { payment_method_options: { card: { request_three_d_secure: 'any' as const } } }
    : {};

/** A PaymentIntent created and confirmed at once with the card (an initial payment). */
export function intentParams(
  order: IntentOrder,
  card: Stripe.PaymentIntentCreateParams.PaymentMethodData,
  customer?: string,
): Stripe.PaymentIntentCreateParams {
  const { descriptor } = fieldsOf(order.request);
  return {
    ...moneyOf(order.request),
    confirm: true,
    capture_method: order.capture,
    payment_method_data: card,
    ...threeDSecureOptions(order),
    metadata: metadataOf(order.gatewayId, order.request),
    ...(order.returnUrl === undefined ? {} : { return_url: order.returnUrl }),
    // a registration along (createRegistration=true): the card kept with a customer of ours for
    // later payments without the shopper
    ...(customer === undefined ? {} : { customer, setup_future_usage: 'off_session' as const }),
    ...(descriptor === undefined ? {} : { statement_descriptor_suffix: descriptor.slice(0, 22) }),
    expand: ['latest_charge'],
  };
}

/**
 * A PaymentIntent with a stored card: `off_session=true` when the merchant initiates it (nobody
 * is there to authenticate; Stripe declines what would need it), on-session with the return
 * address otherwise (a one-click payment the issuer may challenge).
 */
export function storedIntentParams(
  order: IntentOrder,
  stored: { readonly customer: string; readonly paymentMethod: string },
): Stripe.PaymentIntentCreateParams {
  const offSession = merchantInitiated(order.request);
  return {
    ...moneyOf(order.request),
    confirm: true,
    capture_method: order.capture,
    customer: stored.customer,
    payment_method: stored.paymentMethod,
    metadata: metadataOf(order.gatewayId, order.request),
    ...(offSession
      ? { off_session: true }
      : order.returnUrl === undefined
        ? {}
        : { return_url: order.returnUrl }),
    expand: ['latest_charge'],
  };
}

/**
 * A merchant-initiated repeat of a card stored at another connector (routing/migrate.ts): the card
 * as `payment_method_data` (no CVC), confirmed at once `off_session`, with the scheme's network
 * transaction id of the cardholder's first payment as
 * `payment_method_options[card][mit_exemption][network_transaction_id]` (Stripe's parameter for
 * merchant-initiated payments set up elsewhere, enabled per account by Stripe on request; the
 * SDK's types do not list it, hence the cast).
 */
export function cardOnFileParams(
  order: IntentOrder,
  card: Stripe.PaymentIntentCreateParams.PaymentMethodData,
  networkTransactionId: string,
): Stripe.PaymentIntentCreateParams {
  return {
    ...moneyOf(order.request),
    confirm: true,
    off_session: true,
    capture_method: order.capture,
    payment_method_data: card,
    payment_method_options: {
      card: { mit_exemption: { network_transaction_id: networkTransactionId } },
    } as unknown as Stripe.PaymentIntentCreateParams.PaymentMethodOptions,
    metadata: metadataOf(order.gatewayId, order.request),
    expand: ['latest_charge'],
  };
}

/** CP: the capture of `amount_to_capture` of an authorisation (Stripe captures once). */
export const captureParams = (request: object): Stripe.PaymentIntentCaptureParams => ({
  amount_to_capture: moneyOf(request).amount,
  expand: ['latest_charge'],
});

/** RF: a refund of `amount` of a PaymentIntent's charge; without an amount, all that is left (RV of a capture). */
export const refundParams = (
  paymentIntent: string,
  request: object,
  gatewayId: string,
): Stripe.RefundCreateParams => ({
  payment_intent: paymentIntent,
  ...(fieldsOf(request).amount === undefined ? {} : { amount: moneyOf(request).amount }),
  metadata: { [GATEWAY_ID]: gatewayId },
});

/** The customer a registration keeps its card with. */
export function customerParams(request: object, gatewayId: string): Stripe.CustomerCreateParams {
  const { customer } = fieldsOf(request);
  const name = [customer?.givenName, customer?.surname].filter((part) => part !== undefined).join(' ');
  return {
    metadata: { [GATEWAY_ID]: gatewayId },
    ...(customer?.email === undefined ? {} : { email: customer.email }),
    ...(name === '' ? {} : { name }),
  };
}

/** RG: the card set up for later payments without the shopper, with its customer. */
export const setupParams = (
  customer: string,
  card: Stripe.PaymentIntentCreateParams.PaymentMethodData,
  gatewayId: string,
  returnUrl?: string,
): Stripe.SetupIntentCreateParams => ({
  confirm: true,
  customer,
  usage: 'off_session',
  payment_method_data: card as unknown as Stripe.SetupIntentCreateParams.PaymentMethodData,
  metadata: { [GATEWAY_ID]: gatewayId },
  ...(returnUrl === undefined ? {} : { return_url: returnUrl }),
});

/** The search query of a PaymentIntent by the gateway's id (Stripe's search query language). */
export const searchQuery = (gatewayId: string): string =>
  `metadata['${GATEWAY_ID}']:'${gatewayId.replace(/['\\]/g, '')}'`;

/**
 * A registration's id as the gateway keeps it (ConnectorRegistrationID): the customer and the
 * payment method, both needed to charge it again (`cus_…:pm_…`; Stripe's ids have no colon).
 */
export const registrationIdOf = (customer: string, paymentMethod: string): string =>
  `${customer}:${paymentMethod}`;

export function storedOf(
  registrationId: string,
): { readonly customer: string; readonly paymentMethod: string } | undefined {
  const [customer, paymentMethod, ...rest] = registrationId.split(':');
  return customer && paymentMethod && rest.length === 0 ? { customer, paymentMethod } : undefined;
}
