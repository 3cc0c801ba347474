/**
 * The processors' notifications (DECISIONS, "Connectors and processors"; issue 33):
 * `POST /connectors/{kind}/notifications/{entityId}`, the address `gateway channel set` shows
 * once a connector is set. The raw body and headers go to the channel's connector's
 * `verifyNotification` (its own signature scheme: Adyen's HMAC, Stripe's Stripe-Signature):
 *
 * - not the processor's signature (800.900.300) → 401, nothing changes;
 * - verified → the payment it names (by the gateway's id, `notice.gatewayId`), when it is still
 *   pending with the processor, ends with the notification's verdict and PAYMENT UPDATED, through
 *   the one exactly-once end of a pending payment (the session's `recordEnd`): the same
 *   notification again, or after the shopper's return or the inquiry ended it, changes nothing;
 * - answered 200 with what the processor expects (`notice.acknowledgement`; Adyen's
 *   `[accepted]`), whether or not it changed anything, so the processor stops resending.
 *
 * No channel of this environment with a connector of that kind, or a kind that takes no
 * notifications: 404.
 */
import type { Context, Hono } from 'hono';
import { type Channel, type ConnectorSettings, environmentOf } from '../../../shared/engine/core/model';
import { withProcessorDetails } from '../../../shared/engine/core/processor';
import { type PendingPlan, recordEnd } from '../../../shared/engine/steps/asynchronous';
import { isPending, isSuccess, ResultCodes } from '../../../shared/result-codes';
import { type ConnectorAnswer, isNotSupported } from '../../connectors/kit/contract';
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
    await applied(deps, channel, answer);
    return c.body(answer.notice.acknowledgement ?? ACKNOWLEDGEMENTS[kind] ?? '', 200, {
      'content-type': 'text/plain; charset=utf-8',
    });
  });
}

/**
 * Ends the payment the notification names with its verdict, if that payment is still pending
 * with an open session; true when this notification changed it.
 */
async function applied(deps: RouteDeps, channel: Channel, answer: ConnectorAnswer): Promise<boolean> {
  const id = answer.notice?.gatewayId;
  if (id === undefined || !ID.test(id)) return false;
  const payment = await deps.store.getPayment(channel.merchantId, id);
  if (payment === undefined || payment.channelId !== channel.id || payment.resultCode !== ResultCodes.PENDING)
    return false;
  const session = await deps.store.getPaymentSessionOfPayment(payment.id);
  if (session === undefined || session.finishedAt !== null) return false;
  const decision = decisionOf(answer, channel.mode === 'LIVE' ? 'LIVE' : 'EXTERNAL');
  if (isPending(decision.code)) return false;
  // what the pending answer said gives way to the verdict's (as the inquiry's end does)
  const { result: _result, resultDetails: _details, redirect: _redirect, ...kept } = payment.details;
  const ended = await recordEnd(
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
  return ended.kind === 'finished';
}
