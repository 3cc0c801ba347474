/**
 * Short names for the spec's format codes, so each catalogue file reads like the spec's table:
 * `holder: A(3, 128)` for "card.holder | A 3-128 | O".
 */
import { COUNTRIES } from '../../geo';
import type { Format } from '../formats';
import { type Leaf, type LeafOptions, leaf } from '../nodes';

type O = LeafOptions;

export const AN = (min: number, max: number, o?: O): Leaf => leaf({ t: 'AN', min, max }, o);
export const A = (min: number, max: number, o?: O): Leaf => leaf({ t: 'A', min, max }, o);
export const N = (min: number, max: number, o?: O): Leaf => leaf({ t: 'N', min, max }, o);
export const AMT = (o?: O): Leaf => leaf({ t: 'AMT' }, o);
export const DEC2 = (o?: O): Leaf => leaf({ t: 'DEC2' }, o);
export const DATE = (o?: O): Leaf => leaf({ t: 'DATE' }, o);
export const YMD = (o?: O): Leaf => leaf({ t: 'YMD' }, o);
export const TS = (o?: O): Leaf => leaf({ t: 'TS' }, o);
export const BOOL = (o?: O): Leaf => leaf({ t: 'bool' }, o);
export const INT = (min: number, max: number, o?: O): Leaf => leaf({ t: 'int', min, max }, o);
export const CURRENCY = (o?: O): Leaf => leaf({ t: 'currency' }, o);
export const COUNTRY = (o?: O): Leaf => leaf({ t: 'country2' }, o);
/**
 * An ISO 3166-1 alpha-3 code (sender, recipient, birth countries): a pattern of the assigned
 * codes of shared/geo, so the docs, the OpenAPI document and the widget's checks read the same list.
 */
const ALPHA3 = new RegExp(`^(?:${COUNTRIES.map((c) => c.alpha3).join('|')})$`);
export const COUNTRY3 = (o?: O): Leaf =>
  pattern(ALPHA3, 'an ISO 3166-1 alpha-3 country code in upper case, e.g. DEU', o);
export const URL = (min: number, max: number, o?: O): Leaf => leaf({ t: 'url', min, max }, o);
export const EMAIL = (min: number, max: number, o?: O): Leaf => leaf({ t: 'email', min, max }, o);
export const oneOf = (values: readonly string[], o?: O): Leaf => leaf({ t: 'enum', values }, o);
export const decimal = (int: number, frac: number, o?: O & { exact?: boolean; max?: number }): Leaf => {
  const f: Format = { t: 'decimal', int, frac };
  return leaf(
    {
      ...f,
      ...(o?.exact === undefined ? {} : { exact: o.exact }),
      ...(o?.max === undefined ? {} : { max: o.max }),
    },
    o,
  );
};
export const pattern = (re: RegExp, says: string, o?: O): Leaf => leaf({ t: 'pattern', re, says }, o);

/** Letters, digits and whitespace up to `max` (sender and recipient names and places). */
export const LDW = (max: number, o?: O): Leaf =>
  pattern(new RegExp(`^[\\p{L}\\p{N}\\s]{1,${max}}$`, 'u'), `up to ${max} letters, digits and spaces`, o);
/** Letters and whitespace up to `max`. */
export const LW = (max: number, o?: O): Leaf =>
  pattern(new RegExp(`^[\\p{L}\\s]{1,${max}}$`, 'u'), `up to ${max} letters and spaces`, o);
/** Letters and digits from `min` to `max`. */
export const ALNUM = (min: number, max: number, o?: O): Leaf =>
  pattern(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`), `${min} to ${max} letters and digits`, o);

/**
 * A phone number of `min` to `max` characters: at least one digit, the rest digits, spaces and
 * punctuation; no letters, nothing unprintable. The spec's table says "starts with plus or digit,
 * then digits, space, dot, parentheses, slash, hyphen", but the family's platform takes more:
 * activemerchant's OPP remote test (test/remote/gateways/remote_opp_test.rb, 15 of 15 passed on
 * the family's test platform) sends `customer.phone=(?!?)555-5555` and
 * `customer.mobile=(?!?)234-23423`, and real shops send `(555) 555-5555` (decisions, "Fidelity to
 * the family"). What cannot be a phone (no digit, letters, over the length) is still refused.
 */
export const PHONE = (min: number, max: number, o?: O): Leaf =>
  pattern(
    new RegExp(`^(?=[^0-9]*[0-9])[0-9 !-/:-@\\[-\`{-~]{${min},${max}}$`),
    `a phone number of ${min} to ${max} characters: at least one digit, the rest digits, spaces or punctuation such as + ( ) . / -, no letters`,
    o,
  );
export const MONTH = (o?: O): Leaf => pattern(/^(0[1-9]|1[0-2])$/, 'a month 01 to 12', o);
export const YEAR = (o?: O): Leaf => pattern(/^(19|20)[0-9]{2}$/, 'a four-digit year beginning 19 or 20', o);
/** 32 letters and digits: payment, registration and other ids. */
export const ID32 = (o?: O): Leaf => pattern(/^[A-Za-z0-9]{32}$/, '32 letters and digits', o);
/** A brand code: 1-32 letters, digits, underscore. */
export const BRAND = (o?: O): Leaf =>
  pattern(/^[A-Za-z0-9_]{1,32}$/, '1 to 32 letters, digits or underscores', o);
/** A name=value map key: 3-64 letters, digits, dot, underscore. */
export const MAP_KEY: Format = {
  t: 'pattern',
  re: /^[A-Za-z0-9._]{3,64}$/,
  says: '3 to 64 letters, digits, dots or underscores',
};
export const MAP_VALUE: Format = { t: 'AN', min: 1, max: 2048 };

/**
 * A postcode as shops send them (decisions, "Addresses"): 1 to 16 letters, digits, spaces and
 * hyphens (`TE1 2ST`, `90925-6038`), starting and ending with a letter or digit. The spec's
 * "letters and digits" is narrower than the family's own sample shops.
 */
export const POSTCODE = (o?: O): Leaf =>
  pattern(
    /^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,14}[A-Za-z0-9])?$/,
    '1 to 16 letters, digits, spaces or hyphens, starting and ending with a letter or digit',
    o,
  );
/** A state or region (decisions, "Addresses"): letters, digits, dots, spaces and hyphens (`New Jersey`). */
export const STATE = (o?: O): Leaf =>
  pattern(
    /^[\p{L}\p{N}](?:[\p{L}\p{N}. -]{0,49})$/u,
    '1 to 50 letters, digits, dots, spaces or hyphens, starting with a letter or digit',
    o,
  );
