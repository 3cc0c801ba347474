/**
 * Checkouts (COPYandPAY): the merchant's server creates a checkout with the payment's parameters
 * (POST /v1/checkouts); the shopper's widget reads the checkout's session and submits the account
 * data (POST /v1/checkouts/{id}/payment, or /registration for a checkout that only registers);
 * the merchant's server reads the outcome (GET /v1/checkouts/{id}/payment).
 *
 * Each step is a pipeline like initial-payment.ts: validate → load → decide → record. The payment
 * itself is made by the engines that already exist (createPayment, payWithRegistration,
 * createRegistration) on the checkout's parameters merged with the submission, so outcomes,
 * simulators, storage and the answer are exactly those of /v1/payments and /v1/registrations.
 *
 * The checkout's life (spec, States and transitions; decisions, Outcomes):
 * - valid for 30 minutes after creation; a submission after that is refused, nothing charged;
 * - completed by the first submission that succeeds or is pending: it is paid once, and further
 *   submissions are refused. A declined submission leaves it open, so the shopper may retry
 *   with another card in the same widget (the family's checkouts are reusable until paid);
 * - a pending payment (3-D Secure challenge, redirect method) that ends declined, cancelled or
 *   timed out opens it again; a new submission while one is pending cancels that one first
 *   (spec: closing a popup lets the shopper continue with another brand);
 * - its status is 000.200.000 before any attempt, the latest (declined) attempt while open, then
 *   the payment (or registration), re-readable for 30 minutes after completion, then 200.300.404;
 * - 29 minutes after a submission without a status GET, the gateway notifies shopperResultUrl
 *   (server/workers/shopper-result-notifier.ts).
 */

import { detectBrand, isKnownBrand } from '../../brands';
import type { FormTree, FormValue } from '../../form/decode';
import { fromMinor, type Minor } from '../../money';
import { INSTRUMENT_GROUPS } from '../../params/catalogue';
import type { ParameterError } from '../../params/errors';
import {
  INITIAL_PAYMENT_TYPES,
  type RequestKind,
  type RequestOf,
  rootOf,
  validateRequest,
} from '../../params/requests';
import {
  describe,
  isPending,
  isSuccess,
  isSuccessReview,
  type KnownResultCode,
  ResultCodes,
} from '../../result-codes';
import { maskedCard } from '../answers/response';
import { readMoney } from '../core/amounts';
import type { Caller, EngineDeps, PaymentContext } from '../core/deps';
import { newCheckoutId, newPaymentNdc } from '../core/ids';
import type { Channel, Checkout, CheckoutKind, Payment, Registration } from '../core/model';
import { finishPending } from '../steps/asynchronous';
import { channelRefusal } from '../steps/payment-method';
import { createPayment } from './initial-payment';
import { createRegistration, payWithRegistration } from './registrations';

/** Limits (spec): a checkout id is valid 30 minutes; the merchant is notified after 29 without a status GET. */
export const CHECKOUT_VALIDITY_MS = 30 * 60_000;
export const NOTIFY_AFTER_MS = 29 * 60_000;
/** Decisions, Outcomes: the status of a completed checkout stays readable this long. */
export const STATUS_READABLE_MS = 30 * 60_000;

/** The codes a checkout answers beside those of its payment; each from the catalogue. */
export const CheckoutCodes = {
  CREATED: ResultCodes.CHECKOUT_CREATED,
  /** Status before completion (decisions, Outcomes; compat: "Status of a checkout before it is paid"). */
  OPEN: ResultCodes.PENDING,
  /**
   * An id that names no live session: unknown, expired before completion, or read more than 30
   * minutes after completion. The family answers exactly this ("No payment session found for the
   * requested id"), so clients already handle it; a submission to an expired checkout gets it
   * too, because for the shopper it is the same fact (this checkout id is no longer valid) and
   * one code is simpler to handle than two. More specific codes exist for neighbouring cases
   * (900.300.600 "user session timeout" is a communication-error group code that clients would
   * retry; 100.396.103 is about a pending transaction timing out), neither fits as well.
   */
  NO_SESSION: ResultCodes.INVALID_PARAMETER,
  /**
   * A submission to a checkout that is already paid (or pending): "referenced session is CLOSED
   * (no action possible)" says exactly that, and is a rejection, so clients do not retry it.
   */
  CLOSED: '100.350.101' satisfies KnownResultCode,
} as const;

