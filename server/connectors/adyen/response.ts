/**
 * The adyen kind's response transformer: Adyen's Checkout API v71 answers → the kit's
 * ConnectorAnswer (DECISIONS, "Connectors and processors").
 *
 * - `resultCode` (PaymentResponse, PaymentDetailsResponse): Authorised is a success; Refused a
 *   decline of the spec's §1 by its `refusalReasonCode` (REFUSALS); Cancelled the shopper's
 *   cancel; Error a failure with nothing paid; Received and Pending pending (the outcome comes in
 *   a notification); RedirectShopper, ChallengeShopper and IdentifyShopper pending with Adyen's
 *   `action` as the redirect the shopper is sent to.
 * - `pspReference` is the processor's id (ConnectorTxID1); Adyen's own code stays in
 *   `processorCode` (resultDetails.AcquirerResponse).
 * - `additionalData`: cvcResult and avsResult → cvvResponse and avsResponse; the card's funding
 *   source, issuer country and scheme's transaction reference → card details and resultDetails.
 * - modifications answered `status: received` are accepted: the mode's success now, the
 *   outcome in Adyen's CAPTURE/REFUND/CANCELLATION notification.
 * - an error body (ServiceError: `status`, `errorCode`, `message`, `errorType`) is a refusal:
 *   validation errors of a reference as 700.x, the rest as 999.999.999.
 */
import type { ProcessorRedirect } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import type { ConnectorAnswer } from '../kit/contract';

/** The kit's answer, and what a registration needs of it. */
export type AdyenAnswer = ConnectorAnswer & {
  /** A stored card's id at Adyen (`tokenization.storedPaymentMethodId`), for registrations. */
  readonly storedPaymentMethodId?: string;
};

type Json = Readonly<Record<string, unknown>>;

/** A registration's id at Adyen: the stored card and the shopper it is stored for. */
export const registrationIdOf = (stored: string, shopperReference: string) => `${stored}:${shopperReference}`;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Adyen's refusal reason codes (docs.adyen.com, "Refusal reasons") → the family's decline codes
 * (spec §1). A code not here is "declined for an unknown reason".
 */
export const REFUSALS: Readonly<Record<string, string>> = {
  '2': '800.100.152', // Refused: the issuer refused, without a reason
  '3': '800.100.152', // Referral: the issuer asks for a voice authorisation
  '4': '800.100.152', // Acquirer Error: the acquirer refused (technical at their side, final)
  '5': '800.100.160', // Blocked Card: the card is blocked
  '6': '800.100.157', // Expired Card: the card has expired, or the expiry date is wrong
  '7': '800.100.174', // Invalid Amount: the amount is not valid for the card
  '8': '800.100.151', // Invalid Card Number: the number is wrong or does not exist
  '9': '800.100.176', // Issuer Unavailable: the issuer cannot be reached; try later
  '10': '800.100.169', // Not supported: the card type or method is not supported
  '11': '100.390.114', // 3D Not Authenticated: 3-D Secure authentication failed
  '12': '800.100.155', // Not enough balance: insufficient funds
  '14': '800.100.158', // Acquirer Fraud: the acquirer suspects fraud
  '15': '100.396.101', // Cancelled: cancelled before processing ended
  '16': '100.396.101', // Shopper Cancelled: the shopper cancelled
  '17': '800.100.166', // Invalid Pin: incorrect PIN
  '18': '800.100.178', // Pin tries exceeded
  '20': '800.100.158', // FRAUD: Adyen's risk checks blocked the payment
  '22': '800.100.158', // FRAUD-CANCELLED: cancelled for fraud after authorisation
  '23': '800.100.170', // Transaction Not Permitted: not allowed for this card
  '24': '800.100.153', // CVC Declined: the security code is wrong
  '25': '800.100.168', // Restricted Card: the card may not be used (country, merchant category)
  '26': '800.100.170', // Revocation Of Auth: the shopper revoked a standing instruction
  '27': '800.100.152', // Declined Non Generic: the issuer declined, reason not given to Adyen
  '28': '800.100.162', // Withdrawal amount exceeded: the card's limit
  '29': '800.100.179', // Withdrawal count exceeded: too many payments
  '31': '800.100.158', // Issuer Suspected Fraud
  '32': '800.400.100', // AVS Declined: the address verification failed
  '38': '100.390.114', // Authentication required: the issuer wants 3-D Secure
  '42': '100.390.112', // 3DS Authentication Error: technical error in 3-D Secure
};

