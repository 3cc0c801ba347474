/**
 * A channel's risk rules: plain JSON (arrays, objects, strings, integers), so a channel's settings can
 * store them as they are, and `checkRules` to refuse an operator's configuration with messages that name
 * the field at fault.
 *
 * One rule set screens a payment. The channel's rules are a default set (the top-level fields) plus
 * optional named sets under `ruleSets`; a request's `risk.channelId` picks a named set, which then
 * REPLACES the default (nothing is inherited: copy what both need). See screen.ts for what each rule
 * does and which result code it answers with.
 *
 * Money is integer minor units of the currency it is keyed by (cents for EUR, yen for JPY), never floats.
 */
import { isCountry2 } from '../geo';
import { exponentOf, isCurrency } from '../money';
import { parseIpRange } from './ip';

/** What a velocity limit counts payments by. `card` is the caller's card fingerprint, never the PAN. */
export type VelocityKind = 'card' | 'email' | 'ip';

/** Inclusive bounds of one payment's amount in one currency, in minor units. */
export interface AmountLimit {
  /** The smallest amount allowed (this amount passes). */
  min?: number;
  /** The largest amount allowed (this amount passes). */
  max?: number;
}

/**
 * At most `maxCount` payments and/or at most `maxVolume[currency]` minor units per card, e-mail or IP
 * within the last `windowSeconds` — the payment being screened included. With `maxCount: 3`, a payment
 * that finds 2 earlier ones in the window passes (it is the 3rd) and one that finds 3 is rejected.
 * A currency missing from `maxVolume` has no volume limit; volumes of other currencies never add up.
 */
export interface VelocityLimit {
  per: VelocityKind;
  windowSeconds: number;
  maxCount?: number;
  maxVolume?: Record<string, number>;
}

/** Points when `risk.parameters[name]` is exactly one of `values`. */
export interface ParameterSignal {
  name: string;
  values: string[];
  points: number;
}

/**
 * Soft signals: points that add up to the payment's score (negative points lower it). A payment whose
 * score reaches `threshold` is rejected. Every field is optional; absent signals score nothing.
 */
export interface Scoring {
  /** Score at which a payment is rejected; 1–99999, default `DEFAULT_THRESHOLD` (100). */
  threshold?: number;
  /** Card country (BIN lookup) and billing country both known and different. */
  countryMismatch?: number;
  /** No customer e-mail address. */
  missingEmail?: number;
  /** No customer IP address. */
  missingIp?: number;
  /** By brand: `risk.brand` if the request sends it, else the payment brand. Keys are case-insensitive. */
  brands?: Record<string, number>;
  /** By the request's custom risk data `risk.parameters[name]`. */
  parameters?: ParameterSignal[];
}

/** One rule set. Every list is optional; an absent or empty list blocks nothing. */
export interface RiskRuleSet {
  /** Card number prefixes of 6 to 8 digits. */
  blockedBins?: string[];
  /** ISO 3166 alpha-2 countries of the card's issuer (from the caller's BIN lookup). */
  blockedCardCountries?: string[];
  /** ISO 3166 alpha-2 countries of the billing address. */
  blockedBillingCountries?: string[];
  /** Customer IP addresses and CIDR ranges, IPv4 or IPv6. */
  blockedIps?: string[];
  /**
   * Exceptions to `blockedIps`: an address in one of these is never blocked by IP. To admit only these
   * addresses, block everything else: `blockedIps: ["0.0.0.0/0", "::/0"]`.
   */
  allowedIps?: string[];
  /** Whole e-mail addresses, case-insensitive. */
  blockedEmails?: string[];
  /** E-mail domains, case-insensitive; a domain also blocks its subdomains (`example.com` blocks `mail.example.com`). */
  blockedEmailDomains?: string[];
  /** By ISO 4217 currency; a currency not listed has no amount limit. */
  amountLimits?: Record<string, AmountLimit>;
  velocity?: VelocityLimit[];
  scoring?: Scoring;
}

/** A channel's risk rules: the default set, and named sets `risk.channelId` selects. */
export interface RiskRules extends RiskRuleSet {
  ruleSets?: Record<string, RiskRuleSet>;
}

/** The score at which a payment is rejected unless a rule set says otherwise. */
export const DEFAULT_THRESHOLD = 100;
/** The largest score magnitude (the spec's `risk.score` is a sign and at most 5 digits). */
export const MAX_SCORE = 99_999;
/** The longest velocity window: a year (366 days). */
export const MAX_WINDOW_SECONDS = 366 * 24 * 60 * 60;

