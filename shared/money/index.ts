export type { Minor, RoundingMode, ToMinorError } from './amount';
export {
  AMT_PATTERN,
  addMinor,
  applyRate,
  asMinor,
  compareMinor,
  DEC2_PATTERN,
  fromMinor,
  isAmt,
  isDec2,
  isMinor,
  isToMinorError,
  RATE_PATTERN,
  roundDiv,
  roundMinor,
  subMinor,
  toMinor,
} from './amount';
export type { MinorUnitExponent } from './currencies';
export { CURRENCY_CODES, exponentOf, isCurrency } from './currencies';
