/**
 * The stripe kind's response transformer: a PaymentIntent, a Refund, a SetupIntent or an error
 * of Stripe's → the kit's ConnectorAnswer. The PaymentIntent's `status` says what happened:
 * `succeeded` (captured), `requires_capture` (authorised, held for the capture) are successes;
 * `requires_action` with `next_action.redirect_to_url` is pending with Stripe's 3-D Secure page
 * (or a bank redirect's page) as the redirect; `processing` is pending (Stripe's webhook or an inquiry tells the end);
 * `canceled` is a successful reversal when cancelling, a failed payment otherwise;
 * `requires_payment_method` a decline (its `last_payment_error`). The latest charge gives the
 * card's checks (AVS, CVC), brand, country and funding, and its 3-D Secure results.
 */
import type Stripe from 'stripe';
import { ResultCodes } from '../../../shared/result-codes';
import type { ConnectorAnswer } from '../kit/contract';
import { declineCodeOf } from './declines';

/** 900.100.200 "error response from connector/acquirer": Stripe refused the request itself. */
const ERROR_RESPONSE = '900.100.200';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Answer = Mutable<ConnectorAnswer>;

/** Stripe's check results → the family's AVS letters (the spec's avsResponse). */
const AVS: Readonly<Record<string, string>> = {
  'pass/pass': 'F', // address and postcode match
  'pass/fail': 'A', // address matches, postcode does not
  'fail/pass': 'Z', // postcode matches, address does not
  'fail/fail': 'N', // neither matches
};

/** Stripe's cvc_check → the family's cvvResponse (M match, N no match, U not checked). */
const CVV: Readonly<Record<string, string>> = { pass: 'M', fail: 'N', unavailable: 'U', unchecked: 'P' };

/** three_d_secure.result → the EMV transStatus the family answers as authenticationStatus. */
const AUTHENTICATION_STATUS: Readonly<Record<string, string>> = {
  authenticated: 'Y',
  attempt_acknowledged: 'A',
  exempted: 'I',
  not_supported: 'U',
  processing_error: 'U',
  failed: 'N',
};

/** Stripe's funding → the family's card.type. */
const FUNDING: Readonly<Record<string, string>> = { credit: 'CREDIT', debit: 'DEBIT', prepaid: 'PREPAID' };

type CardDetails = Stripe.Charge.PaymentMethodDetails.Card;

function checksOf(card: CardDetails): Record<string, string> | undefined {
  const checks = card.checks;
  if (checks === null || checks === undefined) return undefined;
  const result: Record<string, string> = {};
  const line1 = checks.address_line1_check;
  const postcode = checks.address_postal_code_check;
  const avs = line1 !== null && postcode !== null ? AVS[`${line1}/${postcode}`] : undefined;
  if (avs !== undefined) result.avsResponse = avs;
  const cvv = checks.cvc_check === null ? undefined : CVV[checks.cvc_check];
  if (cvv !== undefined) result.cvvResponse = cvv;
  return Object.keys(result).length === 0 ? undefined : result;
}

function threeDSecureOf(card: CardDetails): Record<string, string> | undefined {
  const tds = card.three_d_secure;
  if (tds === null || tds === undefined) return undefined;
  const out: Record<string, string> = {};
  const status = tds.result === null ? undefined : AUTHENTICATION_STATUS[tds.result];
  if (status !== undefined) out.authenticationStatus = status;
  const eci = (tds as { electronic_commerce_indicator?: string | null }).electronic_commerce_indicator;
  if (typeof eci === 'string') out.eci = eci;
  if (typeof tds.transaction_id === 'string') out.dsTransactionId = tds.transaction_id;
  if (typeof tds.version === 'string') out.version = tds.version;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** What the latest charge adds to an answer: checks, card details, 3-D Secure, the network's id. */
function fromCharge(charge: Stripe.PaymentIntent['latest_charge'], into: Answer): void {
  if (charge === null || typeof charge !== 'object') return;
  // a bank redirect's charge has no card: its id is all it adds
  into.resultDetails = { ConnectorTxID2: charge.id };
  const card = charge.payment_method_details?.card;
  if (card === undefined || card === null) return;
  const checks = checksOf(card);
  if (checks !== undefined) into.result = checks;
  const details: Record<string, string> = {};
  if (card.funding !== null && FUNDING[card.funding] !== undefined)
    details.type = FUNDING[card.funding] as string;
  if (card.country !== null) details.binCountry = card.country;
  if (Object.keys(details).length > 0) into.card = details;
  const tds = threeDSecureOf(card);
  if (tds !== undefined) into.threeDSecure = tds;
  const resultDetails: Record<string, string> = { ConnectorTxID2: charge.id };
  if (typeof card.network_transaction_id === 'string')
    resultDetails.NetworkTransactionId = card.network_transaction_id;
  if (typeof card.authorization_code === 'string') resultDetails.AuthCode = card.authorization_code;
  into.resultDetails = resultDetails;
}

/** What a PaymentIntent says, as the kit's answer; `cancelling` when it answers a cancel (RV). */
export function intentAnswer(intent: Stripe.PaymentIntent, cancelling = false): ConnectorAnswer {
  const answer: Answer = {
    code: ResultCodes.UNDEFINED_CONNECTOR_ERROR,
    id: intent.id,
    processorCode: intent.status,
  };
  fromCharge(intent.latest_charge, answer);
  switch (intent.status) {
    case 'succeeded':
    case 'requires_capture':
      answer.code = ResultCodes.SUCCESS_LIVE;
      break;
    case 'canceled':
      answer.code = cancelling ? ResultCodes.SUCCESS_LIVE : ResultCodes.CANCELLED_BY_USER;
      break;
    case 'processing':
      answer.code = ResultCodes.PENDING;
      break;
    case 'requires_action': {
      answer.code = ResultCodes.PENDING;
      const redirect = intent.next_action?.redirect_to_url;
      if (intent.next_action?.type === 'redirect_to_url' && redirect?.url)
        answer.redirect = { url: redirect.url, method: 'GET', parameters: [] };
      break;
    }
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      answer.code =
        error === null
          ? ResultCodes.UNDEFINED_CONNECTOR_ERROR
          : declineCodeOf(error.decline_code, error.code);
      if (error !== null) answer.processorCode = error.decline_code ?? error.code ?? error.type;
      if (error?.message) answer.description = error.message;
      break;
    }
    default:
      // requires_confirmation: created but not confirmed; nothing was charged
      answer.code = ResultCodes.UNDEFINED_CONNECTOR_ERROR;
  }
  return answer;
}

