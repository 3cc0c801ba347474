/**
 * An uncertain outcome, asked about (DECISIONS, "Connectors and processors": never a failure,
 * never sent again blindly). A payment whose connector sent it but lost the answer (a timeout, a
 * reset connection, a 5xx, an unreadable answer) was recorded pending (000.200.000) with an
 * `inquiry` session; when it falls due the pending-payments worker asks the processor by the
 * gateway's own payment id (Processor.inquire) and:
 *
 * - found with a verdict: the payment ends with it (the mode's success, or the decline, with the
 *   processor's details) and a PAYMENT UPDATED notification;
 * - not found once the processor had INQUIRY_NOT_FOUND_AFTER_MS: a failure, nothing charged:
 *   900.100.400 "timeout at connectors/acquirer side" (the request timed out on its way and the
 *   processor has no record of it: a communication error of the 900.100 group, not a decline);
 * - pending there, not found yet, or the processor unreachable: asked again later, the wait
 *   growing with the payment's age (so doubling) from INQUIRY_FIRST_MS up to hourly in its first
 *   day, then daily;
 * - still no verdict INQUIRY_STOP_AFTER_MS (inquiry-schedule.ts) after it was sent: the gateway stops asking. The payment
 *   stays pending (never a failure: it may have been processed), its session open but due never
 *   (`stopped`): the worker logs it at warn, `gateway_uncertain_payments{asking="stopped"}`
 *   counts it, and an operator asks again (`gateway payment inquire ID`, POST
 *   /admin/v1/payments/{id}/inquiry: server/backoffice/payments/inquire.ts), one more time each.
 *
 * A capture, refund, reversal, rebill or payment with a registration is asked about the same way,
 * by its own id (steps/processor-uncertain.ts); so is a registration whose answer was lost, by
 * the registration's id (inquireRegistrationDue below, ending with REGISTRATION UPDATED). A
 * payment with createRegistration=true keeps the registration its processor made along, whether
 * its inquiry or the processor's notification ends it (endWithVerdict below).
 *
 * The 30 minutes of a shopper's session do not apply: only the processor knows. One inquiry per
 * payment at a time across processes (the claim is a lease), and the end is the session store's
 * compare-and-set.
 */
import { INITIAL_PAYMENT_TYPES } from '../../params/requests';
import { isPending, isSuccess, ResultCodes } from '../../result-codes';
import { registrationChange } from '../answers/notifications';
import type { Payment, PaymentSession, Registration } from '../core/model';
import type { Decision } from '../core/ports';
import {
  CONNECTOR_REGISTRATION_ID,
  processorFor,
  processorOfPayment,
  REGISTRATION_ANSWER,
  registrationAnswerOf,
  withProcessorDetails,
} from '../core/processor';
import { withRegisteredThere } from './after-success';
import { type Decided, type Finish, type PendingDeps, type PendingPlan, recordEnd } from './asynchronous';
import { askAgain } from './inquiry-schedule';
import { isRegistrationInquiry, type RegistrationInquiryPlan } from './processor-uncertain';

/** A processor that has no record of the payment this long after it was sent never received it. */
export const INQUIRY_NOT_FOUND_AFTER_MS = 60_000;
const INITIAL_TYPES: ReadonlySet<string> = new Set(INITIAL_PAYMENT_TYPES);

/** The failure of a payment the processor never received. */
export const NEVER_RECEIVED = '900.100.400';

