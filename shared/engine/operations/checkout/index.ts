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
 * - updated by the merchant's server while open (POST /v1/checkouts/{id}, update.ts): a group
 *   sent replaces the stored one whole; the widget's session and the payment then show the new terms;
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

export { type CheckoutCreation, createCheckout } from './create';
export {
  CHECKOUT_VALIDITY_MS,
  CheckoutCodes,
  type CheckoutDeps,
  type CheckoutResult,
  type CheckoutState,
  NO_SESSION_DESCRIPTION,
  NOTIFY_AFTER_MS,
  resourcePathOf,
  STATUS_READABLE_MS,
  stateOf,
} from './model';
export { mergeTrees } from './parameters';
export { checkoutSession } from './session';
export { type CheckoutStatus, checkoutStatus } from './status';
export type { OfferedRegistration } from './stored-cards';
export { type SubmissionOutcome, submitCheckout } from './submission';
export { type CheckoutUpdate, updateCheckout } from './update';