export const NO_SESSION_DESCRIPTION = 'No payment session found for the requested id';

export interface CheckoutDeps extends EngineDeps {
  /** The node part of checkout ids (ids.ts checkoutNodeName). */
  readonly nodeName: string;
}

export type CheckoutState = 'open' | 'completed' | 'expired';

export function stateOf(checkout: Checkout, now: Date): CheckoutState {
  if (checkout.completedAt !== null) return 'completed';
  return now.getTime() >= checkout.expiresAt.getTime() ? 'expired' : 'open';
}

/** The path of the checkout's status, as the shopper's redirect and the notification carry it. */
export const resourcePathOf = (checkout: Pick<Checkout, 'id' | 'kind'>): string =>
  `/v1/checkouts/${checkout.id}/${checkout.kind}`;

/** Whether a submission with this result completes the checkout (the HTTP layer answers it 200). */
const completes = (code: string): boolean => isSuccess(code) || isSuccessReview(code) || isPending(code);

// ---- POST /v1/checkouts ----------------------------------------------------------------------

export type CheckoutCreation =
  | { readonly kind: 'checkout'; readonly checkout: Checkout }
  | { readonly kind: 'invalid'; readonly errors: ParameterError[] }
  /** Nothing stored: the channel cannot take this checkout's payments (its mode, brand or currency). */
  | { readonly kind: 'refused'; readonly code: string };

/** overridePaymentType values: the two-letter initial types (PA.CP has no two-letter form). */
const OVERRIDE_TYPES: readonly string[] = INITIAL_PAYMENT_TYPES.filter((t) => /^[A-Z]{2}$/.test(t));

/** Parameters that shape the checkout, not the payment made from it; and credentials, never kept. */
const CHECKOUT_ONLY = new Set(['overridePaymentType', 'registrations', 'integrity']);
const NEVER_KEPT = new Set(['entityId', 'authentication']);

export async function createCheckout(
  deps: CheckoutDeps,
  caller: Caller,
  request: RequestOf<'checkout'>,
): Promise<CheckoutCreation> {
  // validate: what the catalogue cannot check alone (money in the currency, override types,
  // registrations offered for one-click that exist), all faults at once
  const errors: ParameterError[] = [];
  // A registration-only checkout may come without money (the request kind's rule allows it):
  // it charges nothing, so it is recorded with 0 and no currency.
  const money =
    request.paymentType === undefined && request.amount === undefined
      ? { amount: 0 as Minor }
      : readMoney(request);
  if ('errors' in money) errors.push(...money.errors);
  for (const [brand, type] of Object.entries(request.overridePaymentType ?? {})) {
    if (!OVERRIDE_TYPES.includes(type)) {
      errors.push({
        name: `overridePaymentType[${brand}]`,
        value: type,
        message: `must be one of ${OVERRIDE_TYPES.join(', ')}`,
      });
    }
  }
  const offered = request.registrations ?? [];
  for (const [i, item] of offered.entries()) {
    const registration =
      item.id === undefined ? undefined : await deps.store.getRegistration(caller.merchantId, item.id);
    if (registration === undefined || registration.deletedAt !== null) {
      errors.push({
        name: `registrations[${i}].id`,
        value: item.id ?? null,
        message: 'matches no stored registration of this merchant',
      });
    }
  }
  if (errors.length > 0 || 'errors' in money) return { kind: 'invalid', errors };

  // decide: whether the channel can take this checkout's payments at all, so the shopper is not
  // asked for account data that could only be refused
  const refused = creationRefusal(caller.channel, request);
  if (refused !== undefined) return { kind: 'refused', code: refused };

  // decide: a checkout with createRegistration=true and no paymentType only registers (the
  // request kind's rule made sure one of the two is there)
  const kind: CheckoutKind = request.paymentType === undefined ? 'registration' : 'payment';

  // record
  const now = deps.clock.now();
  const parameters = Object.fromEntries(Object.entries(request).filter(([name]) => !NEVER_KEPT.has(name)));
  const checkout: Checkout = {
    id: newCheckoutId(deps.nodeName),
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    kind,
    parameters,
    amount: money.amount,
    currency: request.currency ?? '',
    ...(request.shopperResultUrl === undefined ? {} : { shopperResultUrl: request.shopperResultUrl }),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHECKOUT_VALIDITY_MS),
    submittedAt: null,
    completedAt: null,
    statusFetchedAt: null,
    notifyDueAt: null,
    notifyAttempts: 0,
    notifiedAt: null,
  };
  await deps.store.insertCheckout(checkout);
  return { kind: 'checkout', checkout };
}

