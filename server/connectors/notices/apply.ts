/**
 * What a verified notification of a processor changes, once (DECISIONS, "Connectors and
 * processors"; issue 33), for the route that receives it (server/http/routes/connector-notifications.ts)
 * and for the sweep of the ones that came early (worker.ts). The payment it names (by the
 * gateway's id, `notice.gatewayId`, else by the processor's, `notice.theirId`, through the index
 * of ConnectorTxID1):
 *
 * - still pending with the processor: ends with the notification's verdict and PAYMENT UPDATED,
 *   through the one exactly-once end of a pending payment (the session's `recordEnd`);
 * - a capture, refund or reversal the processor accepted and now says failed: fails late
 *   (shared/engine/steps/late-failure.ts), the change, its PAYMENT UPDATED and the event's key in
 *   one transaction, so a copy after a restart or at another process changes nothing;
 * - an initial payment (DB, PA) the gateway ended as a failure (timed out: 100.396.103) that the
 *   processor now says succeeded (the shopper finished at the bank late): given back at the
 *   processor, once, the payment kept as the merchant was told (late-success.ts);
 * - anything else (a success already known): nothing changes, the event is recorded;
 * - not written yet, though the notice names it by the gateway's id (Adyen notifies while the
 *   gateway is still writing the capture it answered `received` for, or the payment whose answer
 *   it never got): the event waits in processor_events with its verified answer, and the sweep
 *   applies it when the payment appears, or gives it up after NOTICE_WAIT_MS;
 * - about no payment but a registration of the channel's (Adyen's AUTHORISATION or
 *   RECURRING_CONTRACT of a registration whose answer was lost): registration.ts ends it if it is
 *   still pending, once;
 * - about no payment of the gateway's (no id of ours: another system's on the same account): not
 *   recorded at all.
 *
 * The notification is acknowledged either way: a processor resends what is not acknowledged
 * (Adyen then marks the endpoint failing and queues what follows behind it), so waiting is the
 * gateway's, never the processor's.
 */
import { isGatewayId } from '../../../shared/engine/core/ids';
import type { Channel, Payment } from '../../../shared/engine/core/model';
import type { Clock, Decision } from '../../../shared/engine/core/ports';
import { connectorIdOf, withProcessorDetails } from '../../../shared/engine/core/processor';
import type { PendingDeps } from '../../../shared/engine/steps/asynchronous';
import { endWithVerdict } from '../../../shared/engine/steps/inquiry';
import { lateFailureOf } from '../../../shared/engine/steps/late-failure';
import { isPending, isSuccess, ResultCodes } from '../../../shared/result-codes';
import type { Logger } from '../../security/logger';
import type { GatewayStore } from '../../storage/kysely-store';
import type { ConnectorAnswer, NotificationNotice } from '../kit/contract';
import { decisionOf } from '../kit/processor';
import { isLateSuccess, reverseLateSuccess } from './late-success';
import { applyToRegistration, heldDecision, registrationOf } from './registration';

/**
 * How long an early notification waits for its payment: far past the longest the gateway takes
 * to write what a processor answered (the connector's timeout, GATEWAY_CONNECTOR_TIMEOUT_MS, 30 s
 * by default, then the write). A payment not there by then never will be (its process died
 * between the answer and the write; an id that only looks like ours).
 */
export const NOTICE_WAIT_MS = 10 * 60_000;

export interface NoticeDeps {
  readonly store: GatewayStore;
  readonly clock: Clock;
  readonly processors: PendingDeps['processors'];
  /** Where a late success given back (or not) is said; the route's and the sweep's. */
  readonly logger?: Logger;
}

/**
 * `waiting`: kept until its payment is written; `ignored`: about no payment of the gateway's;
 * `reversed`: a late success given back at the processor (late-success.ts).
 */
export type NoticeOutcome = 'applied' | 'unchanged' | 'seen' | 'waiting' | 'ignored' | 'reversed';

