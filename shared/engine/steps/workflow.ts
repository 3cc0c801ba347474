/**
 * The workflow rules of referencing requests (POST /v1/payments/{id}), as the decisions give
 * them: CP against PA; RV against PA or DB; RF against DB, CP, RB, RC up to the captured amount
 * in total; RB against DB. Partial captures run until the authorization is used up, at most
 * `numberOfCaptures` when the PA gave one; `sequence=FINAL` closes the authorization.
 *
 * Pure: given the referenced payment and what already references it, says whether the new
 * request may go ahead and for which amount, or which 700.x code refuses it.
 */
import type { Minor } from '../../money';
import { INITIAL_PAYMENT_TYPES } from '../../params/requests';
import { isPending, isSuccess, ResultCodes } from '../../result-codes';
import type { Payment } from '../core/model';

export type ReferencingType = 'CP' | 'RV' | 'RF' | 'RB';

export interface ReferencingRequest {
  readonly paymentType: ReferencingType;
  /** Minor units in the request's currency; null when not sent (a full reversal). */
  readonly amount: Minor | null;
  readonly currency?: string;
  readonly channelId: string;
  readonly sequence?: string;
}

export type WorkflowVerdict =
  | { readonly ok: true; readonly amount: Minor }
  | { readonly ok: false; readonly code: string };

/** Payment types whose money has been taken: refunds and rebills work against them. */
const CAPTURED_TYPES = new Set(['DB', 'CP', 'RB', 'RC', 'PA.CP']);

/** The types /v1/payments creates; a referencing request never has them. */
const INITIAL_TYPES: ReadonlySet<string> = new Set(INITIAL_PAYMENT_TYPES);

const succeeded = (p: Payment) => isSuccess(p.resultCode);
const sum = (payments: readonly Payment[]): number =>
  payments.reduce((total, p) => total + (p.amount ?? 0), 0);
const refuse = (code: string): WorkflowVerdict => ({ ok: false, code });
const allow = (amount: number): WorkflowVerdict => ({ ok: true, amount: amount as Minor });

/**
 * @param referenced the payment named in the path
 * @param children every payment that references it (any outcome)
 */
export function checkReference(
  referenced: Payment,
  children: readonly Payment[],
  request: ReferencingRequest,
): WorkflowVerdict {
  if (referenced.channelId !== request.channelId) return refuse(ResultCodes.CHANNEL_MISMATCH);
  if (isPending(referenced.resultCode)) return refuse(ResultCodes.REFERENCE_PENDING);
  if (!succeeded(referenced)) return refuse(ResultCodes.REFERENCE_REJECTED);
  if (request.currency !== undefined && request.currency !== referenced.currency) {
    return refuse(ResultCodes.REFERENCE_CURRENCY_MISMATCH);
  }
  if (request.amount !== null && request.amount <= 0) return refuse(ResultCodes.REFERENCE_INVALID_AMOUNT);

  // Initial payments linked by referenceUuid (reauthorizations, incremental authorizations) are
  // authorizations of their own, not captures, refunds or reversals of this one. A pending one
  // (its processor's answer lost, asked about: steps/processor-uncertain.ts) counts as done until
  // its verdict: a second capture cannot exceed the authorisation meanwhile; a failure releases it.
  const done = children.filter(
    (p) => (succeeded(p) || isPending(p.resultCode)) && !INITIAL_TYPES.has(p.paymentType),
  );
  const ofType = (type: string) => done.filter((p) => p.paymentType === type);
  const reversed = ofType('RV').length > 0;
  const original = referenced.amount ?? 0;

  switch (request.paymentType) {
    case 'CP': {
      if (referenced.paymentType !== 'PA') return refuse(ResultCodes.CAPTURE_NEEDS_PA);
      const captures = ofType('CP');
      const closed = captures.some((c) => c.details.sequence === 'FINAL');
      const limit = Number(referenced.details.numberOfCaptures ?? Number.POSITIVE_INFINITY);
      const remaining = original - sum(captures);
      const amount = request.amount ?? remaining;
      if (reversed || closed || captures.length >= limit || remaining <= 0 || amount > remaining) {
        return refuse(ResultCodes.CANNOT_CAPTURE);
      }
      return allow(amount);
    }
    case 'RV': {
      if (referenced.paymentType !== 'PA' && referenced.paymentType !== 'DB') {
        return refuse(ResultCodes.REVERSAL_NEEDS_CAPTURE_DEBIT_OR_PA);
      }
      const followed = done.some((p) => p.paymentType !== 'RV');
      const amount = request.amount ?? original;
      if (reversed || followed || amount > original) return refuse(ResultCodes.CANNOT_REVERSE);
      return allow(amount);
    }
    case 'RF': {
      if (!CAPTURED_TYPES.has(referenced.paymentType))
        return refuse(ResultCodes.REFUND_NEEDS_CAPTURE_OR_DEBIT);
      // money the shopper's bank took back (a CB not reversed by a CR) cannot be refunded again
      const remaining = original - sum(ofType('RF')) - sum(standingChargebacks(children));
      const amount = request.amount ?? remaining;
      if (reversed || amount > remaining || remaining <= 0) return refuse(ResultCodes.CANNOT_REFUND);
      return allow(amount);
    }
    case 'RB': {
      if (referenced.paymentType !== 'DB' || reversed)
        return refuse(ResultCodes.REFERENCE_INAPPROPRIATE_TYPE);
      if (request.amount === null) return refuse(ResultCodes.REFERENCE_INVALID_AMOUNT);
      return allow(request.amount);
    }
  }
}

/**
 * The answer to a referencing request whose id names no transaction the caller may see (unknown,
 * malformed, another merchant's), as the family gives it (decisions, Wire format): the workflow
 * code saying what the type needs (CP 700.400.510, RV 700.400.530), for a refund the family's
 * 600.200.500, and for a rebill, which has no "needs at least one successful transaction" code
 * of its own in the catalogue, "reference id not existing".
 */
export const UNKNOWN_REFERENCE_CODES: { readonly [type in ReferencingType]: string } = {
  CP: ResultCodes.CAPTURE_NEEDS_PA,
  RV: ResultCodes.REVERSAL_NEEDS_CAPTURE_DEBIT_OR_PA,
  RF: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_CURRENCY,
  RB: ResultCodes.REFERENCE_NOT_FOUND,
};

/** CBs among a payment's children that no CR (naming it as chargebackId) has reversed. */
export function standingChargebacks(children: readonly Payment[]): Payment[] {
  const reversed = new Set(children.filter((p) => p.paymentType === 'CR').map((p) => p.details.chargebackId));
  return children.filter((p) => p.paymentType === 'CB' && !reversed.has(p.id));
}
