/**
 * A payment its connector sent but whose answer was lost (a timeout, a reset connection, a 5xx,
 * an unreadable answer: Decision.technical `uncertain`), whatever the operation: an initial
 * payment, a capture, refund, reversal or rebill, a payment with a registration (DECISIONS,
 * "Connectors and processors": never a failure, never sent again blindly). It is recorded pending
 * (000.200.000) with an `inquiry` session, the session first as every pending payment's
 * (asynchronous.ts startPending), and inquiry.ts ends it with the processor's verdict and a
 * PAYMENT UPDATED notification. Until then a capture or refund counts against what remains of its
 * original (workflow.ts).
 *
 * A registration whose answer was lost (POST /v1/registrations, a registration checkout's) is the
 * same: recorded pending (its answer 000.200.000, not usable yet: a payment with it is refused
 * 100.150.201) with an `inquiry` session under its id, marked REGISTRATION_INQUIRY in the plan;
 * inquiry.ts ends it with a REGISTRATION UPDATED notification.
 *
 * It writes the session itself rather than through startPending (which also builds the shoppers'
 * redirects): the referencing and registration operations import this, and the import chain from
 * server/main.ts is a ratchet.
 */
import { newId } from '../core/ids';
import type { Payment, PaymentSession, Registration } from '../core/model';
import type { Decision, PaymentSessionStore, RegistrationStore } from '../core/ports';
import type { AfterSuccess } from './after-success';
import { type RecordDeps, recordPayment, recordRegistration } from './record';

/**
 * A connector's uncertain outcome is first asked about this long after it was sent: the
 * processor has finished with the request it may have received by then (inquiry.ts).
 */
export const INQUIRY_FIRST_MS = 5_000;

/** Whether the processor may have processed what it was sent, without the gateway knowing. */
export const isUncertain = (decision: Decision): boolean => decision.technical === 'uncertain';

/**
 * Records `payment` (decided as `decision`, uncertain: the kit answered it pending, 000.200.000)
 * pending until its inquiry; `afterSuccess`: what a success leaves (nothing for a modification).
 */
export async function pendForInquiry(
  deps: RecordDeps & { readonly store: Pick<PaymentSessionStore, 'insertPaymentSession'> },
  payment: Payment,
  decision: Decision,
  afterSuccess: AfterSuccess = {},
): Promise<Payment> {
  const since = payment.createdAt.getTime();
  const session: PaymentSession = {
    id: newId(),
    paymentId: payment.id,
    merchantId: payment.merchantId,
    kind: 'inquiry',
    // a checkout's payment settles its checkout when it ends (asynchronous.ts recordEnd)
    ...(payment.checkoutId === undefined ? {} : { checkoutId: payment.checkoutId }),
    plan: { brand: payment.paymentBrand ?? '', afterSuccess, authorization: decision },
    createdAt: payment.createdAt,
    // no clock ends an inquiry (only the processor's verdict); a session whose payment was never
    // written (a crash between the two writes) is dropped by its first inquiry
    expiresAt: new Date(since + INQUIRY_FIRST_MS),
    dueAt: new Date(since + INQUIRY_FIRST_MS),
    finishedAt: null,
  };
  await deps.store.insertPaymentSession(session);
  await recordPayment(deps, payment);
  return payment;
}

/** Records a payment its processor decided: pending with its inquiry when the answer was lost. */
export async function recordDecided(
  deps: RecordDeps & { readonly store: Pick<PaymentSessionStore, 'insertPaymentSession'> },
  payment: Payment,
  decision: Decision | undefined,
): Promise<Payment> {
  if (decision !== undefined && isUncertain(decision)) return pendForInquiry(deps, payment, decision);
  await recordPayment(deps, payment);
  return payment;
}

/** The plan of an uncertain registration's inquiry session: what it is, and the mode it was sent in. */
export const REGISTRATION_INQUIRY = 'registration';

export interface RegistrationInquiryPlan {
  readonly subject: typeof REGISTRATION_INQUIRY;
  /** The registration's test mode (EXTERNAL) or none (live): which processor is asked. */
  readonly testMode?: string;
}

/** Whether an inquiry session is of a registration (else of a payment). */
export const isRegistrationInquiry = (session: Pick<PaymentSession, 'plan'>): boolean =>
  session.plan.subject === REGISTRATION_INQUIRY;

/**
 * Records `registration` (its answer pending: the processor's was lost) with its inquiry
 * session, the session first; its REGISTRATION CREATED notification tells it pending.
 */
export async function pendRegistrationForInquiry(
  deps: {
    readonly store: Pick<PaymentSessionStore, 'insertPaymentSession'> &
      Pick<RegistrationStore, 'insertRegistration'>;
  },
  registration: Registration,
  decision: Decision,
): Promise<void> {
  const since = registration.createdAt.getTime();
  const plan: RegistrationInquiryPlan = {
    subject: REGISTRATION_INQUIRY,
    ...(decision.testMode === undefined ? {} : { testMode: decision.testMode }),
  };
  await deps.store.insertPaymentSession({
    id: newId(),
    paymentId: registration.id,
    merchantId: registration.merchantId,
    kind: 'inquiry',
    plan: { ...plan },
    createdAt: registration.createdAt,
    expiresAt: new Date(since + INQUIRY_FIRST_MS),
    dueAt: new Date(since + INQUIRY_FIRST_MS),
    finishedAt: null,
  });
  await recordRegistration(deps, registration);
}
