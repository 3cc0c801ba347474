/**
 * POST /v1/checkouts/{id}: the merchant's server updates an open checkout before the shopper pays
 * (a changed cart, amount or customer). The family answers it 000.200.101 "successfully updated
 * checkout"; the spec's overrideHolder applies to "checkout preparation and update".
 *
 * Merge or replace: every top-level parameter sent replaces the stored one, and a group sent
 * (customer, billing, cart, customParameters …) replaces the stored group as a whole; what is not
 * sent stays. The spec's rules are per group ("required when any other customer parameter is
 * sent"), and cart items are an indexed list, so a group can only be judged, and a shorter cart
 * only be sent, whole. The checkout so updated is then checked as a creation is (create.ts):
 * formats, money in its currency, offered registrations, what the channel accepts.
 */

import type { FormTree } from '../../../form/decode';
import type { ParameterError } from '../../../params/errors';
import { type RequestOf, validateRequest } from '../../../params/requests';
import { describe } from '../../../result-codes';
import type { Caller } from '../../core/deps';
import { invalid, NOT_FOUND, refused } from '../../core/failure';
import type { Checkout } from '../../core/model';
import { checkCheckout, checkoutTerms } from './create';
import {
  CheckoutCodes,
  type CheckoutDeps,
  type CheckoutNotDone,
  NO_SESSION_DESCRIPTION,
  stateOf,
} from './model';
import { NEVER_KEPT } from './parameters';

/** Refused when nothing changed: the checkout is paid (or pending), expired, or the channel cannot take it so. */
export type CheckoutUpdate = { readonly kind: 'updated'; readonly checkout: Checkout } | CheckoutNotDone;

/**
 * Updates the checkout `checkoutId` of the caller's channel with `sent`. Under the checkout's lock,
 * as submissions are (Store.exclusive): an update and a pay click never interleave, so the shopper
 * pays either the old terms or the new ones, never a mix.
 */
export function updateCheckout(
  deps: CheckoutDeps,
  caller: Caller,
  checkoutId: string,
  sent: RequestOf<'checkoutUpdate'>,
): Promise<CheckoutUpdate> {
  return deps.store.exclusive(`checkout:${checkoutId}`, async () => {
    // load
    const checkout = await deps.store.getCheckout(checkoutId);
    if (
      checkout === undefined ||
      checkout.merchantId !== caller.merchantId ||
      checkout.channelId !== caller.channel.id
    ) {
      return NOT_FOUND;
    }

    // decide whether it may change at all: a completed (paid or pending) checkout is closed, as
    // for a submission, and an expired one is gone
    const state = stateOf(checkout, deps.clock.now());
    if (state === 'completed') {
      return refused(
        CheckoutCodes.CLOSED,
        `${describe(CheckoutCodes.CLOSED)}: this checkout is already paid or its payment is pending; it can no longer be updated`,
      );
    }
    if (state === 'expired') {
      return refused(
        CheckoutCodes.NO_SESSION,
        `${NO_SESSION_DESCRIPTION}: the checkout expired 30 minutes after its creation`,
      );
    }

    // validate: the checkout as it would be, judged as a creation
    const merged = replaceSent(checkout.parameters as FormTree, sent as FormTree);
    const request = validateRequest('checkout', merged);
    if (!request.ok) return invalid(request.errors);
    const checked = await checkCheckout(deps, caller, request.value);
    if (checked.kind !== 'ok') return checked;
    if (checked.checkoutKind !== checkout.kind) return invalid([kindChange(checkout)]);

    // record
    const terms = checkoutTerms(request.value, checked.amount);
    if (!(await deps.store.updateCheckout(checkout.id, terms))) {
      return refused(CheckoutCodes.CLOSED);
    }
    const { shopperResultUrl: _old, ...kept } = checkout;
    return { kind: 'updated', checkout: { ...kept, ...terms } };
  });
}

/** The stored parameters with each top-level name sent replacing its stored value (a group as a whole). */
function replaceSent(stored: FormTree, sent: FormTree): FormTree {
  const out: FormTree = { ...stored };
  for (const [name, value] of Object.entries(sent)) {
    if (!NEVER_KEPT.has(name)) out[name] = value;
  }
  return out;
}

/**
 * A checkout's kind is its widget's path (/payment or /registration), fixed at creation: a
 * registration-only checkout takes no paymentType (and no money a payment would need).
 */
function kindChange(checkout: Checkout): ParameterError {
  return checkout.kind === 'registration'
    ? {
        name: 'paymentType',
        value: null,
        message: 'cannot be added to a checkout that only registers; create a payment checkout instead',
      }
    : { name: 'paymentType', value: null, message: 'is required: a payment checkout stays one' };
}