/**
 * testMode=EXTERNAL on a test channel without a connector (600.200.700: "not configured for the
 * requested transaction mode"), a paymentBrand the channel does not accept (600.200.201), a
 * currency it does not accept (600.200.500). A brand the gateway does not know is left to the
 * submission (600.200.100), as before.
 */
function creationRefusal(channel: Channel, request: RequestOf<'checkout'>): string | undefined {
  if (channel.mode === 'TEST' && request.testMode === 'EXTERNAL' && channel.settings.connector === undefined)
    return ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_MODE;
  const brand = request.paymentBrand;
  return channelRefusal(
    channel.settings,
    brand !== undefined && isKnownBrand(brand) ? brand : undefined,
    request.currency,
  );
}

// ---- GET /v1/checkouts/{id}/session ----------------------------------------------------------

/** A stored registration offered for one-click payment: what the widget shows, never the number. */
export interface OfferedRegistration {
  readonly id: string;
  readonly paymentBrand: string;
  readonly card?: Record<string, unknown>;
}

/**
 * What the widget needs to render the checkout: no credentials, no customer data, no card
 * numbers. The amount is the string the merchant sent ("92.00").
 */
export async function checkoutSession(
  deps: Pick<EngineDeps, 'store' | 'clock'>,
  checkout: Checkout,
  /** The checkout's channel: the brands it accepts, when it restricts them, for the widget to draw. */
  channel?: Pick<Channel, 'settings'>,
): Promise<Record<string, unknown>> {
  const accepted = channel?.settings.brands;
  const p = checkout.parameters as {
    amount?: string;
    paymentType?: string;
    registrations?: { id?: string }[];
  };
  const registrations: OfferedRegistration[] = [];
  for (const { id } of p.registrations ?? []) {
    if (id === undefined) continue;
    // Deleted since the checkout was created: no longer offered.
    const r = await deps.store.getRegistration(checkout.merchantId, id);
    if (r === undefined || r.deletedAt !== null) continue;
    // A brand the channel no longer accepts could only be refused.
    if (accepted !== undefined && !accepted.includes(r.paymentBrand)) continue;
    registrations.push({
      id: r.id,
      paymentBrand: r.paymentBrand,
      ...(r.card === undefined ? {} : { card: maskedCard(r.card) }),
    });
  }
  return {
    id: checkout.id,
    kind: checkout.kind,
    state: stateOf(checkout, deps.clock.now()),
    expiresAt: checkout.expiresAt.toISOString(),
    // A registration-only checkout without money shows none.
    ...(checkout.currency === ''
      ? {}
      : { amount: p.amount ?? fromMinor(checkout.amount, checkout.currency), currency: checkout.currency }),
    ...(p.paymentType === undefined ? {} : { paymentType: p.paymentType }),
    ...(checkout.shopperResultUrl === undefined ? {} : { shopperResultUrl: checkout.shopperResultUrl }),
    resourcePath: resourcePathOf(checkout),
    ...(accepted === undefined ? {} : { brands: [...accepted] }),
    registrations,
    // The latest attempt's result, so the widget can say how a flow elsewhere (3-D Secure, a
    // redirect method) ended: codes and descriptions only.
    ...(checkout.resultCode === undefined
      ? {}
      : { lastResult: { code: checkout.resultCode, description: describe(checkout.resultCode) ?? '' } }),
  };
}

// ---- POST /v1/checkouts/{id}/payment and /registration -----------------------------------------

/** What a checkout's submission recorded, and its status answers: a payment or a registration. */
export type CheckoutResult =
  | { readonly kind: 'payment'; readonly payment: Payment }
  | {
      readonly kind: 'registration';
      readonly registration: Registration;
      readonly code: string;
      readonly ndc: string;
    };

export type SubmissionOutcome =
  | CheckoutResult
  | { readonly kind: 'invalid'; readonly errors: ParameterError[] }
  /** Nothing was attempted: the checkout is closed or expired, or a stored registration is gone. */
  | { readonly kind: 'refused'; readonly code: string; readonly description?: string }
  | { readonly kind: 'not-found' };

type Submission = RequestOf<'checkoutPayment'>;

