/**
 * The 3-D Secure 2 simulator of test mode INTERNAL: the issuer's access control server (ACS) and
 * the directory server in one, deterministic, driven by the test cards of facts §6.2 and the
 * decisions' overrides, so QA teams can reach every branch from a payment form.
 *
 * - Enrollment: a card of the table below is enrolled; any other card is not, and is paid
 *   without authentication (so 4200000000000000 still succeeds with exactly 000.100.110).
 *   `customParameters[3DS2_enrolled]=true` enrols any card, `=false` none;
 *   `threeDSecure.challengeIndicator=04` enrols the card and forces a challenge.
 * - Flow: the card's, unless `customParameters[3DS2_flow]=challenge|frictionless` says otherwise;
 *   a challenge requested by the merchant (challengeIndicator 03, 04, 09) is granted; an
 *   exemption (exemptionFlag, or challengeIndicator 05, 07, 08) is granted to cards that would
 *   challenge, which then authenticate frictionlessly.
 * - The challenge page asks for a one-time code, always CHALLENGE_CODE (shown on the page).
 */

import type {
  AccessControlServer,
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationStatus,
  CardProfile,
  TransactionIds,
} from '../../../shared/engine/core/ports';
import {
  AuthenticationCodes,
  failureCodeOf,
  PROTOCOL_VERSION,
  proceeds,
} from '../../../shared/engine/steps/three-d-secure';

export type {
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationStatus,
  CardProfile,
  TransactionIds,
};
export { AuthenticationCodes, failureCodeOf, PROTOCOL_VERSION, proceeds };

const frictionless = (status: AuthenticationStatus, methodData: boolean): CardProfile => ({
  flow: 'frictionless',
  status,
  methodData,
});
const challenge = (methodData: boolean): CardProfile => ({ flow: 'challenge', methodData });

/** Facts §6.2, plus 4200000000000117 for a frictionless rejection (R), which the facts lack. */
export const ENROLLED_CARDS: Readonly<Record<string, CardProfile>> = {
  '4200000000000091': frictionless('Y', true),
  '4200000000000109': frictionless('A', true),
  '4200000000000026': frictionless('Y', false),
  '4200000000000059': frictionless('A', false),
  '4012001037461114': frictionless('U', false),
  '4012001037141112': frictionless('N', false),
  '4200000000000117': frictionless('R', false),
  '4532497088771651': { flow: 'not-participating' },
  '4200000000000042': challenge(true),
  '4200000000000067': challenge(true),
  '4200000000000018': challenge(false),
  '4200000000000075': challenge(false),
  '4012000000003119': challenge(true),
  '4012000000003127': challenge(true),
  '5200000000000007': frictionless('Y', true),
  '5200000000000023': frictionless('A', true),
  '5200000000000056': frictionless('Y', false),
  '5200000000000106': frictionless('A', false),
};

/** The one-time code the challenge page accepts. */
export const CHALLENGE_CODE = '1234';

const CHALLENGE_REQUESTED = new Set(['03', '04', '09']);
const NO_CHALLENGE_REQUESTED = new Set(['05', '07', '08']);

/** The card's profile with the overrides applied; undefined when the card is not enrolled. */
export function profileOf(request: AuthenticationRequest): CardProfile | undefined {
  const custom = request.customParameters ?? {};
  const enrolledOverride = custom['3DS2_enrolled'];
  if (enrolledOverride === 'false') return undefined;
  const listed = ENROLLED_CARDS[request.number];
  const mandated = request.challengeIndicator === '04';
  if (listed === undefined && enrolledOverride !== 'true' && !mandated) return undefined;
  const base = listed ?? frictionless('Y', false);
  if (base.flow === 'not-participating') return base;
  const methodData = base.methodData;
  const flow = custom['3DS2_flow'];
  if (flow === 'challenge') return challenge(methodData);
  if (flow === 'frictionless') return base.flow === 'frictionless' ? base : frictionless('Y', methodData);
  if (request.challengeIndicator !== undefined && CHALLENGE_REQUESTED.has(request.challengeIndicator)) {
    return challenge(methodData);
  }
  const exempted =
    request.exemptionFlag !== undefined ||
    (request.challengeIndicator !== undefined && NO_CHALLENGE_REQUESTED.has(request.challengeIndicator));
  if (exempted && base.flow === 'challenge') return frictionless('Y', methodData);
  return base;
}

/** ECI values by scheme: Mastercard's family uses 02/01/00, the others 05/06/07. */
const MASTERCARD_FAMILY = new Set(['MASTER', 'MAESTRO']);

export function eciOf(brand: string, status: AuthenticationStatus): string | undefined {
  const mc = MASTERCARD_FAMILY.has(brand);
  switch (status) {
    case 'Y':
      return mc ? '02' : '05';
    case 'A':
      return mc ? '01' : '06';
    // facts §6.2: the not-enrolled test card answers ECI 06 (01 for Mastercard)
    case 'N':
      return mc ? '01' : '06';
    default:
      return undefined;
  }
}

/** EMV transStatusReason for the statuses that carry one. */
const STATUS_REASON: Partial<Record<AuthenticationStatus, string>> = { N: '01', U: '06', R: '11' };

export const newTransactionIds = (): TransactionIds => ({
  dsTransactionId: globalThis.crypto.randomUUID(),
  acsTransactionId: globalThis.crypto.randomUUID(),
});

/** A verification value (CAVV / AAV, or a wallet's cryptogram): 20 random bytes, base64, 28 characters. */
export function newCryptogram(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(20));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The result of an authentication that ended with `status`: ECI and a verification value when
 * the cardholder was authenticated (Y) or the attempt is proven (A), the reason otherwise.
 */
export function authenticationResult(
  brand: string,
  status: AuthenticationStatus,
  ids: TransactionIds,
  how: { readonly authType?: string; readonly challengeMandated?: boolean } = {},
): AuthenticationResult {
  const eci = eciOf(brand, status);
  const reason = STATUS_REASON[status];
  return {
    ...(eci === undefined ? {} : { eci }),
    ...(status === 'Y' || status === 'A' ? { verificationId: newCryptogram() } : {}),
    authenticationStatus: status,
    dsTransactionId: ids.dsTransactionId,
    acsTransactionId: ids.acsTransactionId,
    version: PROTOCOL_VERSION,
    ...(how.authType === undefined ? {} : { authType: how.authType }),
    ...(reason === undefined ? {} : { transactionStatusReason: reason }),
    ...(how.challengeMandated === undefined
      ? {}
      : { challengeMandatedIndicator: how.challengeMandated ? 'Y' : 'N' }),
  };
}

/** The simulated directory server and ACS, as the simulator processor's 3-D Secure. */
export const accessControlServer: AccessControlServer = {
  profileOf,
  newTransactionIds,
  authenticationResult,
};
