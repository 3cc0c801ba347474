/**
 * A payment record from what a pipeline decided: the ids, shortId, default descriptor
 * (`<shortId> <channel name>`), ndc and result description every payment gets the same way.
 */
import type { Minor } from '../../money';
import { maskValue } from '../../params/errors';
import { describe } from '../../result-codes';
import type { Caller } from './deps';
import { newId, newPaymentNdc, newShortId } from './ids';
import type { Payment, StoredCard, TestMode } from './model';

export interface PaymentFacts {
  readonly paymentType: string;
  readonly paymentBrand?: string | undefined;
  readonly amount: Minor | null;
  readonly currency?: string | undefined;
  readonly code: string;
  readonly referencedId?: string | undefined;
  readonly registrationId?: string | undefined;
  readonly merchantTransactionId?: string | undefined;
  readonly descriptor?: string | undefined;
  readonly testMode?: TestMode | undefined;
  readonly card?: StoredCard | undefined;
  /** The checkout whose submission this is. */
  readonly checkoutId?: string | undefined;
  /** Echoed request groups and the like. */
  readonly details: Readonly<Record<string, unknown>>;
  /** avsResponse, cvvResponse: answered beside result.code. */
  readonly result?: Readonly<Record<string, string>>;
  readonly resultDetails?: Readonly<Record<string, string>>;
}

const nonEmpty = (name: string, value: Readonly<Record<string, string>> | undefined) =>
  value === undefined || Object.keys(value).length === 0 ? {} : { [name]: value };

/** Leaves out what is undefined, so a record reads back from storage exactly as it was written. */
function defined<T extends object>(value: T): T {
  // A loop, not entries → filter → fromEntries: three arrays per payment for one object.
  const kept: Record<string, unknown> = {};
  for (const name in value) {
    const v = value[name];
    if (v !== undefined) kept[name] = v;
  }
  return kept as T;
}

/** The spec: "descriptor … merchant.name overrides it" (the statement's merchant-name line). */
function statementName(details: Readonly<Record<string, unknown>>): string | undefined {
  const merchant = details.merchant as { readonly name?: unknown } | undefined;
  return typeof merchant?.name === 'string' ? merchant.name : undefined;
}

export function paymentRecord(caller: Caller, now: Date, facts: PaymentFacts): Payment {
  const shortId = newShortId();
  const { code, details, result, resultDetails, descriptor, paymentBrand, ...rest } = facts;
  return defined({
    ...rest,
    // A brand is a short code; a card number sent in its place (refused as an unknown brand) is
    // masked like any misplaced number, so it is neither stored nor answered.
    paymentBrand: paymentBrand === undefined ? undefined : maskValue(paymentBrand),
    id: newId(),
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    resultCode: code,
    resultDescription: describe(code) ?? '',
    shortId,
    descriptor: statementName(details) ?? descriptor ?? `${shortId} ${caller.channel.name}`,
    // a checkout's payment carries the checkout id: clients match notifications to checkouts by it
    ndc: facts.checkoutId ?? newPaymentNdc(caller.channel.id),
    details: { ...details, ...nonEmpty('result', result), ...nonEmpty('resultDetails', resultDetails) },
    createdAt: now,
  });
}
