/**
 * 3-D Secure for an initial card payment: who authenticates the shopper, and with what outcome.
 *
 * - The values of an external authentication server (eci, verificationId, authenticationStatus,
 *   dsTransactionId, and a 3-D Secure 1 server's xid) are passed through: no authentication of
 *   ours (spec: 3-D Secure; DECISIONS, "Fidelity to the family").
 * - Otherwise the gateway authenticates when the channel has 3-D Secure on, the card is enrolled
 *   and `threeDSecure.disable` is not true (spec: "true bypasses 3-D Secure even when configured;
 *   false does not turn it on"). Only test mode INTERNAL has an access control server to ask
 *   (the simulator processor's accessControlServer); connectors authenticate on their side.
 * - When it applies to a shopper who is present at the gateway's widget (a checkout submission),
 *   the fields the spec marks "mandatory for 3-D Secure v2" (tagged `3ds2` in the catalogue) must
 *   be there, or the request is refused naming each: the widget then asks the shopper for exactly
 *   those (DECISIONS "Widget and 3-D Secure v2 data"). A server-to-server payment is authenticated
 *   with what its merchant sent, as the family's platform does: Hyperswitch's ACI connector sends
 *   an enrolled card without browser or billing data and the family answers with the challenge
 *   (DECISIONS "Fidelity to the family"; server/fidelity/corpus/hyperswitch-aci.ts). A merchant-initiated (3RI) request has no browser, so needs none of them; an
 *   app-based one (`threeDSecure.deviceInfo`, spec: "needed to start the app-based v2 flow")
 *   has the app's device data instead of a browser, so needs the billing address only.
 * - A stand-alone authentication (POST /v1/threeDSecure) asks for one explicitly: it skips the
 *   channel's setting and goes straight to `authenticateCard`.
 */
import type { ParameterError } from '../../params/errors';
import { type RequestOf, rootOf } from '../../params/requests';
import { taggedPaths } from '../../params/tags';
import { type Invalid, invalid } from '../core/failure';
import type { Channel } from '../core/model';
import type {
  AccessControlServer,
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationStatus,
  TransactionIds,
} from '../core/ports';

/** The family's payment type of a stand-alone 3-D Secure transaction (facts §2.1): no money moves. */
export const AUTHENTICATION_PAYMENT_TYPE = '3D';

/** The EMV 3-D Secure protocol version the gateway speaks. */
export const PROTOCOL_VERSION = '2.2.0';

/** Statuses after which the payment goes on to the acquirer. */
export const proceeds = (status: AuthenticationStatus): boolean => status === 'Y' || status === 'A';

/**
 * The catalogue code a failed authentication is rejected with (G05 "3DS and Intercard risk
 * checks", G13 "3-D Secure").
 */
export function failureCodeOf(status: Exclude<AuthenticationStatus, 'Y' | 'A'>): string {
  switch (status) {
    case 'U':
      return '000.400.103'; // Technical Error in 3D system
    case 'N':
      return '000.400.102'; // user not enrolled
    case 'R':
      return '100.390.114'; // Not authenticated because the issuer is rejecting authentication
  }
}

export const AuthenticationCodes = {
  NOT_PARTICIPATING: '000.400.101',
  /** The one-time code was wrong (or the shopper chose to fail): Invalid Payer Authentication. */
  CHALLENGE_FAILED: '800.400.200',
  /** 3RI: the issuer wants the cardholder, who is not there (soft decline). */
  CARDHOLDER_REQUIRED: '300.100.100',
} as const;

type PaymentRequest = RequestOf<'payment'>;

/** What authenticating a card reads of a request: a payment's, or a stand-alone authentication's. */
export type AuthenticationSubject = Pick<
  PaymentRequest,
  | 'card'
  | 'threeDSecure'
  | 'customParameters'
  | 'customer'
  | 'billing'
  | 'standingInstruction'
  | 'amount'
  | 'currency'
  | 'risk'
>;

/**
 * The amount the shopper authenticates: `risk.amount` ("when present it is also the amount
 * authenticated in 3-D Secure", spec), else `threeDSecure.amount` (the authentication message's),
 * else the payment's `amount`; with `threeDSecure.currency`, else the payment's. Decimal strings
 * as sent, never floats.
 */
export function authenticatedAmount(request: AuthenticationSubject): {
  readonly amount?: string;
  readonly currency?: string;
} {
  const amount = request.risk?.amount ?? request.threeDSecure?.amount ?? request.amount;
  const currency = request.threeDSecure?.currency ?? request.currency;
  const out: { amount?: string; currency?: string } = {};
  if (amount !== undefined) out.amount = amount;
  if (currency !== undefined) out.currency = currency;
  return out;
}

/** Where the shopper is: in a browser (the challenge page), or in the merchant's app (its 3-D Secure SDK). */
export type Device = 'browser' | 'app';

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
      readonly device: Device;
    }
  /** The request lacks what the authentication needs (the v2 fields), each named. */
  | Invalid;

