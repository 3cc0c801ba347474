/**
 * The adyen kind's request transformer: an engine order → the path and JSON body of a request to
 * Adyen's Checkout API v71 (../shared/facts/connectors/adyen/CheckoutService-v71.json).
 *
 * - `/payments`: `amount.value` in minor units of `amount.currency` (shared/money, string
 *   arithmetic: never a float), `merchantAccount`, `reference` (the gateway's payment id), the
 *   card as `paymentMethod.type=scheme` or a redirect method's type (ADYEN_METHODS), `returnUrl`
 *   (where the shopper comes back after a 3-D Secure page or a provider), `browserInfo` and
 *   `channel` for 3-D Secure 2, `shopperReference` (the merchant's shopper) + `recurringProcessingModel` +
 *   `storePaymentMethod` for registrations, `shopperInteraction: ContAuth` for merchant-initiated
 *   repeats (Adyen's "tokenization" documentation); a repeat of a card stored elsewhere (moved
 *   from another connector, server/connectors/routing/migrate.ts) goes as the card itself with
 *   `shopperInteraction: ContAuth`, `recurringProcessingModel` and the scheme's id of the first
 *   payment as `additionalData.networkTxReference` ("required for token-based transactions where
 *   Adyen does not tokenize the card", the v71 schema).
 * - `/payments/details`: what the shopper brought back (`redirectResult`, `threeDSResult`, …).
 * - `/payments/{pspReference}/captures|refunds|cancels|reversals`: modifications of a payment.
 */

import { createHash } from 'node:crypto';
import type { ProcessorInstrument } from '../../../shared/engine/core/ports';
import { isToMinorError, toMinor } from '../../../shared/money';

/** Adyen's `Amount`: minor units and the ISO 4217 code. */
export interface AdyenAmount {
  readonly value: number;
  readonly currency: string;
}

export type Json = Readonly<Record<string, unknown>>;

/** Where each request goes, under the channel's Checkout base URL (…/v71). */
export const ADYEN_PATHS = {
  payments: '/payments',
  details: '/payments/details',
  captures: (psp: string) => `/payments/${encodeURIComponent(psp)}/captures`,
  refunds: (psp: string) => `/payments/${encodeURIComponent(psp)}/refunds`,
  cancels: (psp: string) => `/payments/${encodeURIComponent(psp)}/cancels`,
  reversals: (psp: string) => `/payments/${encodeURIComponent(psp)}/reversals`,
} as const;

/**
 * The catalogue's redirect brands Adyen's Checkout API v71 takes, as its `paymentMethod.type`
 * (the request schema's payment method details). A brand not here is not sent to Adyen.
 */
export const ADYEN_METHODS: Readonly<Record<string, string>> = {
  IDEAL: 'ideal', // IdealDetails: iDEAL, the shopper picks the bank on iDEAL's page
  // Adyen's v71 request schema no longer takes `directEbanking`: Klarna folded Sofort into
  // "Klarna Pay now", which Adyen offers as `klarna_paynow` (KlarnaDetails).
  SOFORTUEBERWEISUNG: 'klarna_paynow',
  KLARNA_PAYMENTS_PAYLATER: 'klarna', // KlarnaDetails: Klarna Pay later
  PAYPAL: 'paypal', // PayPalDetails
  TRUSTLY: 'trustly', // PaymentDetails
  BLIK: 'blik', // BlikDetails (redirect variant, without a code)
  ALIPAY: 'alipay', // PaymentDetails
  PAYSAFECARD: 'paysafecard', // StoredPaymentMethodDetails' type list carries it
  // EPS is not here: Adyen's eps (GenericIssuerPaymentMethodDetails) requires Adyen's issuer id,
  // which a request of the family does not carry.
};

/** The card brands of the catalogue Adyen knows by another name (`paymentMethod.brand`). */
const CARD_BRANDS: Readonly<Record<string, string>> = {
  VISA: 'visa',
  MASTER: 'mc',
  AMEX: 'amex',
  MAESTRO: 'maestro',
  DINERS: 'diners',
  DISCOVER: 'discover',
  JCB: 'jcb',
  CHINAUNIONPAY: 'cup',
  CARTEBANCAIRE: 'cartebancaire',
};

