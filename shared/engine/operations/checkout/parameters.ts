/**
 * A submission's request: the checkout's parameters with the submission laid over them, kept to
 * what the request kind accepts.
 */

import { detectBrand } from '../../../brands';
import type { FormTree, FormValue } from '../../../form/decode';
import { INSTRUMENT_GROUPS } from '../../../params/catalogue';
import { type RequestKind, type RequestOf, rootOf } from '../../../params/requests';
import type { Checkout } from '../../core/model';

/** Parameters that shape the checkout, not the payment made from it; and credentials, never kept. */
export const CHECKOUT_ONLY = new Set(['overridePaymentType', 'registrations', 'integrity']);
export const NEVER_KEPT = new Set(['entityId', 'authentication']);

/** What the widget submits to a checkout. */
export type Submission = RequestOf<'checkoutPayment'>;

/**
 * The checkout's parameters a payment or registration request is built from. A checkout may carry
 * account data the merchant knows (`bankAccount.*`); when the shopper submits another instrument
 * (a card for a checkout that named a bank account), only the shopper's one is the payment's.
 */
export function paymentParameters(checkout: Checkout, sent: FormTree = {}): FormTree {
  const chosen: readonly string[] = INSTRUMENT_GROUPS.filter((group) => sent[group] !== undefined);
  const tree: FormTree = {};
  for (const [name, value] of Object.entries(checkout.parameters)) {
    if (CHECKOUT_ONLY.has(name)) continue;
    const otherInstrument =
      chosen.length > 0 && (INSTRUMENT_GROUPS as readonly string[]).includes(name) && !chosen.includes(name);
    if (!otherInstrument) tree[name] = value as FormValue;
  }
  return tree;
}

/** Of the submission: what describes the payment. Credentials never; registrationId selects, it is not sent on. */
export function forwarded(submission: Submission): FormTree {
  const tree: FormTree = {};
  for (const [name, value] of Object.entries(submission as FormTree)) {
    if (!NEVER_KEPT.has(name) && name !== 'registrationId') tree[name] = value;
  }
  return tree;
}

/**
 * The checkout's parameters with the submission laid over them, group by group: the shopper's
 * customer and billing fields complete (or correct) the merchant's, and SHOPPER_ custom
 * parameters join the merchant's. The submission cannot carry money, type or references (its
 * request kind has none), so the merchant's amount, currency and paymentType always stand.
 */
export function mergeTrees(base: FormTree, over: FormTree): FormTree {
  const out: FormTree = { ...base };
  for (const [name, value] of Object.entries(over)) {
    const under = out[name];
    out[name] = isGroup(under) && isGroup(value) ? mergeTrees(under, value) : value;
  }
  return out;
}

const isGroup = (v: FormValue | undefined): v is FormTree =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The top-level names a request kind accepts; the rest of a checkout's parameters does not apply to it. */
export function acceptedBy(kind: RequestKind, tree: FormTree): FormTree {
  const fields = rootOf(kind).fields;
  return Object.fromEntries(Object.entries(tree).filter(([name]) => name in fields));
}

/** The brand sent, else detected from the card number (spec: brand detection in the widget). */
export function brandOf(tree: FormTree): string | undefined {
  if (typeof tree.paymentBrand === 'string') return tree.paymentBrand;
  const card = tree.card;
  const number = isGroup(card) && typeof card.number === 'string' ? card.number : undefined;
  return number === undefined ? undefined : detectBrand(number);
}
