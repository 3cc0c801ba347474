/**
 * The request kinds: the payment types each endpoint decides, the catalogue's sections and the
 * endpoint's own groups each kind accepts, and the rules it adds.
 */

import { SECTIONS, type SectionId } from '../catalogue';
import { ID32 } from '../catalogue/dsl';
import { type Group, group, type Infer, optional, pick } from '../nodes';
import { check, has, type Rule, together } from '../rules';
import { instrumentRule } from './account-data';
import {
  checkoutPaymentType,
  DATE_RANGE,
  onlyAt,
  overridePaymentTypeOnlyAtCheckout,
  referencingAmount,
  registrationsOnlyAtCheckout,
  shippingCostInAmount,
  shopperCustomParameters,
} from './kind-rules';

/** The decisions: initial types on /v1/payments, referencing types on /v1/payments/{id}. */
export const INITIAL_PAYMENT_TYPES = ['PA', 'DB', 'CD', 'PA.CP'] as const;
export const REFERENCING_PAYMENT_TYPES = ['CP', 'RV', 'RF', 'RB'] as const;
/**
 * Stand-alone risk checks on /v1/payments (screened, nothing charged; engine/risk-check.ts): RE, the
 * family's code for "stand-alone risk", and RI, as the spec's paymentTypes list also names it.
 */
export const STANDALONE_RISK_TYPES = ['RE', 'RI'] as const;
/** A registration charges with a plain debit, authorization or credit. */
export const REGISTRATION_PAYMENT_TYPES = ['PA', 'DB', 'CD'] as const;

/** Everything a payment may carry besides its instrument. */
const PAYMENT_DATA = [
  'basicPayment',
  'forex',
  'authentication',
  'customer',
  'billing',
  'shipping',
  'corporate',
  'sender',
  'recipient',
  'merchant',
  'cart',
  'airline',
  'tokenization',
  'recurringMigration',
  'threeDSecure',
  'customParameters',
  'asynchronous',
  'risk',
  'standingInstruction',
] as const satisfies readonly SectionId[];

const INSTRUMENTS = [
  'card',
  'wallets',
  'virtualAccount',
  'bankAccount',
  'tokenAccount',
  'giftCard',
] as const satisfies readonly SectionId[];

/**
 * One-click payment in the widget: the stored registration (one of the checkout's
 * `registrations[n].id`) the shopper picked. Only the widget's submission takes it; elsewhere a
 * registration is paid through its own path (/v1/registrations/{id}/payments).
 */
const oneClick = group({
  registrationId: ID32({
    note: 'Widget submission only: the stored registration (one the checkout offers) to pay with; card.cvv may come along.',
  }),
});

/**
 * The widget's card: with a one-click registrationId only what the shopper adds now (cvv, holder)
 * comes, so the card's own required fields are required only without one.
 */
const widgetCard = group({ card: optional(SECTIONS.card.group.fields.card) });
const cardUnlessOneClick = check({
  paths: ['card', 'registrationId'],
  says: 'card.number, card.expiryMonth and card.expiryYear are required with a card, unless registrationId names a stored one.',
  requiredness: true,
  apply(root, report) {
    if (!has(root, 'card') || has(root, 'registrationId')) return;
    for (const field of ['number', 'expiryMonth', 'expiryYear']) {
      if (!has(root, `card.${field}`)) report(`card.${field}`, 'is required', null);
    }
  },
});

/** The spec's proof of an authentication (payment-transaction fields): what an authentication answers. */
const AUTHENTICATION_RESULTS = [
  'eci',
  'verificationId',
  'authenticationStatus',
  'dsTransactionId',
  'acsTransactionId',
  'challengeMandatedIndicator',
  'authType',
  'transactionStatusReason',
] as const;

/** Groups that are not sections of the catalogue, with the one endpoint that accepts them (for the docs). */
export const ENDPOINT_PARAMETERS: readonly { readonly endpoint: string; readonly group: Group }[] = [
  { endpoint: 'POST /v1/checkouts/{id}/payment', group: oneClick },
];

