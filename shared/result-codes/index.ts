/**
 * OPP result codes: catalogue lookup and group classification.
 * Framework-free and browser-safe: imports nothing but its own files.
 */
import { type KnownResultCode, RESULT_CODES } from './catalogue.data';
import { type GroupId, RESULT_CODE_GROUPS } from './groups';

export type { KnownResultCode } from './catalogue.data';
export { RESULT_CODES } from './catalogue.data';
export type { GroupId, ResultCodeGroup } from './groups';
export { RESULT_CODE_GROUPS } from './groups';

/** A result code `ddd.ddd.ddd` (not necessarily one in the catalogue). */
export type ResultCode = string;

const CODE_FORMAT = /^\d{3}\.\d{3}\.\d{3}$/;
const DESCRIPTIONS: ReadonlyMap<string, string> = new Map(RESULT_CODES);

/**
 * The group a code belongs to: the first group (in evaluation order) whose pattern matches.
 * `undefined` for malformed codes and for codes no published group covers (e.g. 000.500.x).
 */
export function resultCodeGroup(code: ResultCode): GroupId | undefined {
  if (!CODE_FORMAT.test(code)) return undefined;
  for (const group of RESULT_CODE_GROUPS) {
    if (group.pattern.test(code)) return group.id;
  }
  return undefined;
}

/** Successfully processed (group 1 only; 000.100.2xx chargeback codes are not successes). */
export function isSuccess(code: ResultCode): boolean {
  return resultCodeGroup(code) === 'success';
}

/** Successfully processed, but should be reviewed manually. */
export function isSuccessReview(code: ResultCode): boolean {
  return resultCodeGroup(code) === 'successReview';
}

/** Either pending group (open session, or may change after several days). */
export function isPending(code: ResultCode): boolean {
  const group = resultCodeGroup(code);
  return group === 'pending' || group === 'pendingLong';
}

/** Anything that is not success, success-review or pending — including unclassified and unknown codes. */
export function isRejected(code: ResultCode): boolean {
  return !isSuccess(code) && !isSuccessReview(code) && !isPending(code);
}

/** The platform's description of a catalogue code. */
export function describe(code: ResultCode): string | undefined {
  return DESCRIPTIONS.get(code);
}

export function isKnownCode(code: ResultCode): code is KnownResultCode {
  return DESCRIPTIONS.has(code);
}