/** A refund: `succeeded` (or Stripe's `pending`, which settles on its own) is a success. */
export function refundAnswer(refund: Stripe.Refund): ConnectorAnswer {
  const ok = refund.status === 'succeeded' || refund.status === 'pending';
  return {
    code: ok ? ResultCodes.SUCCESS_LIVE : ResultCodes.CANNOT_REFUND,
    id: refund.id,
    processorCode: refund.status ?? 'unknown',
  };
}

/** A SetupIntent of a registration: its registration id is the customer's and the card's. */
export function setupAnswer(setup: Stripe.SetupIntent, registrationId: string | undefined): ConnectorAnswer {
  if (setup.status === 'succeeded' && registrationId !== undefined)
    return { code: ResultCodes.SUCCESS_LIVE, id: setup.id, registrationId, processorCode: setup.status };
  const error = setup.last_setup_error;
  return {
    code:
      error === null ? ResultCodes.UNDEFINED_CONNECTOR_ERROR : declineCodeOf(error.decline_code, error.code),
    id: setup.id,
    processorCode: error?.decline_code ?? error?.code ?? setup.status,
  };
}

/** The family's code of an invalid request, by what was asked: the workflow's refusals. */
const REFUSED_BY_OPERATION: Readonly<Record<string, string>> = {
  capture: ResultCodes.CANNOT_CAPTURE,
  refund: ResultCodes.CANNOT_REFUND,
  reverse: ResultCodes.CANNOT_REVERSE,
};

/** The error JSON Stripe answered (`raw` of the SDK's errors). */
interface RawError {
  readonly type?: string;
  readonly code?: string;
  readonly decline_code?: string;
  readonly message?: string;
  readonly payment_intent?: Stripe.PaymentIntent;
}

/**
 * A Stripe error answer (the SDK's StripeError: card, invalid request, authentication, rate
 * limit, API), as the kit's answer for `operation`. A card error carries the PaymentIntent it
 * declined: its id is kept. A 5xx of Stripe's is uncertain (Stripe says to retry with the same
 * idempotency key: whether it was processed is not known).
 */
export function errorAnswer(
  error: { readonly statusCode?: number; readonly raw?: unknown },
  operation: string,
): ConnectorAnswer {
  const raw = (typeof error.raw === 'object' && error.raw !== null ? error.raw : {}) as RawError;
  const processorCode = raw.decline_code ?? raw.code ?? raw.type ?? `http_${error.statusCode ?? 'unknown'}`;
  const theirId = raw.payment_intent?.id;
  const base = {
    processorCode,
    ...(raw.message === undefined ? {} : { description: raw.message }),
    ...(theirId === undefined ? {} : { id: theirId }),
  };
  if (raw.type === 'card_error') return { ...base, code: declineCodeOf(raw.decline_code, raw.code) };
  // Stripe's own failure (5xx, api_error) or an answer that is not Stripe's error: maybe processed
  if ((error.statusCode ?? 0) >= 500 || raw.type === undefined || raw.type === 'api_error')
    return { ...base, code: ResultCodes.TIMEOUT_UNCERTAIN, technical: 'uncertain' };
  if (raw.type === 'invalid_request_error' && REFUSED_BY_OPERATION[operation] !== undefined)
    return { ...base, code: REFUSED_BY_OPERATION[operation] as string };
  // the connector's credentials refused (401), a rate limit (429), a request Stripe will not take
  return { ...base, code: ERROR_RESPONSE };
}
