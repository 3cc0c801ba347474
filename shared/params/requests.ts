/**
 * Request kinds: which parameter groups each endpoint accepts and which it requires. A card
 * payment, a bank payment, a checkout creation, a referencing request, a registration and a
 * query all take the same catalogue; they differ only here.
 */
import { brandAccountData, brandInfo } from '../brands/registry';
import { type DecodeOptions, decodeForm, type FormTree } from '../form/decode';
import { INSTRUMENT_GROUPS, type InstrumentGroup, SECTIONS, type SectionId, WALLETS } from './catalogue';
import { ID32, oneOf } from './catalogue/dsl';
import { ErrorList } from './error-list';
import { maskValue, type ParameterError } from './errors';
import { errorMaskOf } from './masks';
import { type Group, group, type Infer, merge, optional, pick } from './nodes';
import { check, has, leafPaths, notBefore, type Rule, str, together } from './rules';
import { schemaOf } from './schema';
import { type CompiledRequest, type Validated, validateTree } from './validate';

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

// ---- Rules that depend on the request kind -------------------------------------------------

const onlyAt = (path: string, where: string, dict = false): Rule =>
  check({
    paths: [path],
    says: `${path} is accepted only ${where}.`,
    apply(root, report) {
      for (const sent of leafPaths(root, path, dict))
        report(sent.name, `is accepted only ${where}`, sent.value);
    },
  });

const overridePaymentTypeOnlyAtCheckout = onlyAt('overridePaymentType', 'when a checkout is created', true);
const registrationsOnlyAtCheckout = onlyAt('registrations', 'when a checkout is created');

/** The instrument groups sent; a wallet's decrypted card counts as part of that wallet. */
function instrumentsOf(root: FormTree): InstrumentGroup[] {
  const sent = INSTRUMENT_GROUPS.filter((g) => has(root, g));
  const decryptedWallet = WALLETS.some((w) => has(root, `${w}.source`));
  return decryptedWallet ? sent.filter((g) => g !== 'card') : sent;
}

/** Which instrument groups a brand takes: its own, and for card brands also network tokens. */
function groupsFor(brand: string): readonly InstrumentGroup[] | undefined {
  const info = brandInfo(brand);
  if (info === undefined) return undefined;
  if (info.kind === 'card') return ['card', 'tokenAccount'];
  return info.group === undefined ? [] : [info.group];
}

/**
 * The parameters a known brand's method needs, each as an error, for a request that sends none
 * of its account data; none for a brand whose method needs none (redirects, PREPAYMENT) and for a
 * brand the gateway does not know (the engine refuses those with 600.200.100).
 */
export function accountDataNeeded(brand: string): ParameterError[] {
  return brandAccountData(brand).map(([name, or]) => ({
    name,
    value: null,
    message: `is required for paymentBrand ${brand}${or === undefined ? '' : `, or else ${or}`}`,
  }));
}

/**
 * One instrument per request, matching paymentBrand. `optionalBrand` is for the widget, where the
 * brand may be detected from the card number; `optionalInstrument` for requests whose instrument
 * may come from elsewhere (a stored registration, a referenced transaction).
 */
