/**
 * Request kinds: which parameter groups each endpoint accepts and which it requires. A card
 * payment, a bank payment, a checkout creation, a referencing request, a registration and a
 * query all take the same catalogue; they differ only here.
 */

export { accountDataNeeded } from './account-data';
export {
  ENDPOINT_PARAMETERS,
  INITIAL_PAYMENT_TYPES,
  MAX_SUBMISSION_PARAMS,
  REFERENCING_PAYMENT_TYPES,
  REGISTRATION_PAYMENT_TYPES,
  REQUEST_KINDS,
  type RequestKind,
  type RequestOf,
  STANDALONE_RISK_TYPES,
} from './kinds';
export { listLimits, type ParsedRequest, parseRequest, rootOf, validateRequest } from './parse';
