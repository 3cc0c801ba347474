/**
 * A referencing request (POST /v1/payments/{id}): capture, reversal, refund or rebill of an
 * earlier payment. Load the referenced payment and what already references it, let the workflow
 * rules decide, record the outcome (refusals are recorded too: they are transactions the
 * merchant may look up), answer. An uncertain outcome at the connector is recorded pending and
 * asked about (steps/processor-uncertain.ts), as an initial payment's is.
 */

import type { RequestOf } from '../../params/requests';
import { ResultCodes } from '../../result-codes';
import { echoOf } from '../answers/echo';
import { readAmount } from '../core/amounts';
import type { Caller, EngineDeps, Outcome } from '../core/deps';
import { newId } from '../core/ids';
import type { Decision } from '../core/ports';
import { connectorIdOf, processorOfPayment } from '../core/processor';
import { paymentRecord } from '../core/record';
import { recordDecided } from '../steps/processor-uncertain';
import { checkReference, type ReferencingType, UNKNOWN_REFERENCE_CODES } from '../steps/workflow';

/** `unknown`: the id names no payment of the caller's; `code` is the family's answer for the type. */
export type ReferencingOutcome = Outcome | { readonly kind: 'unknown'; readonly code: string };

/** The refusal of a referencing request to an id that names no transaction the caller may see. */
export const unknownReference = (paymentType: string | undefined): { kind: 'unknown'; code: string } => ({
  kind: 'unknown',
  code: UNKNOWN_REFERENCE_CODES[paymentType as ReferencingType] ?? ResultCodes.REFERENCE_NOT_FOUND,
});

export async function referencePayment(
  deps: EngineDeps,
  caller: Caller,
  referencedId: string,
  request: RequestOf<'referencing'>,
): Promise<ReferencingOutcome> {
  const referenced = await deps.store.getPayment(caller.merchantId, referencedId);
  if (referenced === undefined) return unknownReference(request.paymentType);

  let amount = null;
  if (request.amount !== undefined && request.currency !== undefined) {
    const read = readAmount(request.amount, request.currency);
    if (read.kind === 'invalid') return read;
    amount = read.amount;
  }
  const paymentType = request.paymentType as ReferencingType;
  const children = await deps.store.listReferencing(caller.merchantId, referenced.id);
  const verdict = checkReference(referenced, children, {
    paymentType,
    amount,
    channelId: caller.channel.id,
    ...(request.currency === undefined ? {} : { currency: request.currency }),
    ...(request.sequence === undefined ? {} : { sequence: request.sequence }),
  });

  // decide: the processor that made the referenced payment (the simulator accepts what the
  // workflow allows; a connector asks its system, which knows the payment by its own id)
  let code: string = verdict.ok ? ResultCodes.SUCCESS_INTERNAL : verdict.code;
  let resultDetails: Record<string, string> = {};
  let decision: Decision | undefined;
  const paymentId = newId(); // first: a connector sends it as its reference, to inquire by it
  if (verdict.ok) {
    const processor = processorOfPayment(deps.processors, caller.channel, referenced);
    decision =
      processor.kind !== 'simulator' && connectorIdOf(referenced) === undefined
        ? undefined
        : await processor.reference({
            channel: caller.channel,
            paymentType,
            referenced,
            request,
            now: deps.clock.now(),
            paymentId,
          });
    code = decision === undefined ? ResultCodes.REFERENCE_NOT_FOUND : decision.code;
    resultDetails = decision?.resultDetails ?? {};
  }
  const now = deps.clock.now();
  const payment = paymentRecord(caller, now, {
    id: paymentId,
    paymentType,
    paymentBrand: referenced.paymentBrand,
    amount: verdict.ok ? verdict.amount : amount,
    currency: referenced.currency,
    code,
    referencedId: referenced.id,
    merchantTransactionId: request.merchantTransactionId ?? referenced.merchantTransactionId,
    descriptor: request.descriptor ?? referenced.descriptor,
    testMode: referenced.testMode,
    card: referenced.card,
    details: {
      ...echoOf(request),
      ...(request.sequence === undefined ? {} : { sequence: request.sequence }),
    },
    resultDetails,
  });
  // the processor's answer lost: pending until it is asked (steps/processor-uncertain.ts)
  return { kind: 'payment', payment: await recordDecided(deps, payment, decision) };
}
