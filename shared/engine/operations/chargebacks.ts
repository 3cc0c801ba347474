/**
 * Chargebacks, a back-office operation (spec: "chargeback back-office operations"): the acquirer
 * tells that the shopper's bank took money back. A CB is booked against a debit, capture or
 * rebill (DB, CP, RB) that succeeded, with the acquirer's reason as its result code
 * (`chargebackResultCode`, 000.100.2 and two digits); a CR reverses one CB (the merchant won the
 * dispute) and names it as `chargebackId`. Both reference the payment charged back, so the query
 * API, linked transactions and webhooks show them with it, and its notifications stay in order.
 *
 * Reached through the admin API, the CLI and the acquirer simulator, never by a merchant's token.
 */
import { fromMinor, type Minor } from '../../money';
import { describe, isSuccess, ResultCodes } from '../../result-codes';
import { readAmount } from '../core/amounts';
import type { EngineDeps as AllDeps } from '../core/deps';
import { type Invalid, NOT_FOUND, type NotFound, type Refused, refused } from '../core/failure';
import type { Payment } from '../core/model';
import { paymentRecord } from '../core/record';
import { type RecordDeps, recordPayment } from '../steps/record';
import { standingChargebacks } from '../steps/workflow';

/**
 * A chargeback needs only the store and the clock, and the issuer lookup its notification's card
 * fields come from (the processors) where the caller has it.
 */
type EngineDeps = Pick<AllDeps, 'store' | 'clock'> & Pick<RecordDeps, 'processors'>;

/** The chargeback reason codes (spec, Chargeback and query parameters). */
export const CHARGEBACK_RESULT_CODE = /^000\.100\.2[0-9]{2}$/;
/** Without a reason from the acquirer: "Reason not Specified". */
export const DEFAULT_CHARGEBACK_CODE = '000.100.200';
const CHARGEBACKABLE = new Set(['DB', 'CP', 'RB']);

export interface ChargebackRequest {
  /** A decimal amount in the payment's currency; what is not yet charged back when absent. */
  readonly amount?: string;
  readonly chargebackResultCode?: string;
}

export type ChargebackOutcome =
  | { readonly kind: 'booked'; readonly payment: Payment }
  | NotFound
  | Invalid
  /** Always with its description: the code's and why (the back office shows it). */
  | (Refused & { readonly description: string });

const refuse = (code: string, why: string): ChargebackOutcome => ({
  ...refused(code),
  description: `${describe(code) ?? code}: ${why}`,
});

const sum = (payments: readonly Payment[]) => payments.reduce((total, p) => total + (p.amount ?? 0), 0);

const childrenOf = (deps: EngineDeps, payment: Payment) =>
  deps.store.listReferencing(payment.merchantId, payment.id);

export async function bookChargeback(
  deps: EngineDeps,
  merchantId: string,
  paymentId: string,
  request: ChargebackRequest,
): Promise<ChargebackOutcome> {
  const code = request.chargebackResultCode ?? DEFAULT_CHARGEBACK_CODE;
  if (!CHARGEBACK_RESULT_CODE.test(code))
    return refuse(
      ResultCodes.INVALID_PARAMETER,
      'chargebackResultCode must be 000.100.2 followed by two digits',
    );
  // Serialised with captures, refunds and other chargebacks of the same payment.
  return deps.store.exclusive(`payment:${paymentId}`, async () => {
    const original = await deps.store.getPayment(merchantId, paymentId);
    if (original === undefined) return NOT_FOUND;
    if (!CHARGEBACKABLE.has(original.paymentType))
      return refuse(
        ResultCodes.REFERENCE_INAPPROPRIATE_TYPE,
        'a chargeback is booked against a DB, CP or RB',
      );
    if (!isSuccess(original.resultCode) || original.amount === null || original.currency === undefined)
      return refuse(ResultCodes.REFERENCE_REJECTED, 'only a successful payment can be charged back');
    let asked: number | undefined;
    if (request.amount !== undefined) {
      const read = readAmount(request.amount, original.currency);
      if (read.kind === 'invalid') return read;
      asked = read.amount;
    }
    const remaining = original.amount - sum(standingChargebacks(await childrenOf(deps, original)));
    const amount = asked ?? remaining;
    if (amount <= 0 || amount > remaining)
      return refuse(
        ResultCodes.REFERENCE_INVALID_AMOUNT,
        `at most ${fromMinor(remaining as Minor, original.currency)} ${original.currency} can still be charged back`,
      );
    return { kind: 'booked', payment: await record(deps, original, 'CB', amount as Minor, code) };
  });
}

export async function reverseChargeback(
  deps: EngineDeps,
  merchantId: string,
  chargebackId: string,
): Promise<ChargebackOutcome> {
  const chargeback = await deps.store.getPayment(merchantId, chargebackId);
  if (chargeback === undefined) return NOT_FOUND;
  if (chargeback.paymentType !== 'CB' || chargeback.amount === null || chargeback.referencedId === undefined)
    return refuse(ResultCodes.REFERENCE_INAPPROPRIATE_TYPE, 'a chargeback reversal is booked against a CB');
  const { amount, referencedId } = chargeback;
  // Serialised with the other chargebacks of the payment charged back.
  return deps.store.exclusive(`payment:${referencedId}`, async () => {
    const original = await deps.store.getPayment(merchantId, referencedId);
    if (original === undefined) return NOT_FOUND;
    if (!standingChargebacks(await childrenOf(deps, original)).some((p) => p.id === chargeback.id))
      return refuse(ResultCodes.REFERENCE_ALREADY_PROCESSED, 'this chargeback has been reversed already');
    const code = chargeback.testMode === 'INTERNAL' ? ResultCodes.SUCCESS_INTERNAL : ResultCodes.SUCCESS_LIVE;
    return { kind: 'booked', payment: await record(deps, original, 'CR', amount, code, chargeback.id) };
  });
}

/** The CB or CR: referencing the payment charged back, on its channel, brand, card and currency. */
async function record(
  deps: EngineDeps,
  referenced: Payment,
  paymentType: 'CB' | 'CR',
  amount: Minor,
  code: string,
  /** The CB a CR reverses. */
  chargebackId?: string,
): Promise<Payment> {
  const channel = await deps.store.getChannel(referenced.channelId);
  if (channel === undefined)
    throw new Error(`channel ${referenced.channelId} of payment ${referenced.id} is missing`);
  const payment = paymentRecord({ merchantId: referenced.merchantId, channel }, deps.clock.now(), {
    paymentType,
    paymentBrand: referenced.paymentBrand,
    amount,
    currency: referenced.currency,
    code,
    referencedId: referenced.id,
    merchantTransactionId: referenced.merchantTransactionId,
    testMode: referenced.testMode,
    card: referenced.card,
    details: paymentType === 'CB' ? { chargebackResultCode: code } : { chargebackId },
  });
  await recordPayment(deps, payment);
  return payment;
}
