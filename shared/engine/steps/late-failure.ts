/**
 * A late failure (DECISIONS, "Connectors and processors"): a modification the processor accepted
 * for later processing (Adyen's captures and refunds answer `received`; a Stripe refund may fail
 * days after it succeeded) was answered with the mode's success; the processor later reports that
 * it failed. The payment then takes the failure's code (the operation's own "cannot capture /
 * refund / reverse", 700.400.100/200/300: what the gateway answers for a modification that was not
 * done, so a merchant reads one code whether the processor refused at once or later), with the
 * processor's code in resultDetails.AcquirerResponse, and the merchant is told PAYMENT UPDATED.
 * The workflow counts only successful modifications (steps/workflow.ts), so the referenced
 * payment's capturable or refundable remainder is given back by the change itself.
 *
 * Pure: the store writes the result once (a compare-and-set on the success code it had).
 */
import { describe, isPending, isSuccess, ResultCodes } from '../../result-codes';
import { paymentChange } from '../answers/notifications';
import type { IssuerLookup } from '../answers/response';
import type { FinalState, Payment } from '../core/model';
import type { Change } from '../core/notification';
import type { Decision } from '../core/ports';
import { connectorIdOf } from '../core/processor';

/** The modifications a processor may accept now and fail later. */
const MODIFICATIONS: ReadonlySet<string> = new Set(['CP', 'RF', 'RV']);

/**
 * Whether a stored payment may still change after it is final: a connector's successful
 * modification (its processor's later notification may fail it). Nothing else ever changes
 * once it is not pending.
 */
export function mayFailLater(payment: Pick<Payment, 'paymentType' | 'resultCode' | 'details'>): boolean {
  return (
    MODIFICATIONS.has(payment.paymentType) &&
    isSuccess(payment.resultCode) &&
    connectorIdOf(payment as Payment) !== undefined
  );
}

export interface LateFailure {
  /** The payment as it is after the failure. */
  readonly payment: Payment;
  readonly final: Pick<FinalState, 'resultCode' | 'resultDescription' | 'details'>;
  /** PAYMENT UPDATED, with the failed payment. */
  readonly changes: readonly Change[];
}

/**
 * The failure the processor's `verdict` makes of `payment`; undefined when it makes none (not a
 * modification that may fail later, or a verdict that is no failure: a success, pending, uncertain).
 */
export function lateFailureOf(
  payment: Payment,
  verdict: Pick<Decision, 'code' | 'resultDetails'>,
  at: Date,
  issuers?: IssuerLookup,
): LateFailure | undefined {
  const code = verdict.code;
  if (!mayFailLater(payment) || isSuccess(code) || isPending(code) || code === ResultCodes.TIMEOUT_UNCERTAIN)
    return undefined;
  const before = (payment.details.resultDetails ?? {}) as Readonly<Record<string, unknown>>;
  // the processor's reference stays the one the modification got; its code is the failure's
  const details = { ...payment.details, resultDetails: { ...before, ...verdict.resultDetails } };
  const failed: Payment = {
    ...payment,
    resultCode: code,
    resultDescription: describe(code) ?? '',
    details,
  };
  return {
    payment: failed,
    final: { resultCode: failed.resultCode, resultDescription: failed.resultDescription, details },
    changes: [paymentChange(failed, at, issuers, 'UPDATED')],
  };
}
