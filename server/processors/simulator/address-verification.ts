/**
 * The simulated issuer's address verification (AVS) of a card payment: `billing.street1` and
 * `billing.postcode` compared with the one address the simulated issuer holds for every test
 * card, so each of the spec's `result.avsResponse` letters can be reached (README, "Simulator
 * behaviour"). Case, and spaces at the ends and between words, do not matter.
 *
 * | sent                                        | letter (spec)                                   |
 * |---------------------------------------------|-------------------------------------------------|
 * | street1 and postcode match                  | F: address and postal code match                |
 * | postcode matches, street1 does not or none  | Z: zip matches but address does not             |
 * | street1 matches, postcode does not or none  | A: address matches but zip does not             |
 * | street1 or postcode sent, neither matches   | N: neither matches                              |
 * | no billing address, or neither line in it   | U: verification not applicable                  |
 */
import type { BillingAddress } from '../../../shared/engine/core/ports';

/** The cardholder address the simulated issuer holds for every test card. */
export const AVS_TEST_ADDRESS = { street1: '1 Test Street', postcode: 'TE1 2ST' } as const;

const normalized = (line: string): string => line.trim().replace(/\s+/g, ' ').toUpperCase();

const matches = (sent: string | undefined, held: string): boolean =>
  sent !== undefined && normalized(sent) === normalized(held);

/** The AVS letter of a billing address (undefined: none sent). */
export function avsResponse(billing: BillingAddress | undefined): 'F' | 'Z' | 'A' | 'N' | 'U' {
  if (billing === undefined || (billing.street1 === undefined && billing.postcode === undefined)) return 'U';
  const street = matches(billing.street1, AVS_TEST_ADDRESS.street1);
  const postcode = matches(billing.postcode, AVS_TEST_ADDRESS.postcode);
  if (street && postcode) return 'F';
  if (postcode) return 'Z';
  if (street) return 'A';
  return 'N';
}