export interface KindSpec {
  readonly sections: readonly SectionId[];
  /** Extra groups beyond whole sections (a few fields of a section). */
  readonly extra?: readonly Group[];
  readonly required?: readonly string[];
  readonly paymentTypes?: readonly string[];
  readonly rules?: readonly Rule[];
  /** Most name=value pairs a body may have (413 past it); the decoder's default otherwise. */
  readonly maxParams?: number;
}

/**
 * A widget submission has some fifty fields at most (card, customer, browser, billing) plus the
 * shop page's own inputs: a thousand is far beyond any real one, and the decoder stops there.
 */
export const MAX_SUBMISSION_PARAMS = 1_000;

const basic = SECTIONS.basicPayment.group;

export const KINDS = {
  /** POST /v1/payments: an initial payment. */
  payment: {
    sections: [...PAYMENT_DATA, ...INSTRUMENTS],
    required: ['paymentType', 'amount', 'currency'],
    paymentTypes: [...INITIAL_PAYMENT_TYPES, ...STANDALONE_RISK_TYPES],
    rules: [
      overridePaymentTypeOnlyAtCheckout,
      registrationsOnlyAtCheckout,
      instrumentRule({}),
      shippingCostInAmount,
    ],
  },
  /** POST /v1/payments/{id}: capture, reversal, refund or rebill of an earlier payment. */
  referencing: {
    sections: ['authentication', 'customParameters', 'merchant', 'cart', 'risk'],
    extra: [
      pick(basic, [
        'amount',
        'currency',
        'paymentType',
        'descriptor',
        'merchantTransactionId',
        'merchantInvoiceId',
        'merchantMemo',
        'sequence',
        'numberOfCaptures',
        'testMode',
        'lifecycleId',
        'taxAmount',
        'discountAmount',
      ]),
    ],
    required: ['paymentType'],
    paymentTypes: REFERENCING_PAYMENT_TYPES,
    rules: [referencingAmount],
  },
  /** POST /v1/checkouts: a checkout for the widget; the instrument comes from the shopper later. */
  checkout: {
    sections: PAYMENT_DATA,
    // and the bank account a merchant may know already (bankAccount.country, a mandate), all of
    // it optional: the shopper completes it in the widget. Card data never: it is typed by the
    // shopper into the widget's frames.
    extra: [optional(SECTIONS.bankAccount.group)],
    paymentTypes: INITIAL_PAYMENT_TYPES,
    rules: [checkoutPaymentType, shippingCostInAmount],
  },
  /**
   * POST /v1/checkouts/{id}: an update of an open checkout. What a creation accepts, none of it
   * required: what is sent replaces the stored parameter, or the stored group as a whole, and the
   * checkout so updated is validated again as a creation (operations/checkout/update.ts).
   */
  checkoutUpdate: {
    sections: PAYMENT_DATA,
    extra: [optional(SECTIONS.bankAccount.group)],
    paymentTypes: INITIAL_PAYMENT_TYPES,
  },
  /** POST /v1/checkouts/{id}/payment: what the widget submits; the brand may be detected. */
  checkoutPayment: {
    sections: [
      'authentication',
      'customer',
      'billing',
      'customParameters',
      'tokenization',
      'wallets',
      'virtualAccount',
      'bankAccount',
      'tokenAccount',
      'giftCard',
    ],
    // shopperResultUrl: the form's action, where a flow that leaves the page (3-D Secure,
    // redirect methods) brings the shopper back (decisions, Widget).
    extra: [
      pick(basic, ['paymentBrand']),
      pick(SECTIONS.asynchronous.group, ['shopperResultUrl']),
      oneClick,
      widgetCard,
    ],
    rules: [
      shopperCustomParameters,
      registrationsOnlyAtCheckout,
      cardUnlessOneClick,
      instrumentRule({ optionalBrand: true, optionalInstrument: true }),
    ],
    maxParams: MAX_SUBMISSION_PARAMS,
  },
  /**
   * POST /v1/threeDSecure: a stand-alone 3-D Secure authentication of a card, nothing paid
   * (operations/three-d-secure.ts). The payment's data that the authentication message carries;
   * the proof values (eci, verificationId …) are its answer, not its request.
   */
  threeDSecure: {
    sections: [
      'authentication',
      'card',
      'customer',
      'billing',
      'shipping',
      'merchant',
      'threeDSecure',
      'customParameters',
      'standingInstruction',
    ],
    extra: [
      pick(basic, [
        'amount',
        'currency',
        'paymentBrand',
        'merchantTransactionId',
        'merchantInvoiceId',
        'descriptor',
        'testMode',
      ]),
      pick(SECTIONS.asynchronous.group, ['shopperResultUrl']),
    ],
    required: ['amount', 'currency', 'paymentBrand', 'card.number', 'card.expiryMonth', 'card.expiryYear'],
    rules: [
      instrumentRule({}),
      ...AUTHENTICATION_RESULTS.map((name) =>
        onlyAt(`threeDSecure.${name}`, 'in a payment passing on an authentication, not when asking for one'),
      ),
      onlyAt('threeDSecure.disable', 'in a payment: a stand-alone authentication is asked for explicitly'),
    ],
  },
  /** POST /v1/registrations: stores payment details as a registration. */
  registration: {
    sections: [
      'authentication',
      'customer',
      'billing',
      'shipping',
      'customParameters',
      'recurringMigration',
      'standingInstruction',
      'threeDSecure',
      'asynchronous',
      ...INSTRUMENTS,
    ],
    // amount and currency: a register-card call of the family sends them (decisions, Fidelity);
    // nothing is charged, they are kept and echoed
    extra: [
      pick(basic, ['paymentBrand', 'testMode', 'merchantTransactionId', 'descriptor', 'amount', 'currency']),
      pick(SECTIONS.tokenization.group, ['overrideHolder']),
    ],
    rules: [instrumentRule({}), together('amount', 'currency')],
  },
  /**
   * POST /v1/registrations/{id}/payments: a payment with stored details. Of the card, only what
   * the shopper adds at payment time may come (cvv; holder with overrideHolder).
   */
  registrationPayment: {
    sections: PAYMENT_DATA,
    extra: [group({ card: optional(SECTIONS.card.group.fields.card) })],
    required: ['paymentType', 'amount', 'currency'],
    paymentTypes: REGISTRATION_PAYMENT_TYPES,
    rules: [
      overridePaymentTypeOnlyAtCheckout,
      registrationsOnlyAtCheckout,
      onlyAt('card.number', 'with a new card, not with a stored registration'),
    ],
  },
  /** GET /v1/query and /v1/query/{id}. */
  query: {
    sections: ['authentication', 'query'],
    rules: DATE_RANGE,
  },
  /** GET /reports/v1/reconciliations/aggregations[/{id}]. */
  reporting: {
    sections: ['authentication', 'reporting'],
    required: ['date.from', 'date.to'],
    extra: [pick(basic, ['currency', 'testMode'])],
    rules: DATE_RANGE,
  },
  /** POST /scheduling/v1/schedules: a job that charges a registration. */
  schedule: {
    sections: ['authentication', 'scheduling', 'standingInstruction', 'customParameters'],
    extra: [
      pick(basic, ['amount', 'currency', 'paymentType', 'testMode', 'merchantTransactionId', 'descriptor']),
    ],
    required: ['registrationId', 'amount', 'currency', 'paymentType'],
    paymentTypes: REGISTRATION_PAYMENT_TYPES,
    // no job.* fields at all take the spec's defaults (operations/schedules/validation.ts)
  },
  /** GET and DELETE requests that only name the channel (payment status, registration delete…). */
  entity: {
    sections: ['authentication'],
  },
} as const satisfies Record<string, KindSpec>;

export type RequestKind = keyof typeof KINDS;
export const REQUEST_KINDS = Object.keys(KINDS) as RequestKind[];

type SectionsOf<K extends RequestKind> = (typeof KINDS)[K]['sections'][number];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

type ExtrasOf<K extends RequestKind> = (typeof KINDS)[K] extends { readonly extra: readonly (infer G)[] }
  ? G
  : never;

/** The validated request of a kind: the sections and extra groups it accepts, merged. */
export type RequestOf<K extends RequestKind> = UnionToIntersection<
  Infer<(typeof SECTIONS)[SectionsOf<K>]['group']> | Infer<ExtrasOf<K>>
>;
