export type { Country } from './countries';
export {
  alpha2Of,
  alpha3Of,
  COUNTRIES,
  isCountry2,
  isCountry3,
  isCountryNumeric,
  numericOf,
} from './countries';