/** Asks the processor about the uncertain payment of `session` (claimed), and ends it if it can. */
export async function inquireDue(
  deps: PendingDeps,
  session: PaymentSession,
): Promise<Finish | Later | Stopped | RegistrationEnd> {
  if (isRegistrationInquiry(session)) return inquireRegistrationDue(deps, session);
  const payment = await deps.store.getPayment(session.merchantId, session.paymentId);
  const now = deps.clock.now();
  if (payment === undefined || payment.resultCode !== ResultCodes.PENDING) {
    // never written (a crash between session and payment) or ended already: nothing to ask
    if (payment === undefined) await deps.store.dropPaymentSession(session.id, now);
    return { kind: 'ended', payment };
  }
  const channel = await deps.store.getChannel(payment.channelId);
  const processor = channel === undefined ? undefined : processorOfPayment(deps.processors, channel, payment);
  // a capture, refund, reversal or rebill is asked about with the payment it modified
  const referenced =
    payment.referencedId === undefined || INITIAL_TYPES.has(payment.paymentType)
      ? undefined
      : await deps.store.getPayment(payment.merchantId, payment.referencedId);
  const answer =
    channel === undefined || processor?.inquire === undefined
      ? undefined
      : await processor.inquire(payment, channel, referenced);
  const age = now.getTime() - payment.createdAt.getTime();
  const decided = answer === undefined ? undefined : decidedOf(answer, payment, age);
  if (decided === undefined) return askLater(deps, session, payment, age);
  return endWithVerdict(deps, session, payment, decided, now);
}

/**
 * Ends a connector's pending payment with its processor's verdict (`decided`), once: the one end
 * of such a payment, for its inquiry (above) and for the processor's notification about it
 * (server/connectors/notices/apply.ts), so whichever comes first ends it (the session's
 * compare-and-set in recordEnd) and a payment with createRegistration=true keeps the card its
 * processor stored along either way (withRegisteredThere).
 */
export function endWithVerdict(
  deps: PendingDeps,
  session: PaymentSession,
  payment: Payment,
  decided: Decided,
  now: Date,
): Promise<Finish> {
  const plan = session.plan as unknown as PendingPlan;
  return recordEnd(deps, session, payment, withRegisteredThere(plan, decided), decided, now);
}

/** No verdict yet: due again after the wait of its age, or never once a week has passed (stopped). */
async function askLater(
  deps: PendingDeps,
  session: PaymentSession,
  uncertain: Uncertain,
  age: number,
): Promise<Later | Stopped> {
  // never a failure: a week on pending, due never, until an operator asks again (see above)
  const asked = await askAgain(deps.store, session.id, age, deps.clock.now());
  return asked ? LATER : { kind: 'stopped', payment: uncertain };
}

/** Not decided yet: the session is due again later. */
export interface Later {
  readonly kind: 'later';
}
const LATER: Later = { kind: 'later' };

/** What an uncertain payment or registration (paymentType RG) is logged as when it is no longer asked about. */
export type Uncertain = Pick<Payment, 'id' | 'merchantId' | 'paymentType' | 'createdAt'>;

/** No verdict a week on: the gateway no longer asks by itself (the payment stays pending). */
export interface Stopped {
  readonly kind: 'stopped';
  readonly payment: Uncertain;
}

/** An uncertain registration ended by its inquiry (`finished`), or ended already, or gone. */
export interface RegistrationEnd {
  readonly kind: 'finished' | 'ended';
  readonly registration: Registration | undefined;
}

/** The payment's end from the processor's answer; undefined while there is none to draw. */
function decidedOf(answer: Decision, payment: Payment, age: number): Decided | undefined {
  const code = finalCodeOf(answer, age);
  if (code === undefined) return undefined;
  const notFound = answer.code === ResultCodes.TRANSACTION_NOT_FOUND;
  // What the pending answer said (result, resultDetails) gives way to the verdict's.
  const { result: _result, resultDetails: _details, ...kept } = payment.details;
  const verdict: Pick<Decision, 'result' | 'resultDetails' | 'card' | 'risk'> = notFound
    ? { result: {}, resultDetails: {} }
    : answer;
  return {
    code,
    outcome: isSuccess(code) ? 'approved' : 'failed',
    details: {
      ...withProcessorDetails(kept, verdict),
      ...(Object.keys(verdict.result).length === 0 ? {} : { result: verdict.result }),
      ...(Object.keys(verdict.resultDetails).length === 0 ? {} : { resultDetails: verdict.resultDetails }),
    },
  };
}

