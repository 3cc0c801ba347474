/**
 * A success a processor tells after the gateway ended the payment as a failure (issue 32/33,
 * "nothing charged that should not be"): an Adyen redirect payment (iDEAL …) timed out here
 * (100.396.103) that the shopper still completes at the bank, then Adyen's verified AUTHORISATION
 * success. Adyen cannot be told to drop a waiting payment (Stripe's abandoned ones are cancelled
 * at Stripe before the timeout: ../stripe/modifications.ts), so the processor would keep money
 * the merchant was told was never taken. The gateway gives it back at the processor: a reversal
 * (RV: Adyen cancels an authorisation or refunds a captured payment) of the processor's id the
 * notification names, through the payment's own processor.
 *
 * Once, and not lost: the reversal is sent before the event is recorded, under a reference that
 * is the same on every try (the processor's idempotency key), so a copy arriving at the same time
 * in another process, or the processor's resend after a crash here (nothing was acknowledged),
 * sends the same reversal again and the processor drops the repeat; a copy after the record is
 * `seen` (apply.ts) and sends nothing. The
 * gateway's payment stays as the merchant was told: a second truth would be worse than a
 * refused late charge. A warn line says what was done; an error line when the reversal itself
 * failed (the money is still at the processor: an operator must act).
 */
import type { Channel, Payment } from '../../../shared/engine/core/model';
import type { Clock, Decision, Processors } from '../../../shared/engine/core/ports';
import { connectorIdOf, processorOfPayment } from '../../../shared/engine/core/processor';
import { isPending, isSuccess } from '../../../shared/result-codes';
import type { Logger } from '../../security/logger';
import type { GatewayStore } from '../../storage/kysely-store';
import type { NotificationNotice } from '../kit/contract';

/** apply.ts's NoticeDeps, as much as this needs (its own: apply.ts imports this file). */
export interface LateSuccessDeps {
  readonly store: Pick<GatewayStore, 'recordProcessorEvent'>;
  readonly clock: Clock;
  readonly processors: Processors;
  readonly logger?: Logger;
}

/** `seen`: a copy of an event already recorded; `reversed`: given back at the processor now. */
export type LateSuccessOutcome = 'seen' | 'unchanged' | 'reversed';

/** The initial payments a processor can succeed late: what it may hold money for. */
const INITIAL = new Set(['DB', 'PA']);

/**
 * Whether `told` is a success of an initial payment the gateway has as final and not successful:
 * the processor holds money (or an authorisation) the merchant was told failed.
 */
export function isLateSuccess(payment: Payment, told: Decision): boolean {
  return (
    INITIAL.has(payment.paymentType) &&
    isSuccess(told.code) &&
    !isSuccess(payment.resultCode) &&
    !isPending(payment.resultCode)
  );
}

/**
 * Reverses the payment at its processor, then records the event (see above). The processor's id
 * is the notification's (a timed-out payment kept none of the pending answer's resultDetails),
 * else the payment's own.
 */
export async function reverseLateSuccess(
  deps: LateSuccessDeps,
  channel: Channel,
  payment: Payment,
  notice: NotificationNotice,
): Promise<LateSuccessOutcome> {
  const at = deps.clock.now();
  const outcome = await reverse(deps, channel, payment, notice, at);
  const recorded = await deps.store.recordProcessorEvent({
    channelId: channel.id,
    eventId: notice.eventId,
    paymentId: payment.id,
    at,
  });
  return recorded === 'seen' ? 'seen' : outcome;
}

async function reverse(
  deps: LateSuccessDeps,
  channel: Channel,
  payment: Payment,
  notice: NotificationNotice,
  at: Date,
): Promise<LateSuccessOutcome> {
  const theirId = notice.theirId ?? connectorIdOf(payment);
  const about = { paymentId: payment.id, channelId: channel.id, eventId: notice.eventId, theirId };
  const processor = processorOfPayment(deps.processors, channel, payment);
  if (theirId === undefined || processor.kind !== 'connector') {
    deps.logger?.error(
      'a processor told a success of a payment the gateway ended as failed, and it cannot be reversed: an operator must give the money back',
      { ...about, resultCode: payment.resultCode },
    );
    return 'unchanged';
  }
  const resultDetails = (payment.details.resultDetails ?? {}) as Record<string, string>;
  const decision = await processor.reference({
    channel,
    paymentType: 'RV',
    // the kit hands the connector the referenced payment's ConnectorTxID1: the notification's id
    referenced: {
      ...payment,
      details: { ...payment.details, resultDetails: { ...resultDetails, ConnectorTxID1: theirId } },
    },
    request: { entityId: channel.id, paymentType: 'RV' },
    now: at,
    // no id of the gateway's (the reversal is no payment here), the same on every try: the
    // processor's idempotency key; its notification names no payment and is not applied
    paymentId: `${payment.id}-late-${theirId}`,
  });
  if (!isSuccess(decision.code)) {
    deps.logger?.error(
      'a processor told a success of a payment the gateway ended as failed, and its reversal failed: an operator must give the money back',
      { ...about, resultCode: payment.resultCode, reversal: decision.code, technical: decision.technical },
    );
    return 'unchanged';
  }
  deps.logger?.warn(
    'a processor told a success of a payment the gateway ended as failed: reversed at the processor, the payment kept as the merchant was told',
    { ...about, resultCode: payment.resultCode, reversal: decision.code },
  );
  return 'reversed';
}
