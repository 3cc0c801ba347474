/**
 * Bank account data at rest, sealed by the vault field by field: the implementation lives in
 * shared/sealing/account-data.ts (storage uses it without importing server/security); this module
 * keeps the names the server has always imported.
 */
export {
  type AccountSealer,
  accountSealer,
  isSealed,
  type SealingVault,
} from '../../shared/sealing/account-data';
