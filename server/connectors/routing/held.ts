/**
 * Which route holds a registration (issue 33 point 2): a registration made through a channel's
 * routes lives at one connector, and a payment with it (one-click, MIT repeats, scheduled runs)
 * must go there. The route is kept in the connector's own id of the registration, which the
 * gateway stores unanswered (the registration's `connectorRegistrationId`, from the decision's
 * ConnectorRegistrationID): `<kind>@<route>:<their id>`. Processors' ids never hold an `@`
 * before a colon (opp's 32 hex, Adyen's references, Stripe's `cus_…:pm_…`), so an id stored
 * before routes (untagged) is told apart and goes to the first route, as it always did.
 */
import type { Registration } from '../../../shared/engine/core/model';
import type { Decision } from '../../../shared/engine/core/ports';
import { CONNECTOR_REGISTRATION_ID } from '../../../shared/engine/core/processor';

/** A route by its place in the channel's routes and its connector's kind (checked: routes may be reordered). */
export interface RouteRef {
  readonly index: number;
  readonly kind: string;
}

const TAGGED = /^([a-z][a-z0-9-]*)@(\d+):(.+)$/s;

/** The decision with the registration the processor made along tagged with the route that holds it. */
export function holding(decision: Decision, route: RouteRef): Decision {
  const theirs = decision.resultDetails.ConnectorRegistrationID;
  if (typeof theirs !== 'string') return decision;
  return {
    ...decision,
    resultDetails: {
      ...decision.resultDetails,
      ConnectorRegistrationID: `${route.kind}@${route.index}:${theirs}`,
    },
  };
}

/** The route that holds a registration and its id there; undefined when it names none (stored before routes). */
export function heldBy(
  registration: Registration,
): { readonly route: RouteRef; readonly theirId: string } | undefined {
  const stored = registration.details[CONNECTOR_REGISTRATION_ID];
  const match = typeof stored === 'string' ? TAGGED.exec(stored) : null;
  if (match === null) return undefined;
  return { route: { kind: match[1]!, index: Number(match[2]) }, theirId: match[3]! };
}

/** The registration as its connector knows it: its own id, without the route's tag. */
export function withTheirRegistration(registration: Registration, theirId: string | undefined): Registration {
  return theirId === undefined
    ? registration
    : { ...registration, details: { ...registration.details, [CONNECTOR_REGISTRATION_ID]: theirId } };
}
