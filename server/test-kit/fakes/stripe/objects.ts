/**
 * The objects the fake answers, each with every field of its fixture in Stripe's published
 * fixtures3.json (../shared/facts/connectors/stripe/; shapes.test.ts compares the key sets), filled
 * from the fake's state. Fields the fake has nothing to say about are null, as Stripe's are.
 */
import type { TestCardBehaviour } from './cards';

export type Json = Record<string, unknown>;

/** A card as the fake keeps it: never its number or CVC, as Stripe keeps neither visible. */
export interface StoredCard {
  readonly brand: string;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
  readonly fingerprint: string;
  readonly behaviour: TestCardBehaviour;
}

export interface PaymentMethodState {
  readonly id: string;
  readonly created: number;
  /** A card's; undefined for a bank redirect's method (`redirect`). */
  readonly card?: StoredCard;
  readonly redirect?: RedirectMethod;
  customer: string | null;
  /** Set up for off-session use (a SetupIntent, or setup_future_usage): 3155 then needs no authentication. */
  setUp: boolean;
}

export interface ChargeState {
  readonly id: string;
  readonly created: number;
  readonly amount: number;
  readonly currency: string;
  readonly paymentIntent: string;
  readonly paymentMethod: PaymentMethodState;
  readonly customer: string | null;
  readonly metadata: Record<string, string>;
  readonly status: 'succeeded' | 'failed';
  readonly failure?: { readonly code: string; readonly declineCode?: string; readonly message: string };
  readonly threeDSecure?: { readonly flow: 'challenge' | 'frictionless'; readonly result: string };
  captured: boolean;
  amountCaptured: number;
  amountRefunded: number;
}

export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface IntentState {
  readonly id: string;
  readonly created: number;
  readonly amount: number;
  readonly currency: string;
  readonly captureMethod: 'automatic' | 'manual';
  readonly metadata: Record<string, string>;
  readonly customer: string | null;
  readonly setupFutureUsage: 'off_session' | 'on_session' | null;
  readonly offSession: boolean;
  readonly returnUrl: string | null;
  /** payment_method_types[]: ['card'] when none is sent, as Stripe defaults it. */
  readonly paymentMethodTypes: readonly string[];
  /** payment_method_options[card][request_three_d_secure]: `any` asks for it on every card. */
  readonly requestThreeDSecure: 'any' | 'automatic';
  status: IntentStatus;
  paymentMethod: PaymentMethodState | null;
  latestCharge: ChargeState | null;
  amountCapturable: number;
  amountReceived: number;
  nextAction: Json | null;
  lastPaymentError: Json | null;
  canceledAt: number | null;
  cancellationReason: string | null;
}

export interface SetupIntentState {
  readonly id: string;
  readonly created: number;
  readonly customer: string | null;
  readonly metadata: Record<string, string>;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';
  paymentMethod: PaymentMethodState | null;
  lastSetupError: Json | null;
}

export interface RefundState {
  readonly id: string;
  readonly created: number;
  readonly amount: number;
  readonly currency: string;
  readonly charge: ChargeState;
  readonly metadata: Record<string, string>;
  readonly reason: string | null;
  /** succeeded, or failed once the bank returned it (ledger.failRefund), with Stripe's failure_reason. */
  status?: 'succeeded' | 'failed';
  failureReason?: string;
}

export interface CustomerState {
  readonly id: string;
  readonly created: number;
  readonly email: string | null;
  readonly name: string | null;
  readonly metadata: Record<string, string>;
}

/** A bank redirect's payment method, as the fake keeps it. */
export interface RedirectMethod {
  readonly type: string;
  readonly name: string | null;
  readonly email: string | null;
  /** sofort[country]: the shopper's bank's country. */
  readonly country: string | null;
}

/** The redirect's part of a payment method object: its billing details and `{ [type]: … }`. */
function redirectMethodParts(method: RedirectMethod): Json {
  const details: Json =
    method.type === 'sofort'
      ? { country: method.country }
      : method.type === 'ideal'
        ? { bank: null, bic: null }
        : method.type === 'eps' || method.type === 'p24'
          ? { bank: null }
          : {};
  return { type: method.type, [method.type]: details };
}

/** The redirect's `payment_method_details` on its charge (`{ type, [type]: … }`). */
function redirectChargeDetails(method: RedirectMethod): Json {
  const details: Json =
    method.type === 'ideal'
      ? { bank: 'ing', bic: 'INGBNL2A', iban_last4: '0000', verified_name: method.name ?? 'Jenny Rosen' }
      : method.type === 'sofort'
        ? { country: method.country, bank_code: null, bank_name: null, bic: null, iban_last4: null }
        : { verified_name: method.name };
  return { type: method.type, [method.type]: details };
}

