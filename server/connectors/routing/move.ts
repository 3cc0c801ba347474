/**
 * Moving a registration to another of its channel's routes (the operator's `gateway registration
 * move`, the admin API's equivalent; server/backoffice/registrations/move.ts): which moves work,
 * and the registration's new connector id. A move re-tags the registration to the route (held.ts)
 * with nothing stored there and the network transaction id kept: its merchant-initiated repeats
 * go there as a card on file (migrate.ts). What does not work is refused with its reason.
 */
import type { Channel, Registration } from '../../../shared/engine/core/model';
import { CONNECTOR_REGISTRATION_ID } from '../../../shared/engine/core/processor';
import { heldBy, tagOf } from './held';
import { unmovable } from './migrate';

/**
 * The kinds a registration may move to: those whose connector charges a card on file with its
 * network transaction id (ConnectorContract.takesCardOnFile; routing/README.md's table).
 */
export const CARD_ON_FILE_KINDS: readonly string[] = ['opp', 'adyen', 'stripe'];

export type MovePlan =
  | { readonly kind: 'move'; readonly from: string; readonly to: string; readonly toKind: string }
  | { readonly kind: 'refused'; readonly reason: string };

/** The move of `registration` to route `index` of its `channel`, or why it cannot move there. */
export function planMove(registration: Registration, channel: Channel, index: number): MovePlan {
  const refuse = (reason: string): MovePlan => ({ kind: 'refused', reason });
  if (registration.deletedAt !== null) return refuse('the registration is deleted');
  const route = channel.settings.routes?.[index];
  if (route === undefined) return refuse(`its channel has no route ${index}`);
  const cannot = unmovable(registration);
  if (cannot !== undefined) return refuse(cannot);
  const kind = route.connector.kind ?? 'opp';
  if (!CARD_ON_FILE_KINDS.includes(kind))
    return refuse(`a ${kind} connector does not charge a card stored elsewhere`);
  if (route.brands !== undefined && !route.brands.includes(registration.paymentBrand))
    return refuse(`route ${index} does not take ${registration.paymentBrand}`);
  const held = heldBy(registration);
  const from = registration.details[CONNECTOR_REGISTRATION_ID];
  if (held === undefined || typeof from !== 'string' || held.networkTransactionId === undefined)
    return refuse('no network transaction id of its initial cardholder-initiated payment was kept');
  if (held.route.index === index && held.route.kind === kind)
    return refuse(`route ${index} holds it already`);
  const to = tagOf({
    route: { kind, index },
    theirId: '',
    networkTransactionId: held.networkTransactionId,
  });
  return { kind: 'move', from, to, toKind: kind };
}
