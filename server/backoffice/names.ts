/**
 * The one rule for the names an operator gives merchants and channels, whichever face they come
 * through, and the ids' shape: the contract's (shared/contract/admin-inputs.ts), where the
 * OpenAPI document reads them too.
 */
export { displayName, ID, MAX_NAME_LENGTH } from '../../shared/contract/admin-inputs';