/**
 * The widget's submission to the checkout `checkoutId` at the path of `target`. Submissions to
 * one checkout run one at a time, across processes too (Store.exclusive), so two concurrent pay
 * clicks cannot both charge: the second sees the checkout completed by the first.
 */
export function submitCheckout(
  deps: EngineDeps,
  caller: Caller,
  checkoutId: string,
  target: CheckoutKind,
  submission: Submission,
  context: Pick<PaymentContext, 'baseUrl'> = {},
): Promise<SubmissionOutcome> {
  return deps.store.exclusive(`checkout:${checkoutId}`, async () => {
    // load, under the lock: a submission that waited sees what the one before it did
    let checkout = await deps.store.getCheckout(checkoutId);
    if (checkout === undefined || checkout.merchantId !== caller.merchantId || checkout.kind !== target) {
      return { kind: 'not-found' };
    }

    const now = deps.clock.now();
    const expired: SubmissionOutcome = {
      kind: 'refused',
      code: CheckoutCodes.NO_SESSION,
      description: `${NO_SESSION_DESCRIPTION}: the checkout expired 30 minutes after its creation`,
    };
    // An expired checkout takes no new attempt, so a refused submission must not end the pending
    // one either: the shopper may still complete it (it has 30 minutes of its own).
    if (hasPendingAttempt(checkout) && now.getTime() >= checkout.expiresAt.getTime()) return expired;

    // A pending attempt (the shopper left a 3-D Secure challenge or a redirect method, and chose
    // again) is cancelled first: spec, "closing a popup lets the shopper continue with another
    // brand". Unless it has just succeeded: then the checkout is paid.
    const pending = await cancelPendingAttempt(deps, checkout);
    if (pending !== undefined) checkout = pending;

    // decide whether it may be paid at all
    const state = stateOf(checkout, now);
    if (state === 'completed') {
      return {
        kind: 'refused',
        code: CheckoutCodes.CLOSED,
        description: `${describe(CheckoutCodes.CLOSED)}: this checkout is already paid; create a new checkout for another payment`,
      };
    }
    if (state === 'expired') return expired;

    // decide: the engine of the checkout's kind, on its parameters merged with the submission
    const outcome =
      checkout.kind === 'registration'
        ? await registerWith(deps, caller, checkout, submission)
        : await payWith(deps, caller, checkout, submission, { ...context, checkoutId: checkout.id });
    if (outcome.kind !== 'payment' && outcome.kind !== 'registration') return outcome;

    // record: an attempt was made (declined ones too: the pay button was clicked), and one that
    // succeeded or is pending completes the checkout; a declined one is its latest attempt
    await deps.store.recordCheckoutSubmission(checkout.id, now, new Date(now.getTime() + NOTIFY_AFTER_MS));
    if (outcome.kind === 'payment' && completes(outcome.payment.resultCode)) {
      await deps.store.completeCheckout(checkout.id, {
        at: now,
        resultCode: outcome.payment.resultCode,
        paymentId: outcome.payment.id,
      });
    } else if (outcome.kind === 'payment') {
      await deps.store.recordCheckoutAttempt(checkout.id, outcome.payment.id, outcome.payment.resultCode);
    } else if (outcome.kind === 'registration' && completes(outcome.code)) {
      await deps.store.completeCheckout(checkout.id, {
        at: now,
        resultCode: outcome.code,
        registrationId: outcome.registration.id,
      });
    }
    return outcome;
  });
}

/** Whether the checkout's latest attempt is a payment still pending (completed by it, for now). */
const hasPendingAttempt = (checkout: Checkout): boolean =>
  checkout.completedAt !== null && checkout.paymentId !== undefined && isPending(checkout.resultCode ?? '');

/**
 * The checkout as it is once its pending attempt, if any, is cancelled; undefined when it has
 * none. An attempt that ended meanwhile keeps its end: a success leaves the checkout paid.
 */