const BIN = /^[0-9]{6,8}$/;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)*${LABEL}$`);
const EMAIL_LOCAL = /^[^\s@]{1,64}$/;
const PARAMETER_NAME = /^[A-Za-z0-9._]{3,64}$/;

const RULE_SET_FIELDS = [
  'blockedBins',
  'blockedCardCountries',
  'blockedBillingCountries',
  'blockedIps',
  'allowedIps',
  'blockedEmails',
  'blockedEmailDomains',
  'amountLimits',
  'velocity',
  'scoring',
] as const;
const SCORING_FIELDS = ['threshold', 'countryMismatch', 'missingEmail', 'missingIp', 'brands', 'parameters'];

type Json = unknown;
type Errors = string[];

const show = (value: Json): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownFields(value: Record<string, Json>, known: readonly string[], path: string, errors: Errors) {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      errors.push(`${join(path, key)}: unknown field (expected one of ${known.join(', ')})`);
    }
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** A list of strings, each checked and normalised by `item` (which returns an error message or the value). */
function stringList(
  value: Json,
  path: string,
  errors: Errors,
  item: (text: string) => { ok: string } | { error: string },
): string[] | undefined {
  if (!Array.isArray(value)) {
    errors.push(`${path}: must be a list of strings, got ${show(value)}`);
    return undefined;
  }
  const out: string[] = [];
  for (const [i, entry] of value.entries()) {
    if (typeof entry !== 'string') {
      errors.push(`${path}[${i}]: must be a string, got ${show(entry)}`);
      continue;
    }
    const checked = item(entry);
    if ('error' in checked) errors.push(`${path}[${i}]: ${show(entry)} ${checked.error}`);
    else out.push(checked.ok);
  }
  return out;
}

function integer(value: Json, path: string, errors: Errors, min: number, max: number): number | undefined {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    errors.push(`${path}: must be a whole number, got ${show(value)}`);
    return undefined;
  }
  if (value < min || value > max) {
    errors.push(`${path}: must be between ${min} and ${max}, got ${value}`);
    return undefined;
  }
  return value;
}

/** An amount in minor units: a non-negative safe integer (never a decimal like 10.50). */
function minor(value: Json, path: string, errors: Errors, min = 0): number | undefined {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    const hint =
      typeof value === 'number' && !Number.isInteger(value)
        ? ' (amounts are in minor units: 1050, not 10.5)'
        : '';
    errors.push(
      `${path}: must be a whole number of minor units of at least ${min}, got ${show(value)}${hint}`,
    );
    return undefined;
  }
  return value;
}

/** Object keyed by ISO 4217 currency codes that have minor units. */
function byCurrency<T>(
  value: Json,
  path: string,
  errors: Errors,
  each: (v: Json, path: string) => T | undefined,
): Record<string, T> | undefined {
  if (!isObject(value)) {
    errors.push(`${path}: must be an object keyed by currency (e.g. {"EUR": ...}), got ${show(value)}`);
    return undefined;
  }
  const out: Record<string, T> = {};
  for (const [currency, entry] of Object.entries(value)) {
    const at = join(path, currency);
    if (!isCurrency(currency)) {
      const upper = String(currency).toUpperCase();
      errors.push(
        `${at}: ${show(currency)} is not an ISO 4217 currency code${isCurrency(upper) ? ` (write ${upper})` : ''}`,
      );
      continue;
    }
    if (exponentOf(currency) === undefined) {
      errors.push(`${at}: ${currency} has no minor unit, so it cannot carry amounts`);
      continue;
    }
    const checked = each(entry, at);
    if (checked !== undefined) out[currency] = checked;
  }
  return out;
}

const checkBin = (text: string) =>
  BIN.test(text) ? { ok: text } : { error: 'must be a card number prefix of 6 to 8 digits' };

const checkCountry = (text: string) => {
  const upper = text.toUpperCase();
  return isCountry2(upper) ? { ok: upper } : { error: 'is not an ISO 3166 alpha-2 country code (e.g. DE)' };
};

const checkIp = (text: string) => {
  const range = parseIpRange(text);
  if (range === 'address') return { error: 'is not an IPv4 or IPv6 address or CIDR range' };
  if (range === 'prefix')
    return { error: 'has a CIDR prefix length out of range (0-32 for IPv4, 0-128 for IPv6)' };
  if (range === 'hostBits')
    return { error: 'has bits set after the prefix length (write the network address, e.g. 10.0.0.0/8)' };
  return { ok: text };
};

const checkDomain = (text: string) => {
  const lower = text.toLowerCase();
  if (lower.includes('@')) return { error: 'must be a domain without @ (e.g. example.com)' };
  return DOMAIN.test(lower) ? { ok: lower } : { error: 'is not a domain name (e.g. example.com)' };
};

const checkEmail = (text: string) => {
  const lower = text.toLowerCase();
  const at = lower.lastIndexOf('@');
  return at > 0 && EMAIL_LOCAL.test(lower.slice(0, at)) && DOMAIN.test(lower.slice(at + 1))
    ? { ok: lower }
    : { error: 'is not an e-mail address (e.g. someone@example.com)' };
};

function checkAmountLimits(value: Json, path: string, errors: Errors) {
  return byCurrency(value, path, errors, (entry, at) => {
    if (!isObject(entry)) {
      errors.push(`${at}: must be an object {"min"?: minor units, "max"?: minor units}, got ${show(entry)}`);
      return undefined;
    }
    unknownFields(entry, ['min', 'max'], at, errors);
    const limit: AmountLimit = {};
    if (entry.min !== undefined) limit.min = minor(entry.min, join(at, 'min'), errors);
    if (entry.max !== undefined) limit.max = minor(entry.max, join(at, 'max'), errors);
    if (entry.min === undefined && entry.max === undefined) errors.push(`${at}: needs min, max or both`);
    if (limit.min !== undefined && limit.max !== undefined && limit.min > limit.max) {
      errors.push(`${at}: min ${limit.min} is greater than max ${limit.max}`);
    }
    return limit;
  });
}

function checkVelocity(value: Json, path: string, errors: Errors): VelocityLimit[] | undefined {
  if (!Array.isArray(value)) {
    errors.push(`${path}: must be a list of velocity limits, got ${show(value)}`);
    return undefined;
  }
  const out: VelocityLimit[] = [];
  for (const [i, entry] of value.entries()) {
    const at = `${path}[${i}]`;
    if (!isObject(entry)) {
      errors.push(`${at}: must be an object {per, windowSeconds, maxCount?, maxVolume?}, got ${show(entry)}`);
      continue;
    }
    unknownFields(entry, ['per', 'windowSeconds', 'maxCount', 'maxVolume'], at, errors);
    const per = entry.per;
    if (per !== 'card' && per !== 'email' && per !== 'ip') {
      errors.push(`${at}.per: must be "card", "email" or "ip", got ${show(per)}`);
    }
    let windowSeconds: number | undefined;
    if (entry.windowSeconds === undefined) {
      errors.push(`${at}.windowSeconds: required (seconds, 1 to ${MAX_WINDOW_SECONDS})`);
    } else {
      windowSeconds = integer(entry.windowSeconds, `${at}.windowSeconds`, errors, 1, MAX_WINDOW_SECONDS);
    }
    const limit = { per, windowSeconds } as VelocityLimit;
    if (entry.maxCount !== undefined) {
      limit.maxCount = integer(entry.maxCount, `${at}.maxCount`, errors, 1, Number.MAX_SAFE_INTEGER);
    }
    if (entry.maxVolume !== undefined) {
      limit.maxVolume = byCurrency(entry.maxVolume, `${at}.maxVolume`, errors, (v, p) =>
        minor(v, p, errors, 1),
      );
    }
    if (entry.maxCount === undefined && entry.maxVolume === undefined) {
      errors.push(`${at}: needs maxCount, maxVolume or both`);
    }
    out.push(limit);
  }
  return out;
}

const points = (value: Json, path: string, errors: Errors) =>
  integer(value, path, errors, -MAX_SCORE, MAX_SCORE);

function checkScoring(value: Json, path: string, errors: Errors): Scoring | undefined {
  if (!isObject(value)) {
    errors.push(`${path}: must be an object, got ${show(value)}`);
    return undefined;
  }
  unknownFields(value, SCORING_FIELDS, path, errors);
  const out: Scoring = {};
  if (value.threshold !== undefined) {
    out.threshold = integer(value.threshold, join(path, 'threshold'), errors, 1, MAX_SCORE);
  }
  for (const key of ['countryMismatch', 'missingEmail', 'missingIp'] as const) {
    if (value[key] !== undefined) out[key] = points(value[key], join(path, key), errors);
  }
  if (value.brands !== undefined) {
    const at = join(path, 'brands');
    if (!isObject(value.brands)) {
      errors.push(
        `${at}: must be an object of brand → points (e.g. {"VISA": 10}), got ${show(value.brands)}`,
      );
    } else {
      out.brands = {};
      for (const [brand, p] of Object.entries(value.brands)) {
        if (brand.length < 1 || brand.length > 255) {
          errors.push(`${at}: a brand name must be 1 to 255 characters`);
        }
        const key = brand.toUpperCase();
        if (Object.hasOwn(out.brands, key)) errors.push(`${join(at, brand)}: ${key} is listed twice`);
        const checked = points(p, join(at, brand), errors);
        if (checked !== undefined) out.brands[key] = checked;
      }
    }
  }
  if (value.parameters !== undefined) {
    const at = join(path, 'parameters');
    if (!Array.isArray(value.parameters)) {
      errors.push(`${at}: must be a list of {name, values, points}, got ${show(value.parameters)}`);
    } else {
      out.parameters = [];
      for (const [i, entry] of value.parameters.entries()) {
        const p = `${at}[${i}]`;
        if (!isObject(entry)) {
          errors.push(`${p}: must be an object {name, values, points}, got ${show(entry)}`);
          continue;
        }
        unknownFields(entry, ['name', 'values', 'points'], p, errors);
        if (typeof entry.name !== 'string' || !PARAMETER_NAME.test(entry.name)) {
          errors.push(
            `${p}.name: must be the name inside risk.parameters[...]: 3 to 64 letters, digits, dots or underscores, got ${show(entry.name)}`,
          );
        }
        const values = stringList(entry.values, `${p}.values`, errors, (v) =>
          v.length <= 2048 ? { ok: v } : { error: 'is longer than 2048 characters' },
        );
        if (values !== undefined && values.length === 0)
          errors.push(`${p}.values: must list at least one value`);
        const pts = entry.points === undefined ? undefined : points(entry.points, `${p}.points`, errors);
        if (entry.points === undefined) errors.push(`${p}.points: required`);
        out.parameters.push({ name: String(entry.name), values: values ?? [], points: pts ?? 0 });
      }
    }
  }
  return out;
}

function checkRuleSet(value: Record<string, Json>, path: string, errors: Errors): RiskRuleSet {
  const out: RiskRuleSet = {};
  const lists = [
    ['blockedBins', checkBin],
    ['blockedCardCountries', checkCountry],
    ['blockedBillingCountries', checkCountry],
    ['blockedIps', checkIp],
    ['allowedIps', checkIp],
    ['blockedEmails', checkEmail],
    ['blockedEmailDomains', checkDomain],
  ] as const;
  for (const [key, check] of lists) {
    if (value[key] !== undefined) out[key] = stringList(value[key], join(path, key), errors, check);
  }
  if ((out.allowedIps?.length ?? 0) > 0 && (out.blockedIps?.length ?? 0) === 0) {
    errors.push(
      `${join(path, 'allowedIps')}: only makes exceptions to blockedIps, which is empty; to admit only these addresses also set blockedIps to ["0.0.0.0/0", "::/0"]`,
    );
  }
  if (value.amountLimits !== undefined) {
    out.amountLimits = checkAmountLimits(value.amountLimits, join(path, 'amountLimits'), errors);
  }
  if (value.velocity !== undefined)
    out.velocity = checkVelocity(value.velocity, join(path, 'velocity'), errors);
  if (value.scoring !== undefined) out.scoring = checkScoring(value.scoring, join(path, 'scoring'), errors);
  return out;
}

/** A `checkRules` refusal: one message per problem, each starting with the field's path. */
export interface RuleErrors {
  errors: string[];
}

/** True when `checkRules` refused the configuration. */
export function isRuleErrors(result: RiskRules | RuleErrors): result is RuleErrors {
  return 'errors' in result && Array.isArray((result as RuleErrors).errors);
}

/**
 * Checks an operator's rule configuration (parsed JSON). Returns the rules, normalised (countries upper
 * case, e-mail addresses and domains lower case, brand keys upper case), or every problem found, each
 * naming its field, e.g. `ruleSets.eu.velocity[0].windowSeconds: must be between 1 and 31622400, got 0`.
 * Unknown fields are refused, so a typo (`blockedBin`) cannot silently disable a rule.
 */
export function checkRules(json: unknown): RiskRules | RuleErrors {
  const errors: Errors = [];
  if (!isObject(json)) return { errors: [`rules: must be an object, got ${show(json)}`] };
  unknownFields(json, [...RULE_SET_FIELDS, 'ruleSets'], '', errors);
  const out: RiskRules = checkRuleSet(json, '', errors);
  if (json.ruleSets !== undefined) {
    if (!isObject(json.ruleSets)) {
      errors.push(`ruleSets: must be an object of name → rule set, got ${show(json.ruleSets)}`);
    } else {
      out.ruleSets = {};
      for (const [name, set] of Object.entries(json.ruleSets)) {
        const at = `ruleSets.${name}`;
        if (name.length < 1 || name.length > 255) {
          errors.push(
            `${at}: a rule set name (the risk.channelId that selects it) must be 1 to 255 characters`,
          );
        }
        if (name === '__proto__') {
          errors.push(`${at}: "__proto__" cannot name a rule set`);
          continue;
        }
        if (!isObject(set)) {
          errors.push(`${at}: must be an object (a rule set), got ${show(set)}`);
          continue;
        }
        if (set.ruleSets !== undefined) errors.push(`${at}.ruleSets: named rule sets cannot nest`);
        unknownFields(set, [...RULE_SET_FIELDS, 'ruleSets'], at, errors);
        out.ruleSets[name] = checkRuleSet(set, at, errors);
      }
    }
  }
  return errors.length > 0 ? { errors } : out;
}