function instrumentRule(options: { optionalBrand?: boolean; optionalInstrument?: boolean }): Rule {
  return check({
    paths: ['paymentBrand', ...INSTRUMENT_GROUPS],
    says: 'One payment instrument (card, bank account, …) per request, matching paymentBrand.',
    requiredness: true,
    apply(root, report) {
      const sent = instrumentsOf(root);
      const brand = str(root, 'paymentBrand');
      if (sent.length > 1) {
        for (const extra of leafPaths(root, sent[1]!)) {
          report(
            extra.name,
            `cannot be combined with ${sent[0]} data: send one payment instrument`,
            extra.value,
          );
        }
        return;
      }
      const allowed = brand === undefined ? undefined : groupsFor(brand);
      if (sent.length === 1) {
        const g = sent[0]!;
        if (brand === undefined) {
          if (!options.optionalBrand) report('paymentBrand', `is required with ${g} data`, null);
        } else if (allowed !== undefined && !allowed.includes(g)) {
          report('paymentBrand', `${brand} does not take ${g} data`);
        }
        return;
      }
      if (options.optionalInstrument || has(root, 'referenceUuid')) return;
      if (brand === undefined) {
        report(
          'paymentBrand',
          'is required, with the account data of the payment (card.*, bankAccount.* …)',
          null,
        );
      } else {
        // A known brand without its account data: every parameter its method needs is named
        // (a brand the gateway does not know is the engine's to refuse, with 600.200.100).
        for (const e of accountDataNeeded(brand)) report(e.name, e.message, null);
      }
    },
  });
}

/** "When sent from the client side in the widget flow, the name is prefixed SHOPPER_." */
const shopperCustomParameters = check({
  paths: ['customParameters'],
  says: 'Custom parameters sent from the widget start with SHOPPER_.',
  apply(root, report) {
    const params = root.customParameters;
    if (typeof params !== 'object' || Array.isArray(params)) return;
    for (const name of Object.keys(params)) {
      if (!name.startsWith('SHOPPER_'))
        report(`customParameters[${name}]`, 'must start with SHOPPER_ when sent from the widget');
    }
  },
});

/**
 * A registration-only checkout (createRegistration=true, no paymentType) stores payment details
 * and charges nothing, so it needs no amount either; any other checkout needs all three.
 */
const checkoutPaymentType = check({
  paths: ['paymentType', 'createRegistration', 'amount', 'currency'],
  says: 'paymentType, amount and currency are required unless the checkout only registers (createRegistration=true without paymentType).',
  requiredness: true,
  apply(root, report) {
    const registers = ['true', '1'].includes(str(root, 'createRegistration') ?? '');
    if (registers && !has(root, 'paymentType')) {
      if (has(root, 'amount') !== has(root, 'currency')) {
        report(has(root, 'amount') ? 'currency' : 'amount', 'is required with the other', null);
      }
      return;
    }
    for (const p of ['paymentType', 'amount', 'currency']) if (!has(root, p)) report(p, 'is required', null);
  },
});

/** A referencing request: amount and currency, except for a full reversal. */
const referencingAmount = check({
  paths: ['amount', 'currency', 'paymentType'],
  says: 'amount and currency are required, except for a reversal (RV).',
  requiredness: true,
  apply(root, report) {
    if (str(root, 'paymentType') === 'RV') {
      if (has(root, 'amount') !== has(root, 'currency')) {
        report(has(root, 'amount') ? 'currency' : 'amount', 'is required with a partial reversal', null);
      }
      return;
    }
    for (const p of ['amount', 'currency']) if (!has(root, p)) report(p, 'is required', null);
  },
});

/** date.from and date.to span a time frame together. */
const DATE_RANGE = [together('date.from', 'date.to'), notBefore('date.from', 'date.to')];

const scheduleNeedsJob = check({
  paths: ['job'],
  says: 'A schedule needs job.expression or job.* fields.',
  requiredness: true,
  apply(root, report) {
    if (!has(root, 'job')) report('job.expression', 'is required, or the job.* fields', null);
  },
});

// ---- Parameters of one endpoint only ---------------------------------------------------------

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

/** Groups that are not sections of the catalogue, with the one endpoint that accepts them (for the docs). */
export const ENDPOINT_PARAMETERS: readonly { readonly endpoint: string; readonly group: Group }[] = [
  { endpoint: 'POST /v1/checkouts/{id}/payment', group: oneClick },
];

// ---- Request kinds -------------------------------------------------------------------------

