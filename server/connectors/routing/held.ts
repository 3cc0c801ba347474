/**
 * Which route holds a registration (issue 33 point 2): a registration made through a channel's
 * routes lives at one connector, and a payment with it (one-click, MIT repeats, scheduled runs)
 * goes there. The route is kept in the connector's own id of the registration, which the
 * gateway stores unanswered (the registration's `connectorRegistrationId`, from the decision's
 * ConnectorRegistrationID): `<kind>@<route>:<their id>`, or `<kind>@<route>~<network id>:<their id>`
 * when the cardholder-initiated payment that made it answered the scheme's network transaction
 * id (network-id.ts), kept so that merchant-initiated repeats may go to another connector
 * (migrate.ts, issue 33 point 6). A registration moved to a route where nothing is stored has
 * no id there (`<kind>@<route>~<network id>:`): it is charged there as a card on file.
 * Processors' ids never hold an `@` before a colon (opp's 32 hex, Adyen's references, Stripe's
 * `cus_…:pm_…`), so an id stored before routes (untagged) is told apart and goes to the first
 * route, as it always did.
 */
import type { ConnectorAttempt, Registration } from '../../../shared/engine/core/model';
import type { Decision } from '../../../shared/engine/core/ports';
import { CONNECTOR_REGISTRATION_ID } from '../../../shared/engine/core/processor';
import { networkTransactionIdOf } from './network-id';

/** A route by its place in the channel's routes and its connector's kind (checked: routes may be reordered). */
export interface RouteRef {
  readonly index: number;
  readonly kind: string;
}

/** Where a registration is held: the route, its id there ('' when moved there: a card on file), the scheme's id. */
export interface Held {
  readonly route: RouteRef;
  readonly theirId: string;
  readonly networkTransactionId?: string;
}

const TAGGED = /^([a-z][a-z0-9-]*)@(\d+)(?:~([A-Za-z0-9._-]{1,64}))?:(.*)$/s;

/** The stored id of a registration held at `route`. */
export const tagOf = (held: Held): string =>
  `${held.route.kind}@${held.route.index}${
    held.networkTransactionId === undefined ? '' : `~${held.networkTransactionId}`
  }:${held.theirId}`;

/**
 * The route an id's attempts (a payment's or a registration's) reached last: processed there, or
 * uncertain (it may have been); what follows it, and a card it stored, belong there.
 */
export function reachedRoute(
  attempts: readonly Pick<ConnectorAttempt, 'outcome' | 'route' | 'kind'>[],
): RouteRef | undefined {
  const reached = attempts.filter((a) => a.outcome === 'processed' || a.outcome === 'uncertain').at(-1);
  return reached === undefined ? undefined : { index: reached.route, kind: reached.kind };
}

/** The decision with the registration the processor made along tagged with the route that holds it. */
export function holding(decision: Decision, route: RouteRef): Decision {
  const theirs = decision.resultDetails.ConnectorRegistrationID;
  if (typeof theirs !== 'string') return decision;
  const networkTransactionId = networkTransactionIdOf(decision.resultDetails);
  return {
    ...decision,
    resultDetails: {
      ...decision.resultDetails,
      ConnectorRegistrationID: tagOf({
        route: { kind: route.kind, index: route.index },
        theirId: theirs,
        ...(networkTransactionId === undefined ? {} : { networkTransactionId }),
      }),
    },
  };
}

/** The route that holds a registration and its id there; undefined when it names none (stored before routes). */
export function heldBy(registration: Registration): Held | undefined {
  const stored = registration.details[CONNECTOR_REGISTRATION_ID];
  const match = typeof stored === 'string' ? TAGGED.exec(stored) : null;
  if (match === null) return undefined;
  return {
    route: { kind: match[1]!, index: Number(match[2]) },
    theirId: match[4]!,
    ...(match[3] === undefined ? {} : { networkTransactionId: match[3] }),
  };
}

/** The registration as its connector knows it: its own id, without the route's tag. */
export function withTheirRegistration(registration: Registration, theirId: string | undefined): Registration {
  return theirId === undefined
    ? registration
    : { ...registration, details: { ...registration.details, [CONNECTOR_REGISTRATION_ID]: theirId } };
}
