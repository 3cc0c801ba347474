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
  /** The id chosen before the processor was asked (it knows the payment by it); a new one otherwise. */
  readonly id?: string | undefined;
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

/** The facts paymentRecord sets itself (derived or renamed), not copied as they came. */
const DERIVED: ReadonlySet<string> = new Set([
  'code',
  'details',
  'result',
  'resultDetails',
  'descriptor',
  'paymentBrand',
]);

function hasFields(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/** The spec: "descriptor … merchant.name overrides it" (the statement's merchant-name line). */
function statementName(details: Readonly<Record<string, unknown>>): string | undefined {
  const merchant = details.merchant as { readonly name?: unknown } | undefined;
  return typeof merchant?.name === 'string' ? merchant.name : undefined;
}

/**
 * Leaves out what is undefined, so a record reads back from storage exactly as it was written.
 * Built field by field into one object: destructuring with a rest, spreading and filtering again
 * cost a payment create more than the rest of its record (profiled: object rest is a slow path).
 */
export function paymentRecord(caller: Caller, now: Date, facts: PaymentFacts): Payment {
  const shortId = newShortId();
  const { code, details, result, resultDetails, descriptor, paymentBrand } = facts;
  const record: Record<string, unknown> = {};
  const given = facts as unknown as Record<string, unknown>;
  for (const name in given) {
    const value = given[name];
    if (value !== undefined && !DERIVED.has(name)) record[name] = value;
  }
  // A brand is a short code; a card number sent in its place (refused as an unknown brand) is
  // masked like any misplaced number, so it is neither stored nor answered.
  if (paymentBrand !== undefined) record.paymentBrand = maskValue(paymentBrand);
  record.id = facts.id ?? newId();
  record.merchantId = caller.merchantId;
  record.channelId = caller.channel.id;
  record.resultCode = code;
  record.resultDescription = describe(code) ?? '';
  record.shortId = shortId;
  record.descriptor = statementName(details) ?? descriptor ?? `${shortId} ${caller.channel.name}`;
  // a checkout's payment carries the checkout id: clients match notifications to checkouts by it
  record.ndc = facts.checkoutId ?? newPaymentNdc(caller.channel.id);
  const kept: Record<string, unknown> = { ...details };
  if (result !== undefined && hasFields(result)) kept.result = result;
  if (resultDetails !== undefined && hasFields(resultDetails)) kept.resultDetails = resultDetails;
  record.details = kept;
  record.createdAt = now;
  return record as unknown as Payment;
}