/** Adyen's cvcResult ("1 Matches") → the family's cvvResponse letter. */
const CVC_RESULTS: Readonly<Record<string, string>> = {
  '1': 'M', // Matches
  '2': 'N', // Doesn't match
  '3': 'P', // Not checked
  '4': 'S', // No CVC/CVV provided, but was required
  '5': 'U', // Issuer not certified for CVC/CVV
  '6': 'P', // No CVC/CVV provided
};

/** Adyen's avsResult ("7 Both postal code and address match") → the family's avsResponse letter. */
const AVS_RESULTS: Readonly<Record<string, string>> = {
  '1': 'A', // Address matches, postal code doesn't
  '2': 'N', // Neither postal code nor address match
  '3': 'U', // AVS unavailable
  '4': 'U', // AVS not supported for this card type
  '5': 'U', // No AVS data provided
  '6': 'Z', // Postal code matches, address doesn't match
  '7': 'F', // Both postal code and address match
  '20': 'F', // Name, address and postal code matches
};

/** The leading number of Adyen's "N text" result fields. */
const leading = (value: string | undefined) => value?.match(/^\d+/)?.[0];

/** avsResponse/cvvResponse of Adyen's additionalData. */
function checks(additional: Json): Record<string, string> | undefined {
  const cvv = CVC_RESULTS[leading(text(additional.cvcResult)) ?? ''];
  const avs = AVS_RESULTS[leading(text(additional.avsResult)) ?? ''];
  if (cvv === undefined && avs === undefined) return undefined;
  return {
    ...(avs === undefined ? {} : { avsResponse: avs }),
    ...(cvv === undefined ? {} : { cvvResponse: cvv }),
  };
}

/** The card details Adyen tells (never the number: Adyen answers none). */
function cardDetails(additional: Json): Record<string, string> | undefined {
  const funding = text(additional.fundingSource);
  const country = text(additional.issuerCountry);
  const out: Record<string, string> = {
    ...(funding === undefined ? {} : { type: funding.toUpperCase() }),
    ...(country === undefined ? {} : { binCountry: country }),
  };
  return Object.keys(out).length === 0 ? undefined : out;
}

/** What Adyen's additionalData adds to resultDetails: the scheme's ids and 3-D Secure results. */
const PASSED_ON = ['networkTxReference', 'authCode', 'liabilityShift'] as const;

function details(additional: Json, refusalReason: string | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of PASSED_ON) {
    const value = text(additional[name]);
    if (value !== undefined) out[name] = value;
  }
  if (refusalReason !== undefined) out.refusalReason = refusalReason;
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * Adyen's 3-D Secure results in additionalData (docs.adyen.com, "3D Secure 2 authentication
 * data in the response") → the family's threeDSecure.* names.
 */
const THREE_D_SECURE: readonly (readonly [adyen: string, family: string])[] = [
  ['eci', 'eci'],
  ['cavv', 'verificationId'],
  ['xid', 'xid'],
  ['dsTransID', 'dsTransactionId'],
  ['threeDSVersion', 'version'],
  ['threeDAuthenticatedResponse', 'authenticationStatus'],
];

