/**
 * The payment engine's records: merchants and their channels, access tokens, payments and
 * registrations, as the engine and every storage adapter see them. Money is integer minor units.
 */
import type { Minor } from '../../money';
import type { RiskRules } from '../../risk';

/** Test channels run the simulators (INTERNAL) or a connector's test system (EXTERNAL); live ones go to acquirers. */
export type ChannelMode = 'TEST' | 'LIVE';
export type TestMode = 'INTERNAL' | 'EXTERNAL';

/**
 * The two environments (decisions, "Payment methods and environments"), each with its own base
 * address: `test` holds the TEST channels, `live` the LIVE ones. Every channel and every access
 * token belongs to one; credentials of the other environment are refused (403, 800.900.300).
 */
export type Environment = 'test' | 'live';

/** The environment of a channel of this mode: TEST → test, LIVE → live. */
export const environmentOf = (mode: ChannelMode): Environment => (mode === 'LIVE' ? 'live' : 'test');

/** The environment of a token: stored with it; tokens made before environments are test tokens. */
export const tokenEnvironment = (token: Pick<AccessToken, 'environment'>): Environment =>
  token.environment ?? 'test';

export interface Merchant {
  readonly id: string; // 32 hex
  readonly name: string;
  /**
   * Channel dispatching: `entityId` may then be the merchant's id, and the gateway picks the
   * merchant's channel of the request's environment that accepts the brand and currency.
   */
  readonly dispatching?: boolean;
  readonly createdAt: Date;
}

/** Per-channel settings an operator changes with the CLI. */
export interface ChannelSettings {
  /** Requests per minute per token and operation; undefined: the gateway default. */
  readonly throttlePerMinute?: number;
  /** Whether the gateway authenticates shoppers with 3-D Secure on this channel. */
  readonly threeDSecure?: boolean;
  /**
   * Whether a one-click payment with a stored card must carry the card's CVV (the family's widget
   * option `registrations.requireCvv`, enforced here); brands whose cards may have none are not
   * asked (engine/operations/checkout/stored-cards.ts). Undefined: not asked.
   */
  readonly registrationsRequireCvv?: boolean;
  /**
   * The channel's processor on EXTERNAL and live: one connector of a kind (DECISIONS, "Connectors
   * and processors"; server/connectors/registry.ts builds it). Settings stored before kinds existed
   * have no `kind` and are `opp`.
   */
  readonly connector?: ConnectorSettings;
  /**
   * Routing with fallback (DECISIONS, "Connectors and processors"; server/connectors/routing/):
   * several connectors in order, each with its rules; a payment goes to the first that matches and
   * falls back to the next only after a known technical failure. Given, it is used instead of
   * `connector` (the single-connector form).
   */
  readonly routes?: readonly ConnectorRoute[];
  /** Risk rules screening this channel's initial payments (shared/risk, checked by `checkRules`); none: nothing screened. */
  readonly risk?: RiskRules;
  /**
   * The brands the channel accepts (known brands of shared/brands); undefined: every brand the
   * gateway supports. Any other brand is refused with 600.200.201 (engine/payment-method.ts).
   */
  readonly brands?: readonly string[];
  /** The currencies the channel accepts (ISO 4217); undefined: any. Others: 600.200.500. */
  readonly currencies?: readonly string[];
  /**
   * The merchant's account the shopper transfers to (PREPAYMENT), answered as
   * `merchant.bankAccount.*`; storage seals the IBAN like the shoppers' account numbers.
   */
  readonly bankAccount?: MerchantBankAccount;
}

/** Another gateway of this API family (a real OPP account, or another instance of this gateway). */
export interface OppConnectorSettings {
  readonly kind?: 'opp';
  readonly baseUrl: string;
  readonly entityId: string;
  readonly accessToken: string;
}

/** Adyen's Checkout API v71 (`baseUrl` its test or live Checkout address, or a fake's). */
export interface AdyenConnectorSettings {
  readonly kind: 'adyen';
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly merchantAccount: string;
  /** The HMAC key Adyen signs its standard notifications with (hex), when one is configured. */
  readonly hmacKey?: string;
}

/** Stripe's PaymentIntents API (`baseUrl` https://api.stripe.com, or a fake's). */
export interface StripeConnectorSettings {
  readonly kind: 'stripe';
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The signing secret of the webhook endpoint (`whsec_…`) for the Stripe-Signature header. */
  readonly webhookSecret?: string;
}

/** A channel's connector, by kind: every kind's credentials, sealed at rest (shared/sealing). */
export type ConnectorSettings = OppConnectorSettings | AdyenConnectorSettings | StripeConnectorSettings;

/**
 * One connector of a channel's routes and what it takes (every rule given must match; none: any
 * payment). Its credentials rest sealed like `connector`'s (shared/sealing: the field's name).
 */