/** The request's field at a dotted path, when it is a string. */
export function field(request: object, path: string): string | undefined {
  let node: unknown = request;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The amount of a request in Adyen's terms; undefined when it has none or it cannot be one. */
export function adyenAmount(request: object): AdyenAmount | undefined {
  const amount = field(request, 'amount');
  const currency = field(request, 'currency');
  if (amount === undefined || currency === undefined) return undefined;
  const minor = toMinor(amount, currency);
  return isToMinorError(minor) ? undefined : { value: minor, currency };
}

/** The card of an instrument as Adyen's CardDetails (`type: scheme`). */
export function cardMethod(instrument: ProcessorInstrument): Json | undefined {
  if (instrument.kind !== 'card') return undefined;
  const brand = CARD_BRANDS[instrument.brand];
  return {
    type: 'scheme',
    number: instrument.number,
    expiryMonth: instrument.expiryMonth.padStart(2, '0'),
    expiryYear: instrument.expiryYear,
    ...(instrument.cvv === undefined ? {} : { cvc: instrument.cvv }),
    ...(instrument.holder === undefined ? {} : { holderName: instrument.holder }),
    ...(brand === undefined ? {} : { brand }),
  };
}

/**
 * Adyen's BrowserInfo from the family's `customer.browser.*`, only when every field Adyen
 * requires is there (a partial one fails Adyen's validation; without it Adyen still
 * authenticates through its redirect page).
 */
export function browserInfo(request: object): Json | undefined {
  const get = (name: string) => field(request, `customer.browser.${name}`);
  const [accept, language, height, width, zone, agent] = [
    'acceptHeader',
    'language',
    'screenHeight',
    'screenWidth',
    'timezone',
    'userAgent',
  ].map(get);
  if ([accept, language, height, width, zone, agent].some((v) => v === undefined)) return undefined;
  return {
    acceptHeader: accept,
    language,
    screenHeight: Number(height),
    screenWidth: Number(width),
    timeZoneOffset: Number(zone),
    userAgent: agent,
    colorDepth: Number(get('screenColorDepth') ?? '24'),
    javaEnabled: get('javaEnabled') === 'true',
  };
}

/** Whether a request is a merchant-initiated repeat of a stored card (standingInstruction). */
export function merchantInitiated(request: object): boolean {
  return field(request, 'standingInstruction.source') === 'MIT';
}

/**
 * Adyen's recurringProcessingModel for the family's standing instruction: a subscription for
 * RECURRING, an unscheduled card-on-file for UNSCHEDULED or INSTALLMENT, a card on file (the
 * shopper's one-click) otherwise.
 */
export function recurringModel(
  request: object,
  type = field(request, 'standingInstruction.type'),
): 'CardOnFile' | 'Subscription' | 'UnscheduledCardOnFile' {
  if (type === 'RECURRING') return 'Subscription';
  if (type === 'UNSCHEDULED' || type === 'INSTALLMENT') return 'UnscheduledCardOnFile';
  return 'CardOnFile';
}

/** What the shopper brought back, as Adyen's PaymentCompletionDetails (the names it documents). */
const COMPLETION_DETAILS = ['redirectResult', 'threeDSResult', 'payload', 'MD', 'PaRes'] as const;

/** The `/payments/details` body of a shopper's return; undefined when it brought nothing of Adyen's. */
export function detailsBody(parameters: Readonly<Record<string, string>>): Json | undefined {
  const details: Record<string, string> = {};
  for (const name of COMPLETION_DETAILS) {
    const value = parameters[name];
    if (value !== undefined) details[name] = value;
  }
  return Object.keys(details).length === 0 ? undefined : { details };
}

/** Adyen's limit of a shopperReference. */
const SHOPPER_REFERENCE_MAX = 256;

/**
 * The `shopperReference` a card is stored for: the merchant's own customer
 * (`customer.merchantCustomerId`), so that Adyen groups one shopper's stored details under one
 * reference, scoped to the channel (two merchants' customer ids never meet on one Adyen account);
 * without one, the gateway's id of what registers (the registration, or the payment registering
 * along). Never personal data: an id of the merchant's or the gateway's. A scoped id over Adyen's
 * 256 characters goes as its SHA-256.
 */
export function shopperReferenceOf(
  order: { readonly request: object; readonly channel?: { readonly id?: string } },
  gatewayId: string,
): string {
  const customer = field(order.request, 'customer.merchantCustomerId');
  if (customer === undefined) return gatewayId;
  const channel = order.channel?.id;
  const scoped = channel === undefined ? customer : `${channel}:${customer}`;
  return scoped.length <= SHOPPER_REFERENCE_MAX && scoped.length >= 3
    ? scoped
    : `${channel ?? 'shopper'}:${createHash('sha256').update(customer).digest('hex')}`;
}

/** The channel's Adyen account, as the request bodies name it. */
export interface AdyenAccount {
  readonly merchantAccount: string;
}

/** What a `/payments` body is made of, beyond the request itself. */
export interface PaymentParts {
  /** The gateway's own id of the payment: Adyen's `reference`. */
  readonly reference: string;
  /** The gateway's address the shopper comes back to (Adyen requires one on every payment). */
  readonly returnUrl: string;
  /** Adyen's payment method: a card, a redirect method, or a stored card. */
  readonly paymentMethod: Json;
  /** PA holds the money for a later capture; DB is captured at once. */
  readonly capture: 'manual' | 'immediate';
  /** Registering: the shopper the stored card belongs to. */
  readonly store?: { readonly shopperReference: string };
  /** Paying with a stored card: its shopper. */
  readonly stored?: { readonly shopperReference: string };
  /** A zero-amount verification (a registration without a payment). */
  readonly zeroAmountIn?: string;
  /**
   * A merchant-initiated repeat of a card stored elsewhere (`paymentMethod` the card, no CVC):
   * the scheme's network transaction id of its first payment and the repeat's category.
   */
  readonly cardOnFile?: { readonly networkTxReference: string; readonly type: string };
}

/** The `/payments` body of `request` (Adyen's PaymentRequest); undefined when its amount is not one. */
export function paymentBody(account: AdyenAccount, request: object, parts: PaymentParts): Json | undefined {
  const amount =
    parts.zeroAmountIn === undefined ? adyenAmount(request) : { value: 0, currency: parts.zeroAmountIn };
  if (amount === undefined) return undefined;
  const browser = browserInfo(request);
  const email = field(request, 'customer.email');
  const ip = field(request, 'customer.ip');
  const shopperReference = parts.store?.shopperReference ?? parts.stored?.shopperReference;
  const onFile = parts.cardOnFile;
  const repeat = onFile !== undefined || (parts.stored !== undefined && merchantInitiated(request));
  const additionalData = {
    // A PA is captured later by its CP; a DB at once (Adyen's delayed and manual capture).
    ...(parts.capture === 'manual' ? { manualCapture: 'true' } : {}),
    ...(onFile === undefined ? {} : { networkTxReference: onFile.networkTxReference }),
  };
  return {
    amount,
    merchantAccount: account.merchantAccount,
    reference: parts.reference,
    paymentMethod: parts.paymentMethod,
    returnUrl: parts.returnUrl,
    ...(Object.keys(additionalData).length === 0 ? {} : { additionalData }),
    ...(parts.capture === 'manual' ? {} : { captureDelayHours: 0 }),
    ...(browser === undefined ? {} : { browserInfo: browser, channel: 'Web' }),
    ...(email === undefined ? {} : { shopperEmail: email }),
    ...(ip === undefined ? {} : { shopperIP: ip }),
    ...(shopperReference === undefined
      ? {}
      : { shopperReference, recurringProcessingModel: recurringModel(request) }),
    ...(onFile === undefined ? {} : { recurringProcessingModel: recurringModel(request, onFile.type) }),
    ...(parts.store === undefined ? {} : { storePaymentMethod: true }),
    // A merchant-initiated repeat is no shopper's session: Adyen's ContAuth, never authenticated.
    shopperInteraction: repeat ? 'ContAuth' : 'Ecommerce',
  };
}

/** A modification's body (PaymentCaptureRequest, PaymentRefundRequest, …). */
export function modificationBody(account: AdyenAccount, reference: string, amount?: AdyenAmount): Json {
  return {
    merchantAccount: account.merchantAccount,
    reference,
    ...(amount === undefined ? {} : { amount }),
  };
}