/** Whether the request carries an external authentication server's results. */
export function hasExternalAuthentication(request: AuthenticationSubject): boolean {
  const t = request.threeDSecure;
  return (
    t?.eci !== undefined ||
    t?.verificationId !== undefined ||
    t?.xid !== undefined ||
    t?.authenticationStatus !== undefined ||
    t?.dsTransactionId !== undefined
  );
}

/**
 * 3RI: `threeDSecure.channel` marks a merchant-initiated authentication (spec), except the EMV
 * device channels of a present shopper (01 app, 02 browser); `threeRIInd` names its type.
 */
export function isMerchantInitiated(request: AuthenticationSubject): boolean {
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

/** The app-based v2 flow: the app's 3-D Secure SDK sent its device data (spec: threeDSecure.deviceInfo). */
export const deviceOf = (request: AuthenticationSubject): Device =>
  request.threeDSecure?.deviceInfo === undefined ? 'browser' : 'app';

/** A v2 field the shopper's browser or address gives (not the merchant's own terms, as an instalment count). */
const isShoppersPart = (name: string): boolean => name.startsWith('customer.') || name.startsWith('billing.');

/** The v2 fields missing from a request the gateway authenticates with a shopper present. */
export function missingForV2(request: AuthenticationSubject): ParameterError[] {
  // In an app there is no browser to describe: the SDK's device data stands for it.
  const app = deviceOf(request) === 'app';
  const missing = mandatoryForV2().filter(
    (path) => valueAt(request, path) === undefined && !(app && path.startsWith('customer.browser.')),
  );
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
  /** The deciding processor's 3-D Secure (the simulator's); none: no authentication of ours. */
  acs: AccessControlServer | undefined,
  brand: string,
  request: PaymentRequest,
  /** The shopper is at the gateway's widget, which can ask for missing v2 fields. */
  atWidget: boolean,
): Authentication {
  if (hasExternalAuthentication(request)) return { kind: 'external' };
  if (
    acs === undefined ||
    channel.settings.threeDSecure !== true ||
    request.threeDSecure?.disable === 'true'
  ) {
    return { kind: 'none' };
  }
  return authenticateCard(acs, brand, request, atWidget);
}

/**
 * The card's authentication by the access control server: 'none' when the card is not enrolled
 * (or no card number is sent), else its flow. Initial payments and stand-alone authentications.
 */
export function authenticateCard(
  acs: AccessControlServer,
  brand: string,
  request: AuthenticationSubject,
  /** Refuse a request without the v2 fields, naming each (the widget's and stand-alone requests). */
  requireV2Fields = true,
): Authentication {
  const number = request.card?.number;
  const t = request.threeDSecure;
  if (number === undefined) return { kind: 'none' };
  // assigned, not spread amid a literal (V8's slow path): every card payment on a 3-D Secure channel asks
  const asked: { -readonly [K in keyof AuthenticationRequest]: AuthenticationRequest[K] } = { number };
  const money = authenticatedAmount(request);
  if (money.amount !== undefined) asked.amount = money.amount;
  if (money.currency !== undefined) asked.currency = money.currency;
  if (request.customParameters !== undefined) asked.customParameters = request.customParameters;
  if (t?.challengeIndicator !== undefined) asked.challengeIndicator = t.challengeIndicator;
  if (t?.exemptionFlag !== undefined) asked.exemptionFlag = t.exemptionFlag;
  const profile = acs.profileOf(asked);
  if (profile === undefined) return { kind: 'none' };

  const merchantInitiated = isMerchantInitiated(request);
  // What the shopper's side lacks: refused naming each where the widget can ask for it, else met
  // on the gateway's own page (a server-to-server shopper is sent there, as to a challenge).
  // An app has no page to be sent to: its merchant must send them.
  let meetShopper = false;
  if (!merchantInitiated) {
    const errors = missingForV2(request);
    const nameAll = requireV2Fields || deviceOf(request) === 'app';
    const refused = nameAll ? errors : errors.filter((e) => !isShoppersPart(e.name));
    if (refused.length > 0) return invalid(refused);
    meetShopper = errors.length > 0;
  }
  if (profile.flow === 'not-participating')
    return { kind: 'failed', code: AuthenticationCodes.NOT_PARTICIPATING };

  const ids = acs.newTransactionIds();
  const nonPayment = t?.npa === 'true';
  if (profile.flow === 'frictionless' && !meetShopper) {
    const result = acs.authenticationResult(brand, profile.status, ids);
    if (proceeds(profile.status)) return { kind: 'authenticated', result, nonPayment };
    return { kind: 'failed', code: failureCodeOf(profile.status as 'U' | 'N' | 'R'), result };
  }
  // A challenge: a merchant-initiated request has no shopper to ask.
  if (merchantInitiated) {
    return {
      kind: 'failed',
      code: AuthenticationCodes.CARDHOLDER_REQUIRED,
      result: acs.authenticationResult(brand, 'N', ids),
    };
  }
  return {
    kind: t?.decoupled === 'true' ? 'decoupled' : 'challenge',
    ids,
    mandated: t?.challengeIndicator === '04',
    nonPayment,
    device: deviceOf(request),
  };
}