const NO_ADDRESS = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null };
const BILLING = { address: NO_ADDRESS, email: null, name: null, phone: null, tax_id: null };

function cardOfMethod(card: StoredCard): Json {
  return {
    brand: card.brand,
    checks: {
      address_line1_check: null,
      address_postal_code_check: null,
      cvc_check: card.behaviour.cvcCheck ?? null,
    },
    country: card.behaviour.country,
    display_brand: card.brand,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    fingerprint: card.fingerprint,
    funding: card.behaviour.funding,
    generated_from: null,
    last4: card.last4,
    networks: { available: [card.brand], preferred: null },
    three_d_secure_usage: { supported: true },
    wallet: null,
    regulated_status: 'unregulated',
  };
}

export function paymentMethodObject(pm: PaymentMethodState): Json {
  const redirect = pm.redirect;
  return {
    allow_redisplay: 'unspecified',
    billing_details:
      redirect === undefined ? BILLING : { ...BILLING, name: redirect.name, email: redirect.email },
    ...(pm.card === undefined ? {} : { card: cardOfMethod(pm.card) }),
    created: pm.created,
    customer: pm.customer,
    id: pm.id,
    livemode: false,
    metadata: {},
    object: 'payment_method',
    type: 'card',
    customer_account: null,
    ...(redirect === undefined ? {} : redirectMethodParts(redirect)),
  };
}

function chargeCard(charge: ChargeState, card: StoredCard): Json {
  const tds = charge.threeDSecure;
  return {
    amount_authorized: charge.status === 'succeeded' ? charge.amount : null,
    brand: card.brand,
    checks: {
      address_line1_check: null,
      address_postal_code_check: null,
      cvc_check: card.behaviour.cvcCheck ?? null,
    },
    country: card.behaviour.country,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    extended_authorization: { status: 'disabled' },
    fingerprint: card.fingerprint,
    funding: card.behaviour.funding,
    incremental_authorization: { status: 'unavailable' },
    installments: null,
    last4: card.last4,
    mandate: null,
    multicapture: { status: 'unavailable' },
    network: card.brand,
    network_token: { used: false },
    overcapture: { maximum_amount_capturable: charge.amount, status: 'unavailable' },
    three_d_secure:
      tds === undefined
        ? null
        : {
            authentication_flow: tds.flow,
            electronic_commerce_indicator: tds.result === 'authenticated' ? '05' : '07',
            exemption_indicator: null,
            result: tds.result,
            result_reason: null,
            transaction_id: `${charge.id.slice(3, 11)}-0000-4000-8000-000000000000`,
            version: '2.2.0',
          },
    wallet: null,
    authorization_code: charge.status === 'succeeded' ? '123456' : null,
    regulated_status: 'unregulated',
    network_transaction_id: charge.status === 'succeeded' ? `${charge.id.slice(3, 18)}` : null,
    transaction_link_id: null,
  };
}

function outcomeOf(charge: ChargeState): Json {
  const failed = charge.failure;
  return {
    advice_code: null,
    network_advice_code: null,
    network_decline_code: null,
    network_status: failed === undefined ? 'approved_by_network' : 'declined_by_network',
    reason: failed?.declineCode ?? null,
    seller_message:
      failed === undefined
        ? 'Payment complete.'
        : 'The bank did not return any further details with this decline.',
    type: failed === undefined ? 'authorized' : 'issuer_declined',
  };
}

export function chargeObject(charge: ChargeState, refunds: readonly RefundState[]): Json {
  return {
    amount: charge.amount,
    amount_captured: charge.amountCaptured,
    amount_refunded: charge.amountRefunded,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: charge.captured ? `txn_${charge.id.slice(3)}` : null,
    billing_details: BILLING,
    calculated_statement_descriptor: 'OPEN PAYMENT GATEWAY',
    captured: charge.captured,
    created: charge.created,
    currency: charge.currency,
    customer: charge.customer,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: charge.failure?.code ?? null,
    failure_message: charge.failure?.message ?? null,
    fraud_details: {},
    id: charge.id,
    livemode: false,
    metadata: charge.metadata,
    object: 'charge',
    on_behalf_of: null,
    outcome: outcomeOf(charge),
    paid: charge.status === 'succeeded',
    payment_intent: charge.paymentIntent,
    payment_method: charge.paymentMethod.id,
    payment_method_details:
      charge.paymentMethod.card === undefined
        ? redirectChargeDetails(charge.paymentMethod.redirect as RedirectMethod)
        : { card: chargeCard(charge, charge.paymentMethod.card), type: 'card' },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: charge.amountRefunded > 0 && charge.amountRefunded === charge.amountCaptured,
    refunds: listObject(
      refunds.map((r) => refundObject(r)),
      `/v1/charges/${charge.id}/refunds`,
    ),
    review: null,
    shipping: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: charge.status,
    transfer_data: null,
    transfer_group: null,
    source: null,
  };
}