export interface ConnectorRoute {
  readonly connector: ConnectorSettings;
  /** The brands it takes (the catalogue's names). */
  readonly brands?: readonly string[];
  /** The card countries it takes (ISO 3166-1 alpha-2, the issuer's country from the BIN). */
  readonly countries?: readonly string[];
  /** The currencies it takes (ISO 4217). */
  readonly currencies?: readonly string[];
  /** The amounts it takes, in minor units, both ends included. */
  readonly minAmount?: Minor;
  readonly maxAmount?: Minor;
}

/** One try of a routed payment at one connector (recorded with the payment, shown by the admin API). */
export interface ConnectorAttempt {
  /** The connector's kind (opp, adyen, stripe). */
  readonly kind: string;
  /** Its place in the channel's routes (0 first). */
  readonly route: number;
  /** ISO 8601, on the gateway's clock. */
  readonly at: string;
  /**
   * processed: the processor answered (a success or a decline); refused: nothing reached it (the
   * next connector was tried); uncertain: it may have processed it (no fallback); skipped: its
   * circuit was open (it kept failing), not tried.
   */
  readonly outcome: 'processed' | 'refused' | 'uncertain' | 'skipped';
  /** The family's code it answered, when tried. */
  readonly code?: string;
}

/** A merchant's bank account, as an operator configures it on a channel. */
export interface MerchantBankAccount {
  readonly holder: string;
  readonly iban: string;
  readonly bic: string;
  readonly bankName?: string;
  /** ISO 3166-1 alpha-2. */
  readonly country?: string;
}

export interface Channel {
  readonly id: string; // the entityId: 32 hex
  readonly merchantId: string;
  readonly name: string;
  readonly mode: ChannelMode;
  readonly settings: ChannelSettings;
  readonly createdAt: Date;
}

export interface AccessToken {
  readonly id: string;
  readonly merchantId: string;
  /** userId part of the token (`base64(userId|secret)`); the secret is stored only as a hash. */
  readonly userId: string;
  readonly secretHash: string;
  /** Channels the token may use; all of the merchant's of its environment when empty. */
  readonly channelIds: readonly string[];
  /**
   * The environment the token belongs to, derived from its channels when it is made (a token may
   * not mix test and live channels); undefined: test (see {@link tokenEnvironment}).
   */
  readonly environment?: Environment;
  readonly revokedAt: Date | null;
  readonly createdAt: Date;
}

/** A card as stored: the number only encrypted, the security code never. */
export interface StoredCard {
  readonly bin: string;
  readonly last4Digits: string;
  readonly holder?: string;
  readonly expiryMonth: string;
  readonly expiryYear: string;
  /** AES-256-GCM ciphertext of the PAN (see server/security). */
  readonly encryptedNumber: string;
}

export interface Payment {
  readonly id: string; // 32 hex
  readonly merchantId: string;
  readonly channelId: string;
  readonly paymentType: string;
  readonly paymentBrand?: string;
  /** Minor units, null for requests without an amount (a full reversal). */
  readonly amount: Minor | null;
  readonly currency?: string;
  readonly resultCode: string;
  readonly resultDescription: string;
  /** The payment this one references (capture of a PA, refund of a DB …). */
  readonly referencedId?: string;
  readonly registrationId?: string;
  readonly merchantTransactionId?: string;
  readonly shortId: string;
  readonly descriptor?: string;
  readonly ndc: string;
  readonly testMode?: TestMode;
  readonly card?: StoredCard;
  /**
   * The checkout whose submission made this payment: its deprecated `notificationUrl` callback
   * names the checkout's resourcePath, as the shopper's return does. Never answered.
   */
  readonly checkoutId?: string;
  /**
   * The response fields beyond the above, as answered: echoed request groups (customer,
   * billing, customParameters …), resultDetails, risk, standing-instruction ids. Never card
   * numbers or security codes; account numbers (bankAccount.iban …) as sent, sealed by storage.
   */
  readonly details: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
}

export interface Registration {
  readonly id: string; // 32 hex
  readonly merchantId: string;
  readonly channelId: string;
  readonly paymentBrand: string;
  readonly card?: StoredCard;
  /** Bank account and other instrument data; storage seals the IBAN and account number like a PAN. */
  readonly details: Readonly<Record<string, unknown>>;
  readonly initialTransactionId?: string;
  readonly agreementId?: string;
  /** The merchantTransactionId its request carried: the Query API finds the registration by it. */
  readonly merchantTransactionId?: string;
  readonly deletedAt: Date | null;
  readonly createdAt: Date;
}

/**
 * IdempotentResponse.status while a payment holds the key and its response is not stored yet
 * (Store.insertPayment, insertSchedule with a claim): a replay answers the payment `paymentId`
 * (or the schedule `scheduleId`) names.
 */
export const IDEMPOTENCY_CLAIMED = 0;

