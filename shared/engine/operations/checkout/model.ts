/**
 * What every step of a checkout shares: its limits (30 and 29 minutes), its codes, its state
 * and the outcome a submission records.
 */

import {
  isPending,
  isSuccess,
  isSuccessReview,
  type KnownResultCode,
  ResultCodes,
} from '../../../result-codes';
import type { EngineDeps } from '../../core/deps';
import type { Failure } from '../../core/failure';
import type { Checkout, Payment, Registration } from '../../core/model';

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
export const completes = (code: string): boolean =>
  isSuccess(code) || isSuccessReview(code) || isPending(code);

/**
 * What an update or a submission answers when it did nothing: parameters at fault; a refusal
 * (the checkout is closed, expired or paid, or what it was asked cannot be done) with the code
 * and, where the catalogue's text would not say enough, a description; or no such checkout.
 */
export type CheckoutNotDone = Failure;

/** What a checkout's submission recorded, and its status answers: a payment or a registration. */
export type CheckoutResult =
  | { readonly kind: 'payment'; readonly payment: Payment }
  | {
      readonly kind: 'registration';
      readonly registration: Registration;
      readonly code: string;
      readonly ndc: string;
    };