/** Applies a verified notification's `answer` (its `notice` set) to the channel's payment, once. */
export async function applyNotice(
  deps: NoticeDeps,
  channel: Channel,
  answer: ConnectorAnswer,
): Promise<NoticeOutcome> {
  const notice = answer.notice as NotificationNotice;
  if (await deps.store.processorEventSeen(channel.id, notice.eventId)) return 'seen';
  const payment = await paymentOf(deps, channel, notice);
  const at = deps.clock.now();
  const mode = channel.mode === 'LIVE' ? 'LIVE' : 'EXTERNAL';
  if (payment === undefined) {
    if (!isGatewayId(notice.gatewayId)) return 'ignored';
    const registration = await registrationOf(deps.store, channel, notice);
    if (registration !== undefined)
      return applyToRegistration(deps, channel, notice, registration, decisionOf(answer, mode));
    await deps.store.holdProcessorEvent({ channelId: channel.id, eventId: notice.eventId, at }, answer);
    return 'waiting';
  }
  const event = { channelId: channel.id, eventId: notice.eventId, paymentId: payment.id, at };
  const decision = decisionOf(answer, mode);
  if (payment.resultCode === ResultCodes.PENDING) {
    // the session's compare-and-set ends it once; the event is recorded after, for the next copy
    await endPending(deps, channel, payment, decision);
    return deps.store.recordProcessorEvent(event);
  }
  if (isLateSuccess(payment, decision)) return reverseLateSuccess(deps, channel, payment, notice);
  const reason: Record<string, string> = answer.description
    ? { ExtendedDescription: answer.description }
    : {};
  const failure = lateFailureOf(
    payment,
    { code: decision.code, resultDetails: { ...decision.resultDetails, ...reason } },
    at,
    deps.processors,
  );
  return deps.store.recordProcessorEvent(
    event,
    failure === undefined
      ? undefined
      : { paymentId: payment.id, from: payment.resultCode, final: failure.final, changes: failure.changes },
  );
}

/**
 * The channel's payment a notice is about: by the gateway's id when it names one of this channel
 * whose processor's id is the notice's (or not known yet), else by the processor's id
 * (payments_connector_tx: an index lookup, not a scan). A processor's modification carries no
 * id of the gateway's the processor kept: its own id is what finds it.
 */
async function paymentOf(
  deps: NoticeDeps,
  channel: Channel,
  notice: NotificationNotice,
): Promise<Payment | undefined> {
  const ours = isGatewayId(notice.gatewayId)
    ? await deps.store.getPayment(channel.merchantId, notice.gatewayId)
    : undefined;
  const theirs = ours === undefined ? undefined : connectorIdOf(ours);
  if (
    ours !== undefined &&
    ours.channelId === channel.id &&
    (notice.theirId === undefined || theirs === undefined || theirs === notice.theirId)
  )
    return ours;
  return notice.theirId === undefined
    ? undefined
    : deps.store.paymentByConnectorId(channel.id, notice.theirId);
}

/**
 * Ends the pending payment with the notification's verdict, if its session is still open, through
 * the inquiry's own end (steps/inquiry.ts endWithVerdict): a payment with createRegistration=true
 * keeps the card the processor stored along (the notice's registrationId: Adyen's tokenization
 * fields, Stripe's customer and payment_method) as its registration, on a routed channel tagged
 * with the route the payment reached (registration.ts heldDecision).
 */
async function endPending(
  deps: NoticeDeps,
  channel: Channel,
  payment: Payment,
  told: Decision,
): Promise<void> {
  if (isPending(told.code)) return;
  const session = await deps.store.getPaymentSessionOfPayment(payment.id);
  if (session === undefined || session.finishedAt !== null) return;
  const decision = await heldDecision(deps.store, channel, payment.id, told);
  // what the pending answer said gives way to the verdict's (as the inquiry's end does)
  const { result: _result, resultDetails: _details, redirect: _redirect, ...kept } = payment.details;
  await endWithVerdict(
    deps,
    session,
    payment,
    {
      code: decision.code,
      outcome: isSuccess(decision.code) ? 'approved' : 'failed',
      details: {
        ...withProcessorDetails(kept, decision),
        ...(Object.keys(decision.result).length === 0 ? {} : { result: decision.result }),
        resultDetails: decision.resultDetails,
      },
    },
    deps.clock.now(),
  );
}

/**
 * The sweep: each waiting event tried again (its payment may be written now), the ones older
 * than NOTICE_WAIT_MS given up first; how many it applied or recorded. Several processes may
 * sweep at once: recording takes the waiting row over once (processor-events/store.ts).
 */
export async function applyWaiting(deps: NoticeDeps, batch = 100): Promise<number> {
  await deps.store.expireProcessorEvents(new Date(deps.clock.now().getTime() - NOTICE_WAIT_MS));
  let done = 0;
  for (const waiting of await deps.store.waitingProcessorEvents(batch)) {
    const channel = await deps.store.getChannel(waiting.channelId);
    if (channel === undefined) continue;
    const outcome = await applyNotice(deps, channel, waiting.answer as unknown as ConnectorAnswer);
    if (outcome !== 'waiting') done += 1;
  }
  return done;
}
