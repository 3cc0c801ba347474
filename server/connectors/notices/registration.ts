/**
 * A verified notification about a registration of the gateway's (issue 32/33): Adyen's Checkout
 * API has no search by reference, so a registration whose answer was lost (pending, 000.200.000,
 * with an inquiry session: shared/engine/steps/processor-uncertain.ts) is ended by what Adyen
 * tells of it instead, the AUTHORISATION of its zero-amount check or the RECURRING_CONTRACT of the
 * card it stored (merchantReference: the gateway's id of the registration, which the connector
 * sent as `reference`). apply.ts hands over a notice naming no payment whose gateway's id is a
 * registration of the channel:
 *
 * - pending, the notice a verdict: it ends through the inquiry's own end
 *   (steps/inquiry.ts endUncertainRegistration: the session's compare-and-set, the registration's
 *   final details and REGISTRATION UPDATED in one transaction), made with the stored card as its
 *   connector registration id (a routed channel's tagged with the route it reached,
 *   routing/held.ts), or refused: never made, as the inquiry's failure ends it;
 * - a success that names no stored card (an AUTHORISATION without tokenization): nothing yet, its
 *   RECURRING_CONTRACT (or an operator's inquiry) tells;
 * - final already (answered at once, or ended by an earlier copy or the inquiry): nothing changes.
 *
 * The event is recorded either way, after the end (as a pending payment's), so a copy of it is
 * `seen`; a copy racing the first loses the session's compare-and-set and changes nothing.
 */
import { isGatewayId } from '../../../shared/engine/core/ids';
import type { Channel, Registration } from '../../../shared/engine/core/model';
import type { Clock, Decision } from '../../../shared/engine/core/ports';
import { registrationAnswerOf } from '../../../shared/engine/core/processor';
import { endUncertainRegistration } from '../../../shared/engine/steps/inquiry';
import { isPending, isSuccess } from '../../../shared/result-codes';
import type { GatewayStore } from '../../storage/kysely-store';
import type { NotificationNotice } from '../kit/contract';
import { holding, reachedRoute } from '../routing/held';

type RegistrationStore = Pick<
  GatewayStore,
  | 'getRegistration'
  | 'getPaymentSessionOfPayment'
  | 'finishRegistrationSession'
  | 'recordProcessorEvent'
  | 'connectorAttemptsOf'
>;

/** The channel's registration a notice names by the gateway's id; undefined when it names none. */
export async function registrationOf(
  store: Pick<GatewayStore, 'getRegistration'>,
  channel: Channel,
  notice: NotificationNotice,
): Promise<Registration | undefined> {
  if (!isGatewayId(notice.gatewayId)) return undefined;
  const registration = await store.getRegistration(channel.merchantId, notice.gatewayId);
  // another channel's (of the same merchant, on another account) is not this processor's to end
  return registration?.channelId === channel.id ? registration : undefined;
}

/** Applies the notice's verdict (`decision`, the kit's mapping of its answer) to `registration`, once. */
export async function applyToRegistration(
  deps: { readonly store: RegistrationStore; readonly clock: Clock },
  channel: Channel,
  notice: NotificationNotice,
  registration: Registration,
  decision: Decision,
): Promise<'applied' | 'unchanged' | 'seen'> {
  const at = deps.clock.now();
  const event = { channelId: channel.id, eventId: notice.eventId, paymentId: registration.id, at };
  const theirs = decision.resultDetails.ConnectorRegistrationID;
  const told = !isPending(decision.code) && (!isSuccess(decision.code) || typeof theirs === 'string');
  const session = told ? await deps.store.getPaymentSessionOfPayment(registration.id) : undefined;
  if (
    session === undefined ||
    session.finishedAt !== null ||
    !isPending(registrationAnswerOf(registration).code)
  )
    return deps.store.recordProcessorEvent(event);
  const held = await heldDecision(deps.store, channel, registration.id, decision);
  const end = await endUncertainRegistration(
    deps,
    session,
    registration,
    { code: decision.code, theirs: held.resultDetails.ConnectorRegistrationID },
    at,
  );
  const recorded = await deps.store.recordProcessorEvent(event);
  return end.kind === 'finished' ? 'applied' : recorded;
}

/**
 * On a routed channel, the stored card tagged with the route the registration (or the payment
 * registering along, apply.ts) reached, `id` (its last attempt that reached a processor, as the
 * routed inquiry asks it), so a payment with it goes there; a single connector's stays untagged.
 */
export async function heldDecision(
  store: Pick<GatewayStore, 'connectorAttemptsOf'>,
  channel: Channel,
  id: string,
  decision: Decision,
): Promise<Decision> {
  if ((channel.settings.routes ?? []).length === 0) return decision;
  const reached = reachedRoute(await store.connectorAttemptsOf(id));
  return reached === undefined ? decision : holding(decision, reached);
}
