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
 *   growing with the payment's age (so doubling) from INQUIRY_FIRST_MS up to INQUIRY_MAX_WAIT_MS.
 *
 * The 30 minutes of a shopper's session do not apply: only the processor knows. One inquiry per
 * payment at a time across processes (the claim is a lease), and the end is the session store's
 * compare-and-set.
 */
import { isPending, isSuccess, ResultCodes } from '../../result-codes';
import type { Payment, PaymentSession } from '../core/model';
import type { Decision } from '../core/ports';
import { processorOfPayment, withProcessorDetails } from '../core/processor';
import {
  type Decided,
  type Finish,
  INQUIRY_FIRST_MS,
  type PendingDeps,
  type PendingPlan,
  recordEnd,
} from './asynchronous';

/** A processor that has no record of the payment this long after it was sent never received it. */
export const INQUIRY_NOT_FOUND_AFTER_MS = 60_000;
/** The longest wait between two inquiries of a processor that cannot be reached. */
export const INQUIRY_MAX_WAIT_MS = 15 * 60_000;
/** The failure of a payment the processor never received. */
export const NEVER_RECEIVED = '900.100.400';

/** Asks the processor about the uncertain payment of `session` (claimed), and ends it if it can. */
export async function inquireDue(deps: PendingDeps, session: PaymentSession): Promise<Finish | Later> {
  const payment = await deps.store.getPayment(session.merchantId, session.paymentId);
  const now = deps.clock.now();
  if (payment === undefined || payment.resultCode !== ResultCodes.PENDING) {
    // never written (a crash between session and payment) or ended already: nothing to ask
    if (payment === undefined) await deps.store.dropPaymentSession(session.id, now);
    return { kind: 'ended', payment };
  }
  const channel = await deps.store.getChannel(payment.channelId);
  const processor = channel === undefined ? undefined : processorOfPayment(deps.processors, channel, payment);
  const answer =
    channel === undefined || processor?.inquire === undefined
      ? undefined
      : await processor.inquire(payment, channel);
  const age = now.getTime() - payment.createdAt.getTime();
  const decided = answer === undefined ? undefined : decidedOf(answer, payment, age);
  if (decided === undefined) {
    await deps.store.postponePaymentSession(session.id, new Date(now.getTime() + waitAfter(age)));
    return LATER;
  }
  return recordEnd(deps, session, payment, session.plan as unknown as PendingPlan, decided, now);
}

/** Not decided yet: the session is due again later. */
export interface Later {
  readonly kind: 'later';
}
const LATER: Later = { kind: 'later' };

/** The wait before the next inquiry: the payment's age so far, within the bounds. */
const waitAfter = (age: number): number => Math.min(INQUIRY_MAX_WAIT_MS, Math.max(INQUIRY_FIRST_MS, age));

/** The payment's end from the processor's answer; undefined while there is none to draw. */
function decidedOf(answer: Decision, payment: Payment, age: number): Decided | undefined {
  if (answer.technical !== undefined || isPending(answer.code)) return undefined;
  const notFound = answer.code === ResultCodes.TRANSACTION_NOT_FOUND;
  if (notFound && age < INQUIRY_NOT_FOUND_AFTER_MS) return undefined;
  const code = notFound ? NEVER_RECEIVED : answer.code;
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