async function cancelPendingAttempt(deps: EngineDeps, checkout: Checkout): Promise<Checkout | undefined> {
  if (!hasPendingAttempt(checkout) || checkout.paymentId === undefined) return undefined;
  const session = await deps.store.getPaymentSessionOfPayment(checkout.paymentId);
  if (session === undefined) return undefined;
  const ended = await finishPending(deps, session.id, 'cancel');
  const final = ended.kind === 'not-found' ? undefined : ended.payment;
  if (final === undefined || isPending(final.resultCode)) return undefined;
  // finishPending settled the checkout; if another finisher won, it may not have yet.
  const settled = isSuccess(final.resultCode);
  if (ended.kind === 'ended' && !settled) {
    // Reopen it now, as that finisher will: otherwise this submission's payment could complete
    // nothing (the checkout still looks completed), and the late reopening would then leave a
    // paid checkout open to be paid again. Its late update, the same as this one, then matches
    // no row once this submission has recorded its own payment.
    await deps.store.settleCheckoutPayment(checkout.id, final.id, final.resultCode, deps.clock.now(), false);
  }
  return {
    ...checkout,
    resultCode: final.resultCode,
    completedAt: settled ? checkout.completedAt : null,
  };
}

/** A payment checkout: a new instrument through createPayment, or a one-click registration. */
async function payWith(
  deps: EngineDeps,
  caller: Caller,
  checkout: Checkout,
  submission: Submission,
  context: PaymentContext,
): Promise<SubmissionOutcome> {
  const base = paymentParameters(checkout);
  const sent = forwarded(submission);
  const overrides = (checkout.parameters.overridePaymentType ?? {}) as Record<string, string>;

  if (submission.registrationId !== undefined) {
    return payOneClick(deps, caller, checkout, submission.registrationId, base, sent, overrides);
  }

  const tree = mergeTrees(base, sent);
  const brand = brandOf(tree);
  if (brand !== undefined) {
    tree.paymentBrand = brand;
    // overridePaymentType: the brand the shopper chose pays with its own type.
    const type = overrides[brand];
    if (type !== undefined) tree.paymentType = type;
  }
  const request = validateRequest('payment', acceptedBy('payment', tree));
  if (!request.ok) return { kind: 'invalid', errors: request.errors };
  return createPayment(deps, caller, request.value, context);
}

/**
 * One-click: the widget sends `registrationId` (one the session offered) and maybe `card.cvv`;
 * the stored registration is charged through payWithRegistration, as POST
 * /v1/registrations/{id}/payments would.
 */
async function payOneClick(
  deps: EngineDeps,
  caller: Caller,
  checkout: Checkout,
  registrationId: string,
  base: FormTree,
  sent: FormTree,
  overrides: Readonly<Record<string, string>>,
): Promise<SubmissionOutcome> {
  const errors: ParameterError[] = [];
  const offered = ((checkout.parameters.registrations ?? []) as { id?: string }[]).map((r) => r.id);
  if (!offered.includes(registrationId)) {
    errors.push({
      name: 'registrationId',
      value: registrationId,
      message: 'is not one of the registrations this checkout offers',
    });
  }
  // The stored registration is the account: only what the shopper adds now may come along.
  for (const group of INSTRUMENT_GROUPS) {
    const value = sent[group];
    if (value === undefined || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [field, leaf] of Object.entries(value)) {
      if (group === 'card' && (field === 'cvv' || field === 'holder')) continue;
      errors.push({
        name: `${group}.${field}`,
        value: group === 'card' ? null : typeof leaf === 'string' ? leaf : null,
        message: 'cannot be combined with registrationId: the stored registration is the account',
      });
    }
  }
  if (errors.length > 0) return { kind: 'invalid', errors };

  const registration = await deps.store.getRegistration(caller.merchantId, registrationId);
  if (registration === undefined) return { kind: 'refused', code: ResultCodes.REGISTRATION_NOT_FOUND };
  const tree = mergeTrees(base, sent);
  // A card already stored is not stored again.
  delete tree.createRegistration;
  delete tree.paymentBrand;
  const type = overrides[registration.paymentBrand];
  if (type !== undefined) tree.paymentType = type;
  const request = validateRequest('registrationPayment', acceptedBy('registrationPayment', tree));
  if (!request.ok) return { kind: 'invalid', errors: request.errors };
  return payWithRegistration(deps, caller, registrationId, request.value, checkout.id);
}

/** A registration-only checkout: the details are checked and stored by createRegistration. */
async function registerWith(
  deps: EngineDeps,
  caller: Caller,
  checkout: Checkout,
  submission: Submission,
): Promise<SubmissionOutcome> {
  if (submission.registrationId !== undefined) {
    return {
      kind: 'invalid',
      errors: [
        {
          name: 'registrationId',
          value: submission.registrationId,
          message: 'is accepted only when paying a payment checkout',
        },
      ],
    };
  }
  const tree = mergeTrees(paymentParameters(checkout), forwarded(submission));
  const brand = brandOf(tree);
  if (brand !== undefined) tree.paymentBrand = brand;
  const request = validateRequest('registration', acceptedBy('registration', tree));
  if (!request.ok) return { kind: 'invalid', errors: request.errors };
  return createRegistration(deps, caller, request.value);
}

