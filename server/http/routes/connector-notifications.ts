/**
 * The processors' notifications (DECISIONS, "Connectors and processors"; issue 33):
 * `POST /connectors/{kind}/notifications/{entityId}`, the address `gateway channel set` shows
 * once a connector is set. The raw body and headers go to the channel's connector's
 * `verifyNotification` (its own signature scheme: Adyen's HMAC, Stripe's Stripe-Signature):
 *
 * - not the processor's signature (800.900.300) → 401, nothing changes;
 * - verified → applied once per event (the processor's key, `notice.eventId`, recorded per
 *   channel in processor_events: server/storage/processor-events/) to the payment it names:
 *   server/connectors/notices/apply.ts (a pending payment ends, a modification fails late; one
 *   that came before its payment was written waits for it, applied by the sweep when it is), or to
 *   the registration it names whose answer was lost (server/connectors/notices/registration.ts);
 * - answered 200 with what the processor expects (`notice.acknowledgement`; Adyen's
 *   `[accepted]`), whether or not it changed anything (or waits), so the processor stops resending.
 *
 * No channel of this environment with a connector of that kind, or a kind that takes no
 * notifications: 404.
 */
import type { Context, Hono } from 'hono';
import { type Channel, type ConnectorSettings, environmentOf } from '../../../shared/engine/core/model';
import { ResultCodes } from '../../../shared/result-codes';
import { isNotSupported } from '../../connectors/kit/contract';
import { applyNotice } from '../../connectors/notices/apply';
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
    await applyNotice(deps, channel, answer);
    return c.body(answer.notice.acknowledgement ?? ACKNOWLEDGEMENTS[kind] ?? '', 200, {
      'content-type': 'text/plain; charset=utf-8',
    });
  });
}