/**
 * A PaymentIntent; `expand` names what is expanded in place of an id (`latest_charge`,
 * `payment_method`), as Stripe's `expand[]` parameter does.
 */
export function intentObject(
  intent: IntentState,
  expanded: { readonly latestCharge?: Json; readonly paymentMethod?: Json } = {},
): Json {
  return {
    amount: intent.amount,
    amount_capturable: intent.amountCapturable,
    amount_details: { tip: {} },
    amount_received: intent.amountReceived,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: intent.canceledAt,
    cancellation_reason: intent.cancellationReason,
    capture_method: intent.captureMethod,
    client_secret: `${intent.id}_secret_${intent.id.slice(3).split('').reverse().join('')}`,
    confirmation_method: 'automatic',
    created: intent.created,
    currency: intent.currency,
    customer: intent.customer,
    description: null,
    id: intent.id,
    last_payment_error: intent.lastPaymentError,
    latest_charge: expanded.latestCharge ?? intent.latestCharge?.id ?? null,
    livemode: false,
    metadata: intent.metadata,
    next_action: intent.nextAction,
    object: 'payment_intent',
    on_behalf_of: null,
    payment_method: expanded.paymentMethod ?? intent.paymentMethod?.id ?? null,
    payment_method_configuration_details: null,
    payment_method_options: Object.fromEntries(
      intent.paymentMethodTypes.map((type) => [
        type,
        type === 'card'
          ? {
              installments: null,
              mandate_options: null,
              network: null,
              request_three_d_secure: intent.requestThreeDSecure,
            }
          : {},
      ]),
    ),
    payment_method_types: intent.paymentMethodTypes,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: intent.setupFutureUsage,
    shipping: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: intent.status,
    transfer_data: null,
    transfer_group: null,
    source: null,
    excluded_payment_method_types: null,
    customer_account: null,
    managed_payments: { enabled: false },
  };
}

export function setupIntentObject(setup: SetupIntentState): Json {
  return {
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${setup.id}_secret_${setup.id.slice(5)}`,
    created: setup.created,
    customer: setup.customer,
    description: null,
    flow_directions: null,
    id: setup.id,
    last_setup_error: setup.lastSetupError,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: setup.metadata,
    next_action: null,
    object: 'setup_intent',
    on_behalf_of: null,
    payment_method: setup.paymentMethod?.id ?? null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: setup.status,
    usage: 'off_session',
    excluded_payment_method_types: null,
  };
}

export function refundObject(refund: RefundState): Json {
  return {
    amount: refund.amount,
    balance_transaction: `txn_${refund.id.slice(3)}`,
    charge: refund.charge.id,
    created: refund.created,
    currency: refund.currency,
    destination_details: { card: { type: 'refund' }, type: 'card' },
    id: refund.id,
    metadata: refund.metadata,
    object: 'refund',
    payment_intent: refund.charge.paymentIntent,
    reason: refund.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: refund.status ?? 'succeeded',
    ...(refund.failureReason === undefined ? {} : { failure_reason: refund.failureReason }),
    transfer_reversal: null,
    customer: refund.charge.customer,
    customer_account: null,
    payment_method: refund.charge.paymentMethod.id,
  };
}

export function customerObject(customer: CustomerState): Json {
  return {
    address: null,
    balance: 0,
    created: customer.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: customer.email,
    id: customer.id,
    invoice_prefix: customer.id.slice(4, 11).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: customer.metadata,
    name: customer.name,
    next_invoice_sequence: 1,
    object: 'customer',
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function eventObject(id: string, type: string, object: Json, created: number): Json {
  return {
    api_version: '2026-10-28.endive',
    created,
    data: { object },
    id,
    livemode: false,
    object: 'event',
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

export function balanceObject(currency = 'eur'): Json {
  const zero = { amount: 0, currency, source_types: { card: 0 } };
  return {
    available: [zero],
    connect_reserved: [{ amount: 0, currency }],
    livemode: false,
    object: 'balance',
    pending: [zero],
  };
}

export function listObject(data: readonly Json[], url: string): Json {
  return { data, has_more: false, object: 'list', url };
}

/** The answer of a search (`/v1/…/search`): Stripe's search_result list. */
export function searchResultObject(data: readonly Json[], url: string): Json {
  return { data, has_more: false, next_page: null, object: 'search_result', url };
}