/**
 * An uncertain registration (steps/processor-uncertain.ts pendRegistrationForInquiry), asked of its
 * processor by the gateway's own registration id (Processor.inquireRegistration) on the payments'
 * schedule: found made, it becomes usable with the processor's id of it (a routed one's tagged
 * with its route); found refused, it answers the processor's code; not found once the processor
 * had INQUIRY_NOT_FOUND_AFTER_MS, 900.100.400 (never received); either way a REGISTRATION UPDATED
 * notification. No verdict: asked again later, and no longer a week on (pending, never a failure).
 * A processor that cannot be asked (Adyen's: no search by reference) leaves it so until then, or
 * until its notification ends it (endUncertainRegistration below, the same end).
 */
async function inquireRegistrationDue(
  deps: PendingDeps,
  session: PaymentSession,
): Promise<Later | Stopped | RegistrationEnd> {
  const registration = await deps.store.getRegistration(session.merchantId, session.paymentId);
  const now = deps.clock.now();
  if (registration === undefined || !isPending(registrationAnswerOf(registration).code)) {
    await deps.store.dropPaymentSession(session.id, now);
    return { kind: 'ended', registration };
  }
  const channel = await deps.store.getChannel(registration.channelId);
  const plan = session.plan as unknown as RegistrationInquiryPlan;
  const processor = channel === undefined ? undefined : processorFor(deps.processors, channel, plan.testMode);
  const answer =
    channel === undefined || processor?.inquireRegistration === undefined
      ? undefined
      : await processor.inquireRegistration(registration, channel);
  const age = now.getTime() - registration.createdAt.getTime();
  const code = answer === undefined ? undefined : finalCodeOf(answer, age);
  if (code === undefined || answer === undefined) {
    const { id, merchantId, createdAt } = registration;
    return askLater(deps, session, { id, merchantId, createdAt, paymentType: 'RG' }, age);
  }
  return endUncertainRegistration(
    deps,
    session,
    registration,
    { code, theirs: answer.resultDetails.ConnectorRegistrationID },
    now,
  );
}

/**
 * Ends an uncertain registration with its processor's verdict, once: `code` final (the mode's
 * success or the processor's refusal, the registration then never made), `theirs` its id there,
 * kept when it was made. The one end of an uncertain registration, for its inquiry (above) and for
 * a processor's notification about it (server/connectors/notices/): the session's compare-and-set,
 * the registration's final details and its REGISTRATION UPDATED in one transaction, so whichever
 * comes first ends it and the other changes nothing.
 */
export async function endUncertainRegistration(
  deps: { readonly store: Pick<PendingDeps['store'], 'finishRegistrationSession' | 'getRegistration'> },
  session: Pick<PaymentSession, 'id' | 'merchantId' | 'paymentId'>,
  registration: Registration,
  verdict: { readonly code: string; readonly theirs?: unknown },
  now: Date,
): Promise<RegistrationEnd> {
  const { code } = verdict;
  const theirs = isSuccess(code) ? verdict.theirs : undefined;
  const kept = registration.details[REGISTRATION_ANSWER] as Record<string, unknown> | undefined;
  const ended: Registration = {
    ...registration,
    details: {
      ...registration.details,
      ...(theirs === undefined ? {} : { [CONNECTOR_REGISTRATION_ID]: theirs }),
      [REGISTRATION_ANSWER]: { ...kept, code },
    },
  };
  const won = await deps.store.finishRegistrationSession(session.id, now, ended, [
    registrationChange(ended, 'UPDATED', now),
  ]);
  return won
    ? { kind: 'finished', registration: ended }
    : {
        kind: 'ended',
        registration: await deps.store.getRegistration(session.merchantId, session.paymentId),
      };
}

/**
 * The final code a payment's or registration's inquiry draws from the processor's answer: its
 * own, or NEVER_RECEIVED when the processor has had time to know it and does not; undefined while
 * there is none to draw.
 */
function finalCodeOf(answer: Decision, age: number): string | undefined {
  if (answer.technical !== undefined || isPending(answer.code)) return undefined;
  const notFound = answer.code === ResultCodes.TRANSACTION_NOT_FOUND;
  if (notFound && age < INQUIRY_NOT_FOUND_AFTER_MS) return undefined;
  return notFound ? NEVER_RECEIVED : answer.code;
}
