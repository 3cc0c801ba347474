/**
 * The end of a connector's pending payment (a session of kind `connector`, processor-pending.ts):
 * the shopper came back from the processor's page (its 3-D Secure challenge, its provider) to the
 * gateway's return address, or the payment's 30 minutes are over. Either way the processor is
 * asked for its verdict (Processor.finish: for opp, the upstream's payment read by its id), never
 * guessed from what the shopper's browser brought: a return address anyone can call decides
 * nothing by itself.
 *
 * - a final verdict ends the payment with it: its code (the mode's success, or the processor's
 *   refusal), avs/cvv, the processor's resultDetails, card details and 3-D Secure results;
 * - no verdict yet (the processor still pending, or not reached): the payment waits on for the
 *   shopper; at its timeout it ends as 100.396.103, as a simulated one does, unless the processor
 *   could not be asked or is still processing what the shopper did (the answer's `technical`):
 *   then it is asked again later (ASK_LATER), for a week, never a failure.
 */
import { isSuccess, ResultCodes } from '../../result-codes';
import type { Payment, SessionOutcome } from '../core/model';
import type { ChannelStore, Clock, PaymentStore, Processors, ShopperAction } from '../core/ports';
import { processorOfPayment, withProcessorDetails } from '../core/processor';

/** What processorVerdict needs: the payment's channel, its processor. */
export interface VerdictDeps {
  readonly clock: Clock;
  readonly processors: Processors;
  readonly store: Pick<ChannelStore, 'getChannel'> & Pick<PaymentStore, 'getPayment'>;
}

/**
 * At the payment's timeout, a verdict the processor does not have yet though the shopper is done
 * with it (it is still processing), or could not be asked for: the payment is asked about again
 * later (inquiry-schedule.ts), never timed out as if the shopper had left.
 */
export const ASK_LATER = 'ask later';

/**
 * The final code, outcome and details of a connector's pending payment; undefined: no verdict yet
 * (the payment waits on for its shopper); ASK_LATER (only at the timeout): see above.
 */
export async function processorVerdict(
  deps: VerdictDeps,
  payment: Payment,
  verdict: ShopperAction | 'timeout',
  returned: Readonly<Record<string, string>>,
  now: Date,
): Promise<
  | { readonly code: string; readonly outcome: SessionOutcome; readonly details: Record<string, unknown> }
  | typeof ASK_LATER
  | undefined
> {
  const { redirect: _redirect, result: _result, resultDetails: pending, ...kept } = payment.details;
  const channel = await deps.store.getChannel(payment.channelId);
  const processor = channel === undefined ? undefined : processorOfPayment(deps.processors, channel, payment);
  const decision =
    channel === undefined || processor?.finish === undefined
      ? undefined
      : await processor.finish({
          channel,
          payment,
          parameters: returned,
          now,
          ...(verdict === 'timeout' ? { abandoned: true as const } : {}),
        });
  if (decision === undefined || decision.code === ResultCodes.PENDING) {
    if (verdict !== 'timeout') return undefined;
    if (decision?.technical !== undefined) return ASK_LATER;
    return { code: ResultCodes.PENDING_TIMED_OUT, outcome: 'timedOut', details: kept };
  }
  const echoed = (kept.threeDSecure ?? {}) as Record<string, unknown>;
  const details = withProcessorDetails(
    {
      ...kept,
      ...(decision.threeDSecure === undefined
        ? {}
        : { threeDSecure: { ...echoed, ...decision.threeDSecure } }),
      ...(Object.keys(decision.result).length === 0 ? {} : { result: decision.result }),
      // the reference the processor gave when it answered pending stays, beside its final word
      resultDetails: { ...((pending ?? {}) as Record<string, string>), ...decision.resultDetails },
    },
    decision,
  );
  return { code: decision.code, outcome: isSuccess(decision.code) ? 'approved' : 'failed', details };
}
