/**
 * 3-D Secure for an initial card payment: who authenticates the shopper, and with what outcome.
 *
 * - The values of an external authentication server (eci, verificationId, authenticationStatus,
 *   dsTransactionId) are passed through: no authentication of ours (spec: 3-D Secure).
 * - Otherwise the gateway authenticates when the channel has 3-D Secure on, the card is enrolled
 *   and `threeDSecure.disable` is not true (spec: "true bypasses 3-D Secure even when configured;
 *   false does not turn it on"). Only test mode INTERNAL has an access control server to ask
 *   (the simulator); EXTERNAL connectors authenticate on their side.
 * - When it applies to a shopper who is present, the fields the spec marks "mandatory for 3-D
 *   Secure v2" (tagged `3ds2` in the catalogue) must be there, or the request is refused
 *   naming each. A merchant-initiated (3RI) request has no browser, so needs none of them.
 */
import type { ParameterError } from '../params/errors';
import { type RequestOf, rootOf } from '../params/requests';
import { taggedPaths } from '../params/tags';
import {
  AuthenticationCodes,
  type AuthenticationResult,
  authenticationResult,
  failureCodeOf,
  newTransactionIds,
  proceeds,
  profileOf,
  type TransactionIds,
} from '../simulators/access-control-server';
import type { Channel } from './model';

type PaymentRequest = RequestOf<'payment'>;

/** The ways a payment's authentication goes. */
export type Authentication =
  /** No authentication of ours: not configured, bypassed, not a new card, or not enrolled. */
  | { readonly kind: 'none' }
  /** An external server authenticated: its values go to the acquirer as sent. */
  | { readonly kind: 'external' }
  /** The ACS answered at once: go on to the acquirer (Y, A) … */
  | { readonly kind: 'authenticated'; readonly result: AuthenticationResult; readonly nonPayment: boolean }
  /** … or reject with `code` (N, U, R, not participating, a 3RI request that needs the cardholder). */
  | { readonly kind: 'failed'; readonly code: string; readonly result?: AuthenticationResult }
  /** The shopper must answer: on the challenge page, or in their banking app (decoupled). */
  | {
      readonly kind: 'challenge' | 'decoupled';
      readonly ids: TransactionIds;
      readonly mandated: boolean;
      readonly nonPayment: boolean;
    }
  | { readonly kind: 'invalid'; readonly errors: ParameterError[] };

/** Whether the request carries an external authentication server's results. */
export function hasExternalAuthentication(request: PaymentRequest): boolean {
  const t = request.threeDSecure;
  return (
    t?.eci !== undefined ||
    t?.verificationId !== undefined ||
    t?.authenticationStatus !== undefined ||
    t?.dsTransactionId !== undefined
  );
}

/**
 * 3RI: `threeDSecure.channel` marks a merchant-initiated authentication (spec), except the EMV
 * device channels of a present shopper (01 app, 02 browser); `threeRIInd` names its type.
 */
export function isMerchantInitiated(request: PaymentRequest): boolean {
  const t = request.threeDSecure;
  if (t?.threeRIInd !== undefined) return true;
  const channel = t?.channel === undefined ? undefined : Number(t.channel);
  return channel !== undefined && channel !== 1 && channel !== 2;
}

let mandatoryPaths: readonly string[] | undefined;
/** The spec's "mandatory for 3-D Secure v2" fields of the shopper and the billing address. */
function mandatoryForV2(): readonly string[] {
  mandatoryPaths ??= taggedPaths(rootOf('payment'), '3ds2').filter(
    (path) => path.startsWith('customer.') || path.startsWith('billing.'),
  );
  return mandatoryPaths;
}

function valueAt(tree: unknown, path: string): unknown {
  let node = tree;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** The v2 fields missing from a request the gateway authenticates with a shopper present. */
export function missingForV2(request: PaymentRequest): ParameterError[] {
  const missing = mandatoryForV2().filter((path) => valueAt(request, path) === undefined);
  if (
    request.standingInstruction?.type === 'INSTALLMENT' &&
    request.standingInstruction.numberOfInstallments === undefined
  ) {
    missing.push('standingInstruction.numberOfInstallments');
  }
  return missing.map((name) => ({
    name,
    value: null,
    message:
      'is mandatory for 3-D Secure v2: this channel authenticates the shopper and the card is enrolled',
  }));
}

/** What the gateway does about 3-D Secure for an initial payment with a new card. */
export function authenticationOf(
  channel: Channel,
  internal: boolean,
  brand: string,
  request: PaymentRequest,
): Authentication {
  if (hasExternalAuthentication(request)) return { kind: 'external' };
  const number = request.card?.number;
  const t = request.threeDSecure;
  if (!internal || channel.settings.threeDSecure !== true || number === undefined || t?.disable === 'true') {
    return { kind: 'none' };
  }
  const profile = profileOf({
    number,
    ...(request.customParameters === undefined ? {} : { customParameters: request.customParameters }),
    ...(t?.challengeIndicator === undefined ? {} : { challengeIndicator: t.challengeIndicator }),
    ...(t?.exemptionFlag === undefined ? {} : { exemptionFlag: t.exemptionFlag }),
  });
  if (profile === undefined) return { kind: 'none' };

  const merchantInitiated = isMerchantInitiated(request);
  if (!merchantInitiated) {
    const errors = missingForV2(request);
    if (errors.length > 0) return { kind: 'invalid', errors };
  }
  if (profile.flow === 'not-participating')
    return { kind: 'failed', code: AuthenticationCodes.NOT_PARTICIPATING };

  const ids = newTransactionIds();
  const nonPayment = t?.npa === 'true';
  if (profile.flow === 'frictionless') {
    const result = authenticationResult(brand, profile.status, ids);
    if (proceeds(profile.status)) return { kind: 'authenticated', result, nonPayment };
    return { kind: 'failed', code: failureCodeOf(profile.status as 'U' | 'N' | 'R'), result };
  }
  // A challenge: a merchant-initiated request has no shopper to ask.
  if (merchantInitiated) {
    return {
      kind: 'failed',
      code: AuthenticationCodes.CARDHOLDER_REQUIRED,
      result: authenticationResult(brand, 'N', ids),
    };
  }
  return {
    kind: t?.decoupled === 'true' ? 'decoupled' : 'challenge',
    ids,
    mandated: t?.challengeIndicator === '04',
    nonPayment,
  };
}