function threeDSecureOf(additional: Json): Record<string, string> | undefined {
  if (text(additional.threeDAuthenticated) === undefined && text(additional.threeDOffered) === undefined)
    return undefined;
  const out: Record<string, string> = {};
  for (const [adyen, family] of THREE_D_SECURE) {
    const value = text(additional[adyen]);
    if (value !== undefined) out[family] = value;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Adyen's `action` (redirect, or a 3-D Secure 2 page with its own url) as a redirect. */
export function redirectOf(action: unknown): ProcessorRedirect | undefined {
  if (!isObject(action)) return undefined;
  const url = text(action.url);
  if (url === undefined) return undefined;
  const method = text(action.method)?.toUpperCase() === 'POST' ? 'POST' : 'GET';
  const parameters: { name: string; value: string }[] = [];
  if (isObject(action.data))
    for (const [name, value] of Object.entries(action.data))
      if (typeof value === 'string') parameters.push({ name, value });
  if (method === 'POST') return { url, method, parameters };
  // A browser submitting a GET form drops the action's query: it goes as the form's fields.
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  for (const [name, value] of target.searchParams) parameters.push({ name, value });
  target.search = '';
  return { url: target.toString(), method, parameters };
}

/** The family's code of Adyen's resultCode (and refusal reason). */
function familyCode(resultCode: string | undefined, reasonCode: string | undefined): string {
  switch (resultCode) {
    case 'Authorised':
      return ResultCodes.SUCCESS_LIVE;
    case 'Refused':
      return REFUSALS[reasonCode ?? ''] ?? '800.100.100';
    case 'Cancelled':
      return ResultCodes.CANCELLED_BY_USER;
    case 'Received':
    case 'Pending':
    case 'RedirectShopper':
    case 'ChallengeShopper':
    case 'IdentifyShopper':
      return ResultCodes.PENDING;
    default:
      // Error, and what this gateway never asks for (PartiallyAuthorised, PresentToShopper…)
      return ResultCodes.UNDEFINED_CONNECTOR_ERROR;
  }
}

/** Adyen's PaymentResponse or PaymentDetailsResponse, read; nothing unreadable in it trusted. */
export function paymentAnswer(json: unknown): AdyenAnswer {
  const body = isObject(json) ? json : {};
  const resultCode = text(body.resultCode);
  if (resultCode === undefined) return errorAnswer(json);
  const reasonCode = text(body.refusalReasonCode);
  const reason = text(body.refusalReason);
  const additional = isObject(body.additionalData) ? body.additionalData : {};
  const code = familyCode(resultCode, reasonCode);
  const redirect = code === ResultCodes.PENDING ? redirectOf(body.action) : undefined;
  const id = text(body.pspReference);
  // v71 answers `tokenization.storedPaymentMethodId`; older accounts `recurring.recurringDetailReference`
  const stored =
    text(additional['tokenization.storedPaymentMethodId']) ??
    text(additional['recurring.recurringDetailReference']);
  const result = checks(additional);
  const card = cardDetails(additional);
  const resultDetails = details(additional, reason);
  const threeDSecure = threeDSecureOf(additional);
  return {
    code,
    processorCode:
      resultCode === 'Refused' && reasonCode !== undefined ? `Refused ${reasonCode}` : resultCode,
    ...(reason === undefined ? {} : { description: reason }),
    ...(id === undefined ? {} : { id }),
    ...(result === undefined ? {} : { result }),
    ...(card === undefined ? {} : { card }),
    ...(resultDetails === undefined ? {} : { resultDetails }),
    ...(redirect === undefined ? {} : { redirect }),
    ...(threeDSecure === undefined ? {} : { threeDSecure }),
    ...(stored === undefined ? {} : { storedPaymentMethodId: stored }),
  };
}

/** A modification's answer (PaymentCaptureResponse, …): `received` is accepted for processing. */
export function modificationAnswer(json: unknown): AdyenAnswer {
  const body = isObject(json) ? json : {};
  if (text(body.status) !== 'received') return errorAnswer(json);
  // its own pspReference is what its notification names; the payment's is kept for what follows
  const id = text(body.pspReference);
  const payment = text(body.paymentPspReference);
  return {
    code: ResultCodes.SUCCESS_LIVE,
    processorCode: 'received',
    ...(id === undefined ? {} : { id }),
    ...(payment === undefined ? {} : { resultDetails: { paymentPspReference: payment } }),
  };
}

/**
 * Adyen's validation error codes of a modification that refer to the payment referenced
 * (docs.adyen.com, "API error codes") → the family's referencing codes.
 */
const MODIFICATION_ERRORS: Readonly<Record<string, string>> = {
  '137': ResultCodes.REFERENCE_INVALID_AMOUNT, // Invalid amount specified
  '167': ResultCodes.REFERENCE_NOT_FOUND, // Original pspReference required for this operation
};

/** Adyen's ServiceError (or anything unreadable) as a refusal, Adyen's errorCode kept. */
export function errorAnswer(json: unknown): AdyenAnswer {
  const body = isObject(json) ? json : {};
  const errorCode = text(body.errorCode);
  const message = text(body.message);
  return {
    code: MODIFICATION_ERRORS[errorCode ?? ''] ?? ResultCodes.UNDEFINED_CONNECTOR_ERROR,
    ...(errorCode === undefined ? {} : { processorCode: `${text(body.errorType) ?? 'error'} ${errorCode}` }),
    ...(message === undefined ? {} : { description: message }),
  };
}