/** The checkout's parameters a payment or registration request is built from. */
function paymentParameters(checkout: Checkout): FormTree {
  const tree: FormTree = {};
  for (const [name, value] of Object.entries(checkout.parameters)) {
    if (!CHECKOUT_ONLY.has(name)) tree[name] = value as FormValue;
  }
  return tree;
}

/** Of the submission: what describes the payment. Credentials never; registrationId selects, it is not sent on. */
function forwarded(submission: Submission): FormTree {
  const tree: FormTree = {};
  for (const [name, value] of Object.entries(submission as FormTree)) {
    if (!NEVER_KEPT.has(name) && name !== 'registrationId') tree[name] = value;
  }
  return tree;
}

/**
 * The checkout's parameters with the submission laid over them, group by group: the shopper's
 * customer and billing fields complete (or correct) the merchant's, and SHOPPER_ custom
 * parameters join the merchant's. The submission cannot carry money, type or references (its
 * request kind has none), so the merchant's amount, currency and paymentType always stand.
 */
export function mergeTrees(base: FormTree, over: FormTree): FormTree {
  const out: FormTree = { ...base };
  for (const [name, value] of Object.entries(over)) {
    const under = out[name];
    out[name] = isGroup(under) && isGroup(value) ? mergeTrees(under, value) : value;
  }
  return out;
}

const isGroup = (v: FormValue | undefined): v is FormTree =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The top-level names a request kind accepts; the rest of a checkout's parameters does not apply to it. */
function acceptedBy(kind: RequestKind, tree: FormTree): FormTree {
  const fields = rootOf(kind).fields;
  return Object.fromEntries(Object.entries(tree).filter(([name]) => name in fields));
}

/** The brand sent, else detected from the card number (spec: brand detection in the widget). */
function brandOf(tree: FormTree): string | undefined {
  if (typeof tree.paymentBrand === 'string') return tree.paymentBrand;
  const card = tree.card;
  const number = isGroup(card) && typeof card.number === 'string' ? card.number : undefined;
  return number === undefined ? undefined : detectBrand(number);
}

// ---- GET /v1/checkouts/{id}/payment and /registration -----------------------------------------

export type CheckoutStatus =
  /** Not completed and still valid: HTTP 200, 000.200.000. */
  | { readonly kind: 'open' }
  /** Expired before completion, or read more than 30 minutes after it: HTTP 400, 200.300.404. */
  | { readonly kind: 'gone' }
  | CheckoutResult;

/**
 * The status the merchant reads. Every read is recorded: it cancels the pending shopperResultUrl
 * notification, whose only purpose is to make the merchant read the status.
 */
export async function checkoutStatus(
  deps: Pick<EngineDeps, 'store' | 'clock'>,
  checkout: Checkout,
): Promise<CheckoutStatus> {
  const now = deps.clock.now();
  await deps.store.recordCheckoutStatusFetched(checkout.id, now);
  if (checkout.completedAt === null) {
    if (stateOf(checkout, now) !== 'open') return { kind: 'gone' };
    // Declined, cancelled or timed out so far: the latest attempt, which the shopper may retry.
    const attempt =
      checkout.paymentId === undefined
        ? undefined
        : await deps.store.getPayment(checkout.merchantId, checkout.paymentId);
    return attempt === undefined ? { kind: 'open' } : { kind: 'payment', payment: attempt };
  }
  if (now.getTime() >= checkout.completedAt.getTime() + STATUS_READABLE_MS) return { kind: 'gone' };
  if (checkout.paymentId !== undefined) {
    const payment = await deps.store.getPayment(checkout.merchantId, checkout.paymentId);
    if (payment !== undefined) return { kind: 'payment', payment };
  }
  if (checkout.registrationId !== undefined) {
    const registration = await deps.store.getRegistration(checkout.merchantId, checkout.registrationId);
    if (registration !== undefined) {
      return {
        kind: 'registration',
        registration,
        code: checkout.resultCode ?? ResultCodes.SUCCESS_INTERNAL,
        ndc: newPaymentNdc(checkout.channelId),
      };
    }
  }
  return { kind: 'gone' };
}