interface KindSpec {
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

const KINDS = {
  /** POST /v1/payments: an initial payment. */
  payment: {
    sections: [...PAYMENT_DATA, ...INSTRUMENTS],
    required: ['paymentType', 'amount', 'currency'],
    paymentTypes: [...INITIAL_PAYMENT_TYPES, ...STANDALONE_RISK_TYPES],
    rules: [overridePaymentTypeOnlyAtCheckout, registrationsOnlyAtCheckout, instrumentRule({})],
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
    paymentTypes: INITIAL_PAYMENT_TYPES,
    rules: [checkoutPaymentType],
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
    extra: [
      pick(basic, ['paymentBrand', 'testMode', 'merchantTransactionId', 'descriptor']),
      pick(SECTIONS.tokenization.group, ['overrideHolder']),
    ],
    rules: [instrumentRule({})],
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
    rules: [scheduleNeedsJob],
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

interface Compiled extends CompiledRequest {
  readonly lists: DecodeOptions['lists'];
  readonly maxParams?: number;
}
const compiled = new Map<RequestKind, Compiled>();

/** The merged catalogue group of a request kind. */
export function rootOf(kind: RequestKind): Group {
  return compile(kind).root;
}

function compile(kind: RequestKind): Compiled {
  const cached = compiled.get(kind);
  if (cached !== undefined) return cached;
  const spec: KindSpec = KINDS[kind];
  let root = merge([...spec.sections.map((id) => SECTIONS[id].group), ...(spec.extra ?? [])]);
  if (spec.paymentTypes !== undefined && root.fields.paymentType !== undefined) {
    root = group({ ...root.fields, paymentType: oneOf(spec.paymentTypes, { req: 'R' }) }, root.rules);
  }
  const request: Compiled = {
    root,
    schema: schemaOf(root),
    required: spec.required ?? [],
    rules: spec.rules ?? [],
    lists: listLimitsOf(root),
    ...(spec.maxParams === undefined ? {} : { maxParams: spec.maxParams }),
  };
  compiled.set(kind, request);
  return request;
}

/** Where lists are, and how long they may be, for the form decoder. */
export function listLimits(kind: RequestKind): DecodeOptions['lists'] {
  return compile(kind).lists;
}

function listLimitsOf(root: Group): DecodeOptions['lists'] {
  const limits = new Map<string, number>();
  const walk = (g: Group, prefix: string) => {
    for (const [name, node] of Object.entries(g.fields)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      if (node.kind === 'group') walk(node, path);
      else if (node.kind === 'list') {
        limits.set(path, node.max);
        walk(node.item, path);
      }
    }
  };
  walk(root, '');
  return (path) => limits.get(path);
}

export function validateRequest<K extends RequestKind>(kind: K, tree: FormTree): Validated<RequestOf<K>> {
  return validateTree<RequestOf<K>>(compile(kind), tree);
}

export type ParsedRequest<K extends RequestKind> =
  | { readonly ok: true; readonly value: RequestOf<K> }
  | { readonly ok: false; readonly status: 400 | 413; readonly errors: ParameterError[] };

/** Decodes and validates a form body or query string in one step. */
export function parseRequest<K extends RequestKind>(
  kind: K,
  body: string | Uint8Array,
  options: { maxBytes?: number } = {},
): ParsedRequest<K> {
  const request = compile(kind);
  const decoded = decodeForm(body, {
    lists: request.lists,
    ...(request.maxParams === undefined ? {} : { maxParams: request.maxParams }),
    ...options,
  });
  if (!decoded.ok) {
    // The first faults listed, the rest counted (error-list.ts): values are masked only when listed.
    const errors = new ErrorList();
    for (const i of decoded.issues) {
      const { value } = i;
      errors.add(i.name, value === null ? null : () => maskValue(value, errorMaskOf(i.name)), i.message);
    }
    if (decoded.partial !== undefined) validateTree(request, decoded.partial, errors);
    return { ok: false, status: decoded.status, errors: errors.errors() };
  }
  const result = validateRequest(kind, decoded.tree);
  return result.ok ? result : { ok: false, status: 400, errors: result.errors };
}