/** A stored first response to a POST with an Idempotency-Key, replayed for 24 hours. */
export interface IdempotentResponse {
  readonly merchantId: string;
  readonly key: string;
  /** Hash of method, path and body: the same key with another request is refused. */
  readonly requestHash: string;
  readonly status: number;
  readonly body: string;
  readonly createdAt: Date;
  /** The payment the request made, when it made one: it took the key in its own transaction. */
  readonly paymentId?: string;
  /** The schedule the request made, when it made one: it took the key in its own transaction. */
  readonly scheduleId?: string;
}

/**
 * What a checkout was created for: a payment (which may register the card along), or only a
 * registration (`createRegistration=true` without `paymentType`: the widget stores the details).
 */
export type CheckoutKind = 'payment' | 'registration';

/**
 * A checkout (spec: "Checkout created → valid → expired"): the merchant's parameters, waiting for
 * the shopper's account data from the widget. Valid 30 minutes after creation; completed by the
 * first submission that succeeds (or is pending); its status re-readable 30 minutes after that.
 */
export interface Checkout {
  /** 32 uppercase hex, a dot and the node name: the bearer secret of the widget's requests. */
  readonly id: string;
  readonly merchantId: string;
  readonly channelId: string;
  readonly kind: CheckoutKind;
  /**
   * The validated creation parameters a submission is merged with. Credentials are left out, and
   * the checkout request kind takes no instrument (card.*, bankAccount.* …), so no card data can
   * be in here; sender and recipient account numbers can, and storage seals them.
   */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly amount: Minor;
  readonly currency: string;
  /** Where the shopper returns, and what the gateway notifies after 29 minutes without a status GET. */
  readonly shopperResultUrl?: string;
  readonly createdAt: Date;
  /** createdAt + 30 minutes. */
  readonly expiresAt: Date;
  /** The payment (payment checkouts) or registration (registration checkouts) that completed it. */
  readonly paymentId?: string;
  readonly registrationId?: string;
  /** The result code of that completing submission. */
  readonly resultCode?: string;
  /** The latest submission the engine ran (the pay button was clicked). */
  readonly submittedAt: Date | null;
  readonly completedAt: Date | null;
  /** The latest status GET. */
  readonly statusFetchedAt: Date | null;
  /** When the shopperResultUrl notification falls due; null when none is pending. */
  readonly notifyDueAt: Date | null;
  /** Notification attempts made so far (claims). */
  readonly notifyAttempts: number;
  readonly notifiedAt: Date | null;
}

/** What completed a checkout. */
export type CheckoutCompletion = {
  readonly at: Date;
  readonly resultCode: string;
} & ({ readonly paymentId: string } | { readonly registrationId: string });

/**
 * Why a payment is pending (spec: Asynchronous payments): the shopper authenticates with 3-D
 * Secure (a challenge page, or decoupled in their banking app) or completes a redirect method.
 */
/**
 * challenge: the issuer's page in the shopper's browser; app: the challenge the merchant's app
 * runs with its 3-D Secure SDK; decoupled: the cardholder's banking app; redirect: a redirect
 * method's provider; provider: the processor's provider answers without the shopper (an
 * invoice's acceptance after the pay-later provider's checks).
 */
/** `inquiry`: a connector's outcome was uncertain; the gateway asks the processor what happened. */
/** `connector`: a connector's processor sent the shopper to its own page (3-D Secure, a provider). */
export type PaymentSessionKind =
  | 'challenge'
  | 'app'
  | 'decoupled'
  | 'redirect'
  | 'provider'
  | 'inquiry'
  | 'connector';

/** How a pending payment ended. */
export type SessionOutcome = 'approved' | 'failed' | 'cancelled' | 'timedOut';

/**
 * A pending payment's session with the simulated third party (ACS or redirect method): the
 * payment stays `000.200.000` until the session finishes, then takes its final result. Expires
 * 30 minutes after creation (100.396.103).
 */
export interface PaymentSession {
  /** 32 hex: the bearer secret of the simulator pages (redirect.parameters). */
  readonly id: string;
  readonly paymentId: string;
  readonly merchantId: string;
  readonly kind: PaymentSessionKind;
  /** The checkout whose submission made the payment, if any: the shopper returns to it. */
  readonly checkoutId?: string;
  /** The shopperResultUrl the shopper is sent to when the session finishes. */
  readonly returnUrl?: string;
  /** What finishing needs (PendingPlan, engine/steps/asynchronous.ts), as JSON: never card data. */
  readonly plan: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** When the worker must look at it (expiry, or a decoupled authentication's answer); null once finished. */
  readonly dueAt: Date | null;
  readonly finishedAt: Date | null;
  readonly outcome?: SessionOutcome;
}

/** A pending payment's final state, written together with its session's end. */
export interface FinalState {
  readonly resultCode: string;
  readonly resultDescription: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly registrationId?: string;
}
