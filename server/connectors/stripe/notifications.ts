/**
 * Stripe's webhooks (docs.stripe.com/webhooks): an Event as JSON, signed in the `Stripe-Signature`
 * header (`t=<seconds>,v1=<HMAC-SHA256 of "t.payload" under the endpoint's whsec_ secret>`),
 * verified by the SDK's own `webhooks.constructEventAsync` (its timestamp tolerance included,
 * 300 s), so the gateway verifies exactly as Stripe's library does.
 *
 * What a verified event says, as the kit's answer: a `payment_intent.*` event is its
 * PaymentIntent's state (response.ts: succeeded, authorised, declined, canceled …), with the card
 * it set up for later (`setup_future_usage`, a payment registering along) as its registrationId;
 * `charge.refunded` a refund done; a refund's own events (`charge.refund.updated`,
 * `refund.failed`, …) its refund's state, named by the refund's id: a refund that fails after it
 * succeeded fails its RF late. Anything unverifiable (no secret configured, no or a wrong
 * signature, a stale timestamp, an unreadable body) is refused as 800.900.300 (invalid
 * authentication): never applied. `notice` names the event (Stripe's event id: the same event
 * sent again is the same notification, applied once) and the payment it is about.
 */
import type Stripe from 'stripe';
import { ResultCodes } from '../../../shared/result-codes';
import type { ConnectorAnswer, ProcessorNotification } from '../kit/contract';
import { withRegistrationAlong } from './payments';
import { GATEWAY_ID } from './request';
import { intentAnswer } from './response';

/** What a verified event tells, for the route that applies it (once). */
export interface StripeNotice {
  /** Stripe's event id (evt_…): its dedup key. */
  readonly eventId: string;
  /** payment_intent.succeeded, payment_intent.payment_failed, charge.refunded, … */
  readonly eventType: string;
  /** The PaymentIntent the event is about (the payment's ConnectorTxID1). */
  readonly theirId?: string;
  /** The gateway's id of the payment, from the PaymentIntent's metadata. */
  readonly gatewayId?: string;
}

export type StripeNotificationAnswer = ConnectorAnswer & { readonly notice?: StripeNotice };

const refused = (description: string): StripeNotificationAnswer => ({
  code: ResultCodes.INVALID_AUTH,
  description,
});

/** A header of the notification, whatever its case. */
function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** Events whose object is a Refund (an RF's own ConnectorTxID1 is the refund's id, re_…). */
const REFUND_EVENTS: ReadonlySet<string> = new Set([
  'charge.refund.updated',
  'refund.created',
  'refund.updated',
  'refund.failed',
]);

/**
 * What a refund's state says: succeeded (or pending at the bank) is the refund done; failed or
 * canceled the refund's failure (a late one when the gateway had answered it done:
 * shared/engine/steps/late-failure.ts), Stripe's failure_reason its code; requires_action is
 * no verdict yet.
 */
function refundVerdict(refund: Stripe.Refund): ConnectorAnswer {
  const status = refund.status ?? 'unknown';
  if (status === 'succeeded' || status === 'pending')
    return { code: ResultCodes.SUCCESS_LIVE, id: refund.id, processorCode: status };
  if (status === 'failed' || status === 'canceled') {
    const reason = refund.failure_reason ?? undefined;
    return {
      code: ResultCodes.CANNOT_REFUND,
      id: refund.id,
      processorCode: reason === undefined ? status : `${status} ${reason}`,
      ...(reason === undefined ? {} : { description: reason }),
    };
  }
  return { code: ResultCodes.PENDING, id: refund.id, processorCode: status };
}

/** What a verified event says about its payment. */
function eventAnswer(event: Stripe.Event): StripeNotificationAnswer {
  const object = event.data.object as unknown as Record<string, unknown>;
  const metadata = (object.metadata ?? {}) as Record<string, string>;
  const gatewayId = metadata[GATEWAY_ID];
  const notice = (theirId: string | undefined): StripeNotice => ({
    eventId: event.id,
    eventType: event.type,
    ...(theirId === undefined ? {} : { theirId }),
    ...(gatewayId === undefined ? {} : { gatewayId }),
  });
  if (event.type.startsWith('payment_intent.')) {
    const intent = event.data.object as Stripe.PaymentIntent;
    // the card a payment registering along set up: its registration, should this event end it
    const answer = withRegistrationAlong(
      intentAnswer(intent, event.type === 'payment_intent.canceled'),
      intent,
    );
    return { ...answer, notice: notice(intent.id) };
  }
  if (event.type === 'charge.refunded' || event.type === 'charge.captured') {
    const charge = event.data.object as Stripe.Charge;
    const theirId =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
    return {
      code: ResultCodes.SUCCESS_LIVE,
      processorCode: event.type,
      id: theirId ?? charge.id,
      notice: notice(theirId),
    };
  }
  if (REFUND_EVENTS.has(event.type)) {
    const refund = event.data.object as Stripe.Refund;
    return { ...refundVerdict(refund), notice: notice(refund.id) };
  }
  // an event about something else (a customer, a SetupIntent): verified, nothing to apply
  return { code: ResultCodes.SUCCESS_LIVE, processorCode: event.type, notice: notice(undefined) };
}

/** A notification Stripe sent, verified under the channel's webhook secret: what its event says, or refused. */
export async function verifyStripeNotification(
  stripe: Stripe,
  notification: ProcessorNotification,
  webhookSecret: string | undefined,
): Promise<StripeNotificationAnswer> {
  if (webhookSecret === undefined || webhookSecret === '')
    return refused(
      'no webhook signing secret is configured for this channel: notifications cannot be verified',
    );
  const signature = header(notification.headers, 'stripe-signature');
  if (signature === undefined) return refused('the Stripe-Signature header is missing');
  let event: Stripe.Event;
  try {
    event = await stripe.webhooks.constructEventAsync(notification.body, signature, webhookSecret);
  } catch (error) {
    return refused(`the Stripe-Signature does not verify: ${(error as Error).message}`);
  }
  return eventAnswer(event);
}