/** Named codes the gateway emits. `satisfies` makes a typo or a code not in the catalogue a type error. */
export const ResultCodes = {
  // success (§1.5)
  SUCCESS_LIVE: '000.000.000',
  SUCCESSFUL_REQUEST: '000.000.100',
  SUCCESS_INTERNAL: '000.100.110',
  SUCCESS_VALIDATOR: '000.100.111',
  SUCCESS_EXTERNAL: '000.100.112',
  // pending / checkout lifecycle (§1.5)
  PENDING: '000.200.000',
  CHECKOUT_CREATED: '000.200.100',
  CHECKOUT_UPDATED: '000.200.101',
  CHECKOUT_DELETED: '000.200.102',
  CHECKOUT_PENDING: '000.200.103',
  // request / auth (§1.3, §1.5)
  INVALID_HTTP_METHOD: '200.300.403',
  INVALID_PARAMETER: '200.300.404',
  DUPLICATE_ENTITY: '200.300.405',
  ENTITY_NOT_FOUND: '200.300.406',
  ENTITY_NOT_SPECIFIC: '200.300.407',
  INVALID_AUTH: '800.900.300',
  // risk validation (§1.5, §8)
  DUPLICATE_TRANSACTION: '800.110.100',
  THROTTLED: '800.120.100',
  // asynchronous workflow (§1.5)
  CANCELLED_BY_USER: '100.396.101',
  PENDING_TIMED_OUT: '100.396.103',
  // account validation
  INVALID_CARD_LUHN: '100.100.101',
  CARD_EXPIRED: '100.100.303',
  INVALID_EXPIRY_FORMAT: '100.100.305',
  INVALID_BRAND: '100.100.501',
  CVV_MISSING: '100.100.600',
  INVALID_CVV_FOR_BRAND: '100.100.601',
  CARD_NUMBER_BRAND_MISMATCH: '100.100.700',
  INVALID_BANK_ACCOUNT_FORMAT: '100.200.104',
  VIRTUAL_ACCOUNT_INVALID_ID: '100.210.101',
  VIRTUAL_ACCOUNT_INVALID_BRAND: '100.210.102',
  /** A brand the gateway does not know (decisions: Payment methods and environments). */
  INVALID_PAYMENT_METHOD: '600.200.100',
  UNSUPPORTED_PAYMENT_METHOD: '600.200.200',
  CHANNEL_NOT_CONFIGURED_FOR_METHOD: '600.200.201',
  /** A currency the channel does not accept (ChannelSettings.currencies). */
  CHANNEL_NOT_CONFIGURED_FOR_CURRENCY: '600.200.500',
  /** testMode=EXTERNAL on a channel without a connector, refused when the checkout is created. */
  CHANNEL_NOT_CONFIGURED_FOR_MODE: '600.200.700',
  // registrations (§3)
  REGISTRATION_NO_ACCOUNT_DATA: '100.150.100',
  REGISTRATION_NOT_FOUND: '100.150.200',
  REGISTRATION_NOT_CONFIRMED: '100.150.201',
  REGISTRATION_DEREGISTERED: '100.150.202',
  CANNOT_DEREGISTER: '100.350.303',
  // referencing workflow (§1.5, §2.2)
  REFERENCE_NOT_FOUND: '700.100.100',
  /** An unknown payment id, read or referenced (decisions): "cannot find transaction". */
  TRANSACTION_NOT_FOUND: '700.400.580',
  REFERENCE_AMOUNT_MISMATCH: '700.100.200',
  REFERENCE_INVALID_AMOUNT: '700.100.300',
  REFERENCE_CURRENCY_MISMATCH: '700.100.500',
  REFERENCE_INAPPROPRIATE_TYPE: '700.100.700',
  REFERENCE_REJECTED: '700.300.200',
  REFERENCE_ALREADY_PROCESSED: '700.300.300',
  CAPTURE_CUTOFF_REACHED: '700.300.400',
  REVERSAL_NOT_POSSIBLE: '700.300.700',
  CANNOT_CAPTURE: '700.400.100',
  CANNOT_REFUND: '700.400.200',
  CANNOT_REVERSE: '700.400.300',
  CHARGEBACK_INTERNAL_ONLY: '700.400.402',
  CAPTURE_NEEDS_PA: '700.400.510',
  REFUND_NEEDS_CAPTURE_OR_DEBIT: '700.400.520',
  REVERSAL_NEEDS_CAPTURE_DEBIT_OR_PA: '700.400.530',
  REFERENCE_PENDING: '700.400.570',
  CHANNEL_MISMATCH: '700.400.700',
  // bank declines (§1.5)
  DECLINED_INVALID_CARD: '800.100.151',
  DECLINED_BY_AUTHORIZATION_SYSTEM: '800.100.152',
  DECLINED_INVALID_CVV: '800.100.153',
  DECLINED_MARKED_INVALID: '800.100.154',
  DECLINED_AMOUNT_EXCEEDS_CREDIT: '800.100.155',
  DECLINED_FORMAT_ERROR: '800.100.156',
  DECLINED_WRONG_EXPIRY: '800.100.157',
  // communication / system (§1.5)
  TIMEOUT_UNCERTAIN: '900.100.300',
  UNDEFINED_CONNECTOR_ERROR: '999.999.999',
} as const satisfies Record<string, KnownResultCode>;

export type ResultCodeName = keyof typeof ResultCodes;

/** Body of `GET /v1/resultcodes` (§1.2): every catalogue code, sorted by code. */
export interface ResultCodesResponse {
  resultCodes: { code: ResultCode; description: string }[];
}

export function resultCodesResponse(): ResultCodesResponse {
  return { resultCodes: RESULT_CODES.map(([code, description]) => ({ code, description })) };
}
