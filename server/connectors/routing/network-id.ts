/**
 * The scheme's network transaction id of a cardholder-initiated payment (Visa's Transaction ID,
 * Mastercard's Trace ID), normalised in this one place whichever connector answered it: Adyen's
 * `additionalData.networkTxReference` (adyen/response.ts keeps it as resultDetails.networkTxReference),
 * Stripe's `payment_method_details.card.network_transaction_id` (stripe/response.ts:
 * resultDetails.NetworkTransactionId), a gateway of the family's `standingInstruction.initialTransactionId`
 * of an INITIAL payment (opp/response.ts: resultDetails.CardholderInitiatedTransactionID). A
 * merchant-initiated repeat quoting it may go to any acquirer (the schemes' MIT framework): the
 * gateway keeps it with the registration (held.ts), unanswered, to move the registration between
 * connectors (migrate.ts).
 */

/** The names each kind's answer carries it under (resultDetails), in no order of preference. */
export const NETWORK_ID_NAMES = [
  'networkTxReference',
  'NetworkTransactionId',
  'CardholderInitiatedTransactionID',
] as const;

/** What a scheme's id may hold here: letters, digits and `.`, `_`, `-`, at most 64 (Visa: 15 digits, Mastercard: 9 to 13 characters). */
const NETWORK_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The network transaction id a decision's resultDetails carry; undefined when none is usable. */
export function networkTransactionIdOf(resultDetails: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of NETWORK_ID_NAMES) {
    const value = resultDetails[name];
    if (typeof value === 'string' && NETWORK_ID.test(value)) return value;
  }
  return undefined;
}

/** Whether `value` can be kept as a network transaction id (the tag's grammar in held.ts). */
export const isNetworkTransactionId = (value: string): boolean => NETWORK_ID.test(value);
