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
export {
  ACCOUNT_DATA,
  type AccountDatum,
  type BrandDef,
  type BrandOfKind,
  type CardData,
  type CatalogueBrand,
  catalogueBrands,
  catalogueEntry,
  METHOD_CODES,
  METHODS,
  PAYMENT_BRANDS,
} from './catalogue';
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
  brandAccountData,
  brandDisplayName,
  brandFlow,
  brandGroup,
  brandInfo,
  brandKind,
  brandMethod,
  brandsOfMethods,
  type Flow,
  isKnownBrand,
  isMethodCode,
  type KnownBrand,
  listBrands,
  type MethodCode,
  paysToMerchantAccount,
  registerBrand,
} from './registry';
