export {
  BANK_BRAND_SPECS,
  type BankBrand,
  type BankBrandSpec,
  isBankBrand,
} from './bank-brands';
export {
  CARD_BRAND_SPECS,
  CARD_BRANDS,
  type CardBrand,
  type CardBrandInfo,
  type CardBrandSpec,
  cardBrandInfo,
  type IinRange,
  isCardBrand,
} from './card-brands';
export {
  binOf,
  type CardNumberCheck,
  type CardNumberFailure,
  cvvLengthOf,
  type ExpiryCheck,
  last4Of,
  maskPan,
  validateCardNumber,
  validateCvv,
  validateExpiry,
} from './card-checks';
export { detectBrand, detectBrands, normalizeCardNumber } from './detect';
export {
  IBAN_LENGTHS,
  type IbanCheck,
  type IbanFailure,
  ibanBankCode,
  ibanLengthOf,
  maskIban,
  normalizeIban,
  validateBic,
  validateIban,
} from './iban';
export { type IinMatch, inIinRanges, matchIin } from './iin';
export { luhnCheckDigit, luhnValid } from './luhn';
export {
  type AccountGroup,
  BRANDS,
  type BrandEntry,
  type BrandKind,
  brandGroup,
  brandInfo,
  brandKind,
  isKnownBrand,
  type KnownBrand,
  listBrands,
  registerBrand,
} from './registry';
