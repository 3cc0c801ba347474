/**
 * The processors' notifications (DECISIONS, "Connectors and processors"; issue 33):
 * `POST /connectors/{kind}/notifications/{entityId}`, the address `gateway channel set` shows
 * once a connector is set. The raw body and headers go to the channel's connector's
 * `verifyNotification` (its own signature scheme: Adyen's HMAC, Stripe's Stripe-Signature):
 *
 * - not the processor's signature (800.900.300) → 401, nothing changes;
 * - verified → once per event (the processor's key, `notice.eventId`, recorded per channel in
 *   processor_events: server/storage/processor-events/), the payment it names (by the gateway's
 *   id, `notice.gatewayId`, else by the processor's, `notice.theirId`, through the index of
 *   ConnectorTxID1):
 *   - still pending with the processor: ends with the notification's verdict and PAYMENT UPDATED,
 *     through the one exactly-once end of a pending payment (the session's `recordEnd`);
 *   - a capture, refund or reversal the processor accepted and now says failed: fails late
 *     (shared/engine/steps/late-failure.ts), the change, its PAYMENT UPDATED and the event's key
 *     in one transaction, so a copy after a restart or at another process changes nothing;
 *   - anything else (a success already known, another system's payment): nothing changes;
 * - answered 200 with what the processor expects (`notice.acknowledgement`; Adyen's
 *   `[accepted]`), whether or not it changed anything, so the processor stops resending.
 *
 * No channel of this environment with a connector of that kind, or a kind that takes no
 * notifications: 404.
 */
import type { Context, Hono } from 'hono';
import {
  type Channel,
  type ConnectorSettings,
  environmentOf,
  type Payment,
} from '../../../shared/engine/core/model';
import type { Decision } from '../../../shared/engine/core/ports';
import { connectorIdOf, withProcessorDetails } from '../../../shared/engine/core/processor';
import { type PendingPlan, recordEnd } from '../../../shared/engine/steps/asynchronous';
import { lateFailureOf } from '../../../shared/engine/steps/late-failure';
import { isPending, isSuccess, ResultCodes } from '../../../shared/result-codes';
import { type ConnectorAnswer, isNotSupported, type NotificationNotice } from '../../connectors/kit/contract';
import { decisionOf } from '../../connectors/kit/processor';
import type { GatewayProcessors } from '../../processors';
import type { GatewayEnv, RouteDeps } from '../context';

const ID = /^[0-9a-f]{32}$/;

/** What each kind's processor expects as the answer's body when the connector says nothing. */
const ACKNOWLEDGEMENTS: Readonly<Record<string, string>> = { adyen: '[accepted]' };

/** The channel's connector of `kind`: its single connector, or one of its routes'. */
function connectorOfKind(channel: Channel, kind: string): ConnectorSettings | undefined {
  const all = [
    ...(channel.settings.connector === undefined ? [] : [channel.settings.connector]),
    ...(channel.settings.routes ?? []).map((route) => route.connector),
  ];
  return all.find((connector) => (connector.kind ?? 'opp') === kind);
}

export function connectorNotificationRoutes(app: Hono<GatewayEnv>, deps: RouteDeps): void {
  const { env } = deps;
  const notFound = (c: Context, description: string) =>
    env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description });

  app.post('/connectors/:kind/notifications/:entityId', async (c) => {
    const kind = c.req.param('kind');
    const entityId = c.req.param('entityId');
    const channel = ID.test(entityId) ? await deps.store.getChannel(entityId) : undefined;
    const connector =
      channel === undefined || environmentOf(channel.mode) !== deps.environment
        ? undefined
        : connectorOfKind(channel, kind);
    const contract =
      connector === undefined
        ? undefined
        : (deps.processors as Partial<GatewayProcessors>).contractOf?.(connector);
    if (channel === undefined || contract === undefined)
      return notFound(c, 'no such connector on this channel');
    const body = await c.req.text();
    if (Buffer.byteLength(body) > deps.maxBodyBytes)
      return env.send(c, 413, { code: ResultCodes.INVALID_PARAMETER, description: 'body too large' });
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await contract.verifyNotification({ headers, body });
    if (isNotSupported(answer)) return notFound(c, `the ${kind} connector takes no notifications`);
    if (answer.code === ResultCodes.INVALID_AUTH || answer.notice === undefined)
      return env.send(c, 401, {
        code: ResultCodes.INVALID_AUTH,
        description: answer.description ?? 'the notification’s signature is not the processor’s',
      });
    await apply(deps, channel, answer);
    return c.body(answer.notice.acknowledgement ?? ACKNOWLEDGEMENTS[kind] ?? '', 200, {
      'content-type': 'text/plain; charset=utf-8',
    });
  });
}

/**
 * What a verified notification changes, once: nothing when its event was recorded before; else
 * the payment it names (by the gateway's id, else the processor's through its index), when it
 * is still pending, ends with the verdict; when it is a modification the processor accepted and
 * now says failed, it fails late (shared/engine/steps/late-failure.ts). The event is recorded by
 * its key, in the late failure's own transaction.
 */
async function apply(deps: RouteDeps, channel: Channel, answer: ConnectorAnswer): Promise<void> {
  const notice = answer.notice as NotificationNotice;
  if (await deps.store.processorEventSeen(channel.id, notice.eventId)) return;
  const payment = await paymentOf(deps, channel, notice);
  // about nothing of this channel's (another system's payment, or one not written yet): not recorded
  if (payment === undefined) return;
  const at = deps.clock.now();
  const event = { channelId: channel.id, eventId: notice.eventId, paymentId: payment.id, at };
  const decision = decisionOf(answer, channel.mode === 'LIVE' ? 'LIVE' : 'EXTERNAL');
  if (payment.resultCode === ResultCodes.PENDING) {
    // the session's compare-and-set ends it once; the event is recorded after, for the next copy
    await endPending(deps, payment, decision);
    await deps.store.recordProcessorEvent(event);
    return;
  }
  const reason: Record<string, string> = answer.description
    ? { ExtendedDescription: answer.description }
    : {};
  const failure = lateFailureOf(
    payment,
    { code: decision.code, resultDetails: { ...decision.resultDetails, ...reason } },
    at,
    deps.processors,
  );
  await deps.store.recordProcessorEvent(
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
  deps: RouteDeps,
  channel: Channel,
  notice: NotificationNotice,
): Promise<Payment | undefined> {
  const ours =
    notice.gatewayId !== undefined && ID.test(notice.gatewayId)
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

/** Ends the pending payment with the notification's verdict, if its session is still open. */
async function endPending(deps: RouteDeps, payment: Payment, decision: Decision): Promise<void> {
  if (isPending(decision.code)) return;
  const session = await deps.store.getPaymentSessionOfPayment(payment.id);
  if (session === undefined || session.finishedAt !== null) return;
  // what the pending answer said gives way to the verdict's (as the inquiry's end does)
  const { result: _result, resultDetails: _details, redirect: _redirect, ...kept } = payment.details;
  await recordEnd(
    deps,
    session,
    payment,
    session.plan as unknown as PendingPlan,
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
