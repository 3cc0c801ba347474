/**
 * The stripe kind's modifications of a PaymentIntent (capture, cancel, refund) and its reads
 * (after the shopper's return, for an uncertain payment).
 */
import type Stripe from 'stripe';
import type { Payment } from '../../../shared/engine/core/model';
import { connectorIdOf } from '../../../shared/engine/core/processor';
import { ResultCodes } from '../../../shared/result-codes';
import type { Answer, ReferencedOrder } from '../kit/contract';
import { call, idempotencyKey } from './client';
import { gatewayIdOf, invalidAmount, withRegistrationAlong } from './payments';
import { captureParams, GATEWAY_ID, refundParams, searchQuery } from './request';
import { intentAnswer, refundAnswer } from './response';

const expanded = (): { expand: string[] } => ({ expand: ['latest_charge'] });

/** CP: the capture of an authorisation. */
export const capture = (stripe: Stripe, order: ReferencedOrder): Answer =>
  call('capture', async () => {
    try {
      const params = captureParams(order.request);
      // Stripe captures a PaymentIntent once: the key of its capture is the PaymentIntent's
      const intent = await stripe.paymentIntents.capture(order.theirId, params, {
        idempotencyKey: idempotencyKey(order.theirId, `capture-${params.amount_to_capture}`),
      });
      return intentAnswer(intent);
    } catch (error) {
      return invalidAmount(error);
    }
  });

/** RF: a refund of the PaymentIntent's charge (all that is left when the request has no amount). */
export const refund = (
  stripe: Stripe,
  order: ReferencedOrder,
  operation: 'refund' | 'reverse',
  request = order.request,
): Answer =>
  call(operation, async () => {
    try {
      const gatewayId = gatewayIdOf(order);
      const params = refundParams(order.theirId, request, gatewayId);
      return refundAnswer(
        await stripe.refunds.create(params, { idempotencyKey: idempotencyKey(gatewayId, operation) }),
      );
    } catch (error) {
      return invalidAmount(error);
    }
  });

// RV: an authorisation is cancelled; a captured payment can only be undone by refunding it whole
export const reverse = (stripe: Stripe, order: ReferencedOrder): Answer => {
  if (order.referenced.paymentType !== 'PA') return refund(stripe, order, 'reverse', {});
  return call('reverse', async () =>
    intentAnswer(
      await stripe.paymentIntents.cancel(order.theirId, expanded(), {
        idempotencyKey: idempotencyKey(order.theirId, 'cancel'),
      }),
      true,
    ),
  );
};

/** The states in which a PaymentIntent still waits for its shopper (or a new attempt of theirs). */
const WAITING: ReadonlySet<Stripe.PaymentIntent.Status> = new Set([
  'requires_action',
  'requires_payment_method',
  'requires_confirmation',
]);

/**
 * The last ask of a payment whose shopper did not come back in its 30 minutes: a PaymentIntent
 * still waiting for them is cancelled (`abandoned`), as Stripe leaves it open otherwise and the
 * shopper's late approval at the bank would charge a payment the merchant was told had timed out;
 * answered pending (no verdict of the shopper's), so the gateway times it out as in test mode.
 * One that succeeded or failed meanwhile, or that Stripe will not cancel, is its verdict as read.
 */
export const abandon = (stripe: Stripe, payment: Payment): Answer => {
  const theirId = connectorIdOf(payment);
  if (theirId === undefined) return read(stripe, payment, 'finish');
  return call('finish', async () => {
    const intent = await stripe.paymentIntents.retrieve(theirId, expanded());
    // the shopper is done and Stripe has not told the end (a delayed method: Sofort): not known yet
    if (intent.status === 'processing') return { ...intentAnswer(intent), technical: 'uncertain' };
    if (!WAITING.has(intent.status)) return withRegistrationAlong(intentAnswer(intent), intent);
    try {
      await stripe.paymentIntents.cancel(
        theirId,
        { cancellation_reason: 'abandoned' },
        { idempotencyKey: idempotencyKey(theirId, 'cancel') },
      );
      return { code: ResultCodes.PENDING };
    } catch {
      // the shopper finished just now (Stripe refuses to cancel a succeeded one): read it again
      const now = await stripe.paymentIntents.retrieve(theirId, expanded());
      return withRegistrationAlong(intentAnswer(now), now);
    }
  });
};

/**
 * A payment's PaymentIntent, read: by the id Stripe gave it when the gateway kept one, else
 * found by the gateway's id in its metadata (Stripe's search; searchable within about a
 * minute of its creation, so the inquiry asks again before it concludes there is none).
 */
export const read = (stripe: Stripe, payment: Payment, operation: string): Answer =>
  call(operation, async () => {
    const theirId = connectorIdOf(payment);
    const intent =
      theirId !== undefined
        ? await stripe.paymentIntents.retrieve(theirId, expanded())
        : (
            await stripe.paymentIntents.search({
              query: searchQuery(payment.id),
              expand: ['data.latest_charge'],
            })
          ).data[0];
    // a payment registering along keeps the card Stripe set up, however its end is read
    return intent === undefined
      ? { code: ResultCodes.TRANSACTION_NOT_FOUND }
      : withRegistrationAlong(intentAnswer(intent), intent);
  });

/**
 * An uncertain capture, refund or reversal, read from the PaymentIntent it modified (the
 * referenced payment's): a capture happened when the PaymentIntent is no longer waiting for one; a
 * reversal of an authorisation when it is cancelled; a refund (a reversal of a capture too) is the
 * charge's refund carrying the gateway's id in its metadata. Not there: 700.400.580, so the
 * inquiry concludes it never reached Stripe. Without the referenced PaymentIntent there is nothing
 * to read: pending, until Stripe's notification tells.
 */
export const readModification = (
  stripe: Stripe,
  payment: Payment,
  referenced: Payment | undefined,
): Answer => {
  const theirId = referenced === undefined ? undefined : connectorIdOf(referenced);
  if (theirId === undefined) return Promise.resolve({ code: ResultCodes.PENDING });
  return call('inquire', async () => {
    const intent = await stripe.paymentIntents.retrieve(theirId, {
      expand: ['latest_charge', 'latest_charge.refunds'],
    });
    const refunding =
      payment.paymentType === 'RF' || (payment.paymentType === 'RV' && referenced?.paymentType !== 'PA');
    if (refunding) {
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      const refund = charge?.refunds?.data.find((r) => r.metadata?.[GATEWAY_ID] === payment.id);
      return refund === undefined ? { code: ResultCodes.TRANSACTION_NOT_FOUND } : refundAnswer(refund);
    }
    const done = payment.paymentType === 'RV' ? intent.status === 'canceled' : intent.status === 'succeeded';
    return done
      ? intentAnswer(intent, payment.paymentType === 'RV')
      : { code: ResultCodes.TRANSACTION_NOT_FOUND };
  });
};
