/**
 * POST /v1/checkouts/{id}/payment and /registration: the widget's submission, one at a time per
 * checkout, made by the engines that already exist (createPayment, payWithRegistration,
 * createRegistration).
 */

import type { FormTree } from '../../../form/decode';
import { INSTRUMENT_GROUPS } from '../../../params/catalogue';
import type { ParameterError } from '../../../params/errors';
import { validateRequest } from '../../../params/requests';
import { describe, isPending, isSuccess } from '../../../result-codes';
import type { Caller, EngineDeps, PaymentContext } from '../../core/deps';
import { invalid, NOT_FOUND, refused } from '../../core/failure';
import type { Checkout, CheckoutKind } from '../../core/model';
import { finishPending } from '../../steps/asynchronous';
import { createPayment } from '../initial-payment';
import { createRegistration, payWithRegistration, usableRegistration } from '../registrations';
import {
  CheckoutCodes,
  type CheckoutNotDone,
  type CheckoutResult,
  completes,
  NO_SESSION_DESCRIPTION,
  NOTIFY_AFTER_MS,
  stateOf,
} from './model';
import { acceptedBy, brandOf, forwarded, mergeTrees, paymentParameters, type Submission } from './parameters';
import { storedCardCvvError } from './stored-cards';

/** Refused when nothing was attempted: the checkout is closed or expired, or a stored registration is gone. */
export type SubmissionOutcome = CheckoutResult | CheckoutNotDone;

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
      return NOT_FOUND;
    }

    const now = deps.clock.now();
    const expired = refused(
      CheckoutCodes.NO_SESSION,
      `${NO_SESSION_DESCRIPTION}: the checkout expired 30 minutes after its creation`,
    );
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
      return refused(
        CheckoutCodes.CLOSED,
        `${describe(CheckoutCodes.CLOSED)}: this checkout is already paid; create a new checkout for another payment`,
      );
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
  const sent = forwarded(submission);
  const base = paymentParameters(checkout, sent);
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
  if (!request.ok) return invalid(request.errors);
  return createPayment(deps, caller, request.value, context);
}

/**
 * One-click: the widget sends `registrationId` (one the session offered) and maybe `card.cvv`
 * (required where the channel asks for it: stored-cards.ts); the stored registration is charged
 * through payWithRegistration, as POST /v1/registrations/{id}/payments would.
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
  if (errors.length > 0) return invalid(errors);

  // One the checkout offered that cannot pay (deleted, still uncertain, never made): the refusal
  // POST /v1/registrations/{id}/payments answers, before the CVV or anything else is asked for.
  const usable = await usableRegistration(deps.store, caller.merchantId, registrationId);
  if (usable.kind === 'refused') return usable;
  const { registration } = usable;
  const tree = mergeTrees(base, sent);
  // A card already stored is not stored again.
  delete tree.createRegistration;
  delete tree.paymentBrand;
  const type = overrides[registration.paymentBrand];
  if (type !== undefined) tree.paymentType = type;
  // The channel may ask for the stored card's CVV: the shopper proves the card is at hand.
  const card = sent.card;
  const cvv = card !== undefined && typeof card === 'object' && !Array.isArray(card) ? card.cvv : undefined;
  const cvvError = storedCardCvvError(caller.channel, registration.paymentBrand, cvv);
  const request = validateRequest('registrationPayment', acceptedBy('registrationPayment', tree));
  if (cvvError !== undefined) {
    const others = request.ok ? [] : request.errors.filter((e) => e.name !== cvvError.name);
    return invalid([cvvError, ...others]);
  }
  if (!request.ok) return invalid(request.errors);
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
    return invalid([
      {
        name: 'registrationId',
        value: submission.registrationId,
        message: 'is accepted only when paying a payment checkout',
      },
    ]);
  }
  const sent = forwarded(submission);
  const tree = mergeTrees(paymentParameters(checkout, sent), sent);
  const brand = brandOf(tree);
  if (brand !== undefined) tree.paymentBrand = brand;
  const request = validateRequest('registration', acceptedBy('registration', tree));
  if (!request.ok) return invalid(request.errors);
  const outcome = await createRegistration(deps, caller, request.value);
  // a checkout's registration carries the checkout id as its ndc, as its payments do
  return outcome.kind === 'registration' ? { ...outcome, ndc: checkout.id } : outcome;
}
