/**
 * GET /v1/checkouts/{id}/payment and /registration: the status the merchant reads.
 */

import { ResultCodes } from '../../../result-codes';
import type { EngineDeps } from '../../core/deps';
import type { Checkout } from '../../core/model';
import { registrationAnswerOf } from '../../core/processor';
import { type CheckoutResult, STATUS_READABLE_MS, stateOf } from './model';

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
        // a registration pending at its processor (its answer lost) ends by its inquiry: its own answer then
        code:
          checkout.resultCode === ResultCodes.PENDING
            ? registrationAnswerOf(registration).code
            : (checkout.resultCode ?? ResultCodes.SUCCESS_INTERNAL),
        ndc: checkout.id,
      };
    }
  }
  return { kind: 'gone' };
}
