/**
 * Ask again (issue 32): an uncertain payment (its processor's answer lost, pending since) that the
 * gateway stopped asking about a week on (shared/engine/steps/inquiry.ts) is made due now, so the
 * pending-payments worker of the running gateway asks its processor once more, within its poll
 * interval, whichever process or face (the CLI on the store, the admin API) asked. The answer ends
 * it (the verdict and a PAYMENT UPDATED notification), or it is left pending and stopped again.
 * A payment still asked about is made due now as well (an operator need not wait for the next
 * daily inquiry). Audited as `payment.inquire`.
 */
import type { Payment } from '../../../shared/engine/core/model';
import { registrationAnswerOf } from '../../../shared/engine/core/processor';
import { ResultCodes } from '../../../shared/result-codes';
import type { BackofficeContext } from '../context';
import { notFound, refused } from '../errors';

export interface InquiryAgain {
  /** What the id names: an uncertain payment, or an uncertain registration (asked the same way). */
  readonly kind: 'payment' | 'registration';
  readonly paymentId: string;
  /** When the worker asks: now. */
  readonly dueAt: Date;
  /** Whether the gateway had stopped asking by itself. */
  readonly wasStopped: boolean;
}

export async function inquireAgain(
  ctx: BackofficeContext,
  merchantId: string,
  paymentId: string,
): Promise<InquiryAgain> {
  const payment: Payment | undefined = await ctx.store.getPayment(merchantId, paymentId);
  if (payment === undefined) return inquireRegistrationAgain(ctx, merchantId, paymentId);
  const session = await ctx.store.getPaymentSessionOfPayment(payment.id);
  if (
    session === undefined ||
    session.kind !== 'inquiry' ||
    session.finishedAt !== null ||
    payment.resultCode !== ResultCodes.PENDING
  )
    throw refused(
      `payment ${paymentId} is not uncertain: its result is ${payment.resultCode} (only a payment whose processor's answer was lost is asked about)`,
    );
  const dueAt = ctx.clock.now();
  await ctx.store.postponePaymentSession(session.id, dueAt);
  await ctx.audit('payment.inquire', payment.id, payment.merchantId);
  return { kind: 'payment', paymentId: payment.id, dueAt, wasStopped: session.dueAt === null };
}

/**
 * The same for an uncertain registration (its processor's answer lost, pending since): the id
 * of a registration is asked about as a payment's is. Audited as `registration.inquire`.
 */
async function inquireRegistrationAgain(
  ctx: BackofficeContext,
  merchantId: string,
  id: string,
): Promise<InquiryAgain> {
  const registration = await ctx.store.getRegistration(merchantId, id);
  if (registration === undefined) throw notFound('payment', id);
  const session = await ctx.store.getPaymentSessionOfPayment(registration.id);
  const { code } = registrationAnswerOf(registration);
  if (
    session === undefined ||
    session.kind !== 'inquiry' ||
    session.finishedAt !== null ||
    code !== ResultCodes.PENDING
  )
    throw refused(
      `registration ${id} is not uncertain: its result is ${code} (only a registration whose processor's answer was lost is asked about)`,
    );
  const dueAt = ctx.clock.now();
  await ctx.store.postponePaymentSession(session.id, dueAt);
  await ctx.audit('registration.inquire', registration.id, registration.merchantId);
  return { kind: 'registration', paymentId: registration.id, dueAt, wasStopped: session.dueAt === null };
}
