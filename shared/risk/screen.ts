/**
 * Risk screening: one payment's facts against a channel's rules (rules.ts) and its recent history.
 *
 * Order. The rules are tried in this order and the first that fires rejects, with its code:
 *
 *   rule (verdict.rule)            result code   catalogue description
 *   risk.amount                    100.550.605   risk amount is smaller than amount
 *   amountLimits.min / .max        100.550.312   Amount is outside allowed ticket size boundaries
 *   blockedBins                    800.300.401   bin blacklisted
 *   blockedCardCountries           800.300.102   country blacklisted
 *   blockedBillingCountries        800.300.102   country blacklisted
 *   invalidIp                      100.400.318   invalid IP number
 *   blockedIps                     800.300.301   ip blacklisted
 *   invalidEmail                   100.400.315   invalid or missing email address (probably invalid syntax)
 *   blockedEmails                  800.300.200   email is blacklisted
 *   blockedEmailDomains            800.300.200   email is blacklisted
 *   velocity[i].maxCount  card     800.120.101   maximum number of transactions per account already exceeded
 *                         ip       800.120.102   … per ip …
 *                         email    800.120.103   … per email …
 *   velocity[i].maxVolume card     800.120.201   maximum total volume of transactions per account already exceeded
 *                         ip       800.120.202   … per ip …
 *                         email    800.120.203   … per email …
 *   scoring.threshold              100.400.319   transaction declined by risk system
 *
 * A rule only screens the facts the caller has: no IP, no IP rule. An IP or e-mail address that cannot be
 * parsed is rejected (invalidIp / invalidEmail) only when the rule set has rules about it.
 *
 * Scoring. `risk.score` is an integer from -99999 to +99999 (the spec's "optional sign plus 5 digits";
 * `formatScore` renders it, "0" and "100" as in the platform's own answers). 0 is a clean payment.
 * The rule set's `scoring` adds points for soft signals (card/billing country mismatch, no e-mail, no IP,
 * brand, `risk.parameters[...]` values); negative points vouch for a payment. The payment is rejected
 * when the sum reaches `scoring.threshold` (default 100). A rejection by a hard rule reports at least the
 * threshold, so for every verdict: outcome is `reject` exactly when score ≥ threshold.
 *
 * The `risk.*` request parameters:
 *   risk.channelId   selects the named rule set `rules.ruleSets[channelId]`, which replaces the channel's
 *                    default set; an unknown name screens with the default (verdict.ruleSet is then absent).
 *   risk.amount      (minor units, the payment's currency) the amount screened instead of `amount`: by the
 *                    amount limits and as this payment's share of velocity volumes. It must not be smaller
 *                    than the amount (100.550.605, as the platform answers).
 *   risk.brand       replaces the payment brand for `scoring.brands`.
 *   risk.parameters  scored by `scoring.parameters` (exact, case-sensitive value match).
 *   Not screened: risk.serviceId, risk.orderTimestamp (`now` is the clock), risk.merchantWebsite,
 *   risk.accountToken.
 *
 * Card data. Only the BIN (6–8 leading digits) and a caller-made card fingerprint enter this module;
 * `screen` throws if a BIN is longer or a fingerprint looks like a card number.
 */
import { luhnValid } from '../brands/luhn';
import type { KnownResultCode } from '../result-codes';
import { formatIp, type IpAddress, type IpRange, ipInRange, parseIp, parseIpRange } from './ip';
import { DEFAULT_THRESHOLD, MAX_SCORE, type RiskRuleSet, type RiskRules, type VelocityKind } from './rules';

/** The result codes the screening answers with (`satisfies` makes a code not in the catalogue a type error). */
export const RISK_CODES = {
  riskAmountBelowAmount: '100.550.605',
  amountOutsideLimits: '100.550.312',
  binBlocked: '800.300.401',
  countryBlocked: '800.300.102',
  ipInvalid: '100.400.318',
  ipBlocked: '800.300.301',
  emailInvalid: '100.400.315',
  emailBlocked: '800.300.200',
  countPerCard: '800.120.101',
  countPerIp: '800.120.102',
  countPerEmail: '800.120.103',
  volumePerCard: '800.120.201',
  volumePerIp: '800.120.202',
  volumePerEmail: '800.120.203',
  scoreThreshold: '100.400.319',
} as const satisfies Record<string, KnownResultCode>;

const COUNT_CODES: Record<VelocityKind, KnownResultCode> = {
  card: RISK_CODES.countPerCard,
  ip: RISK_CODES.countPerIp,
  email: RISK_CODES.countPerEmail,
};
const VOLUME_CODES: Record<VelocityKind, KnownResultCode> = {
  card: RISK_CODES.volumePerCard,
  ip: RISK_CODES.volumePerIp,
  email: RISK_CODES.volumePerEmail,
};

/** What the gateway knows about a payment when it screens it. Amounts are integer minor units. */
export interface RiskFacts {
  /** The payment's amount in minor units of `currency`. */
  amount: number;
  currency: string;
  /** The card's first 6 to 8 digits (absent for non-card payments). */
  bin?: string;
  /** The payment brand (e.g. VISA). */
  brand?: string;
  /** The issuer's ISO 3166 alpha-2 country, from the caller's BIN lookup. */
  cardCountry?: string;
  /** A stable, non-reversible id of the card (e.g. an HMAC of the PAN) made by the caller; never the PAN. */
  cardFingerprint?: string;
  /** customer.email */
  email?: string;
  /** customer.ip */
  ip?: string;
  /** billing.country */
  billingCountry?: string;
  /** The request's `risk.*` parameters (see the module comment for which are honoured). */
  risk?: RiskParameters;
}

export interface RiskParameters {
  channelId?: string;
  /** risk.amount converted to minor units of the payment's currency. */
  amount?: number;
  brand?: string;
  parameters?: Record<string, string>;
  serviceId?: string;
  orderTimestamp?: string;
  merchantWebsite?: string;
  accountToken?: string;
}

/** A key payments are counted by: a card fingerprint, a lower-case e-mail address, a canonical IP. */
export interface HistoryKey {
  kind: VelocityKind;
  value: string;
}

/** Earlier payments for one key: how many, and their volume per currency in minor units. */
export interface HistoryCount {
  count: number;
  volume: Map<string, number>;
}

/**
 * The payments screened before, as storage keeps them (port; the tests' in-memory adapter is
 * server/test-kit/engine/memory-history.ts).
 * `count` answers for the payments of `key` at or after `since` (so a payment exactly `windowSeconds`
 * old is still in the window). Keys are normalised by `velocityKeys`; record payments under the same keys.
 */
export interface RiskHistory {
  count(key: HistoryKey, since: Date): Promise<HistoryCount>;
}

export interface RiskSignal {
  name: string;
  points: number;
}

export interface RiskVerdict {
  outcome: 'accept' | 'reject';
  /** The catalogue result code, when rejected. */
  code?: KnownResultCode;
  /** The rule that rejected, named as its field in the rule set (e.g. `blockedBins`, `velocity[1].maxCount`). */
  rule?: string;
  /** Why, for logs and the RISK webhook; quotes configuration (a BIN prefix, a range), never customer data. */
  detail?: string;
  /** `risk.score`, see `formatScore`. */
  score: string;
  /** The soft signals that scored, in order. */
  signals: RiskSignal[];
  /** The named rule set that screened (`risk.channelId`); absent for the channel's default set. */
  ruleSet?: string;
}

/** The spec's `risk.score`: an optional sign and 1 to 5 digits. */
export const SCORE_PATTERN = /^[+-]?[0-9]{1,5}$/;

/** Renders a score for `risk.score`: an integer clamped to ±99999, e.g. "0", "100", "-25". */
export function formatScore(n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`A risk score is an integer, got ${n}`);
  return String(Math.max(-MAX_SCORE, Math.min(MAX_SCORE, n)));
}

/** The amount screened: `risk.amount` when the request sends it, else the payment's amount. */
export function screenedAmount(facts: RiskFacts): number {
  return facts.risk?.amount ?? facts.amount;
}

/** The history keys of a payment (only those its facts carry and that parse), normalised for storage. */
export function velocityKeys(facts: RiskFacts): HistoryKey[] {
  const keys: HistoryKey[] = [];
  if (facts.cardFingerprint !== undefined && facts.cardFingerprint !== '') {
    keys.push({ kind: 'card', value: facts.cardFingerprint });
  }
  const email = normaliseEmail(facts.email);
  if (email !== undefined) keys.push({ kind: 'email', value: email.address });
  const ip = facts.ip === undefined ? undefined : parseIp(facts.ip.trim());
  if (ip !== undefined) keys.push({ kind: 'ip', value: formatIp(ip) });
  return keys;
}

function normaliseEmail(email: string | undefined): { address: string; domain: string } | undefined {
  if (email === undefined) return undefined;
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1 || /\s/.test(address)) return undefined;
  return { address, domain: address.slice(at + 1).replace(/\.$/, '') };
}

function checkFacts(facts: RiskFacts): void {
  const amounts: [string, number | undefined][] = [
    ['amount', facts.amount],
    ['risk.amount', facts.risk?.amount],
  ];
  for (const [name, value] of amounts) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new RangeError(`${name} must be a non-negative integer of minor units, got ${value}`);
    }
  }
  if (facts.bin !== undefined && !/^[0-9]{6,8}$/.test(facts.bin)) {
    throw new TypeError('bin must be the first 6 to 8 digits of the card; the card number never enters risk');
  }
  const fp = facts.cardFingerprint;
  if (fp !== undefined && /^[0-9]{12,19}$/.test(fp) && luhnValid(fp)) {
    throw new TypeError(
      'cardFingerprint looks like a card number; pass a fingerprint (e.g. an HMAC) instead',
    );
  }
}

/** The rule set that screens: the named set `risk.channelId` selects, else the default. */
function selectRuleSet(rules: RiskRules, channelId: string | undefined): { set: RiskRuleSet; name?: string } {
  const named = channelId === undefined ? undefined : own(rules.ruleSets, channelId);
  return named === undefined ? { set: rules } : { set: named, name: channelId };
}

/** `record[key]` if it is the record's own entry (never an inherited `constructor` or `toString`). */
function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

type Hit = { rule: string; code: KnownResultCode; detail: string };

const upper = (s: string | undefined) => s?.trim().toUpperCase();

function inList(list: string[] | undefined, value: string | undefined, normalise: (s: string) => string) {
  if (value === undefined || list === undefined) return undefined;
  return list.find((entry) => normalise(entry) === value);
}

function ranges(list: string[] | undefined): { text: string; range: IpRange }[] {
  const out: { text: string; range: IpRange }[] = [];
  for (const text of list ?? []) {
    const range = parseIpRange(text.trim());
    // checkRules refuses bad entries; one that slipped through blocks nothing rather than everything.
    if (typeof range !== 'string') out.push({ text, range });
  }
  return out;
}

/** The hard rules that need no history, in order; `undefined` when none fires. */
function firstListHit(facts: RiskFacts, set: RiskRuleSet, amount: number): Hit | undefined {
  if (facts.risk?.amount !== undefined && facts.risk.amount < facts.amount) {
    return {
      rule: 'risk.amount',
      code: RISK_CODES.riskAmountBelowAmount,
      detail: `risk.amount ${facts.risk.amount} is smaller than the amount ${facts.amount}`,
    };
  }
  const limit = own(set.amountLimits, facts.currency);
  if (limit?.min !== undefined && amount < limit.min) {
    return {
      rule: 'amountLimits.min',
      code: RISK_CODES.amountOutsideLimits,
      detail: `${amount} ${facts.currency} is below the minimum ${limit.min}`,
    };
  }
  if (limit?.max !== undefined && amount > limit.max) {
    return {
      rule: 'amountLimits.max',
      code: RISK_CODES.amountOutsideLimits,
      detail: `${amount} ${facts.currency} is above the maximum ${limit.max}`,
    };
  }
  const bin = facts.bin;
  const blockedBin =
    bin === undefined ? undefined : set.blockedBins?.find((prefix) => bin.startsWith(prefix));
  if (blockedBin !== undefined) {
    return {
      rule: 'blockedBins',
      code: RISK_CODES.binBlocked,
      detail: `BIN prefix ${blockedBin} is blocked`,
    };
  }
  const toUpper = (s: string) => s.trim().toUpperCase();
  const cardCountry = inList(set.blockedCardCountries, upper(facts.cardCountry), toUpper);
  if (cardCountry !== undefined) {
    return {
      rule: 'blockedCardCountries',
      code: RISK_CODES.countryBlocked,
      detail: `card country ${toUpper(cardCountry)} is blocked`,
    };
  }
  const billingCountry = inList(set.blockedBillingCountries, upper(facts.billingCountry), toUpper);
  if (billingCountry !== undefined) {
    return {
      rule: 'blockedBillingCountries',
      code: RISK_CODES.countryBlocked,
      detail: `billing country ${toUpper(billingCountry)} is blocked`,
    };
  }
  const ipHit = screenIp(facts, set);
  if (ipHit !== undefined) return ipHit;
  return screenEmail(facts, set);
}

function screenIp(facts: RiskFacts, set: RiskRuleSet): Hit | undefined {
  const blocked = ranges(set.blockedIps);
  const screensIps = blocked.length > 0 || (set.velocity ?? []).some((v) => v.per === 'ip');
  if (facts.ip === undefined || !screensIps) return undefined;
  const ip: IpAddress | undefined = parseIp(facts.ip.trim());
  if (ip === undefined) {
    return { rule: 'invalidIp', code: RISK_CODES.ipInvalid, detail: 'the customer IP is not an IP address' };
  }
  const hit = blocked.find((b) => ipInRange(ip, b.range));
  if (hit === undefined) return undefined;
  if (ranges(set.allowedIps).some((a) => ipInRange(ip, a.range))) return undefined;
  return { rule: 'blockedIps', code: RISK_CODES.ipBlocked, detail: `IP in blocked range ${hit.text}` };
}

function screenEmail(facts: RiskFacts, set: RiskRuleSet): Hit | undefined {
  const screensEmails =
    (set.blockedEmails?.length ?? 0) > 0 ||
    (set.blockedEmailDomains?.length ?? 0) > 0 ||
    (set.velocity ?? []).some((v) => v.per === 'email');
  if (facts.email === undefined || !screensEmails) return undefined;
  const email = normaliseEmail(facts.email);
  if (email === undefined) {
    return {
      rule: 'invalidEmail',
      code: RISK_CODES.emailInvalid,
      detail: 'the customer e-mail is not an e-mail address',
    };
  }
  if (inList(set.blockedEmails, email.address, (s) => s.trim().toLowerCase()) !== undefined) {
    return { rule: 'blockedEmails', code: RISK_CODES.emailBlocked, detail: 'e-mail address is blocked' };
  }
  const domain = set.blockedEmailDomains?.find((entry) => {
    const d = entry.trim().toLowerCase();
    return email.domain === d || email.domain.endsWith(`.${d}`);
  });
  if (domain !== undefined) {
    return {
      rule: 'blockedEmailDomains',
      code: RISK_CODES.emailBlocked,
      detail: `e-mail domain ${domain.toLowerCase()} is blocked`,
    };
  }
  return undefined;
}

/** The soft signals of a payment under a rule set's scoring. */
function signalsOf(facts: RiskFacts, set: RiskRuleSet): RiskSignal[] {
  const scoring = set.scoring;
  if (scoring === undefined) return [];
  const signals: RiskSignal[] = [];
  const add = (name: string, points: number | undefined) => {
    if (points !== undefined && points !== 0) signals.push({ name, points });
  };
  const card = upper(facts.cardCountry);
  const billing = upper(facts.billingCountry);
  if (card !== undefined && billing !== undefined && card !== '' && billing !== '' && card !== billing) {
    add('countryMismatch', scoring.countryMismatch);
  }
  if (facts.email === undefined || facts.email.trim() === '') add('missingEmail', scoring.missingEmail);
  if (facts.ip === undefined || facts.ip.trim() === '') add('missingIp', scoring.missingIp);
  const brand = upper(facts.risk?.brand ?? facts.brand);
  if (brand !== undefined && scoring.brands !== undefined) {
    const entry = Object.entries(scoring.brands).find(([key]) => key.toUpperCase() === brand);
    if (entry !== undefined) add(`brands.${brand}`, entry[1]);
  }
  for (const [i, rule] of (scoring.parameters ?? []).entries()) {
    const value = own(facts.risk?.parameters, rule.name);
    if (value !== undefined && rule.values.includes(value)) add(`parameters[${i}].${rule.name}`, rule.points);
  }
  return signals;
}

async function firstVelocityHit(
  facts: RiskFacts,
  set: RiskRuleSet,
  amount: number,
  history: RiskHistory,
  now: Date,
): Promise<Hit | undefined> {
  const keys = new Map(velocityKeys(facts).map((k) => [k.kind, k]));
  const cache = new Map<string, Promise<HistoryCount>>();
  for (const [i, limit] of (set.velocity ?? []).entries()) {
    const key = keys.get(limit.per);
    if (key === undefined) continue;
    const since = new Date(now.getTime() - limit.windowSeconds * 1000);
    const cacheKey = `${key.kind}\u0000${key.value}\u0000${since.getTime()}`;
    let pending = cache.get(cacheKey);
    if (pending === undefined) {
      pending = history.count(key, since);
      cache.set(cacheKey, pending);
    }
    const seen = await pending;
    const window = `${limit.windowSeconds} s`;
    if (limit.maxCount !== undefined && seen.count + 1 > limit.maxCount) {
      return {
        rule: `velocity[${i}].maxCount`,
        code: COUNT_CODES[limit.per],
        detail: `${seen.count} earlier payments per ${limit.per} in ${window}; at most ${limit.maxCount} allowed`,
      };
    }
    const maxVolume = own(limit.maxVolume, facts.currency);
    const volume = seen.volume.get(facts.currency) ?? 0;
    if (maxVolume !== undefined && volume + amount > maxVolume) {
      return {
        rule: `velocity[${i}].maxVolume`,
        code: VOLUME_CODES[limit.per],
        detail: `${volume} + ${amount} ${facts.currency} per ${limit.per} in ${window}; at most ${maxVolume} allowed`,
      };
    }
  }
  return undefined;
}

/**
 * Screens one payment. `rules` should have passed `checkRules`; `history` holds the payments before this
 * one (record this one yourself once it is accepted, see `velocityKeys`).
 * Throws `RangeError`/`TypeError` for facts no caller should send (fractional amounts, a card number).
 */
export async function screen(
  request: RiskFacts,
  rules: RiskRules,
  history: RiskHistory,
  now: Date,
): Promise<RiskVerdict> {
  checkFacts(request);
  const { set, name } = selectRuleSet(rules, request.risk?.channelId);
  const amount = screenedAmount(request);
  const threshold = set.scoring?.threshold ?? DEFAULT_THRESHOLD;
  const signals = signalsOf(request, set);
  const points = signals.reduce((sum, s) => sum + s.points, 0);
  const base = { signals, ...(name === undefined ? {} : { ruleSet: name }) };

  const hit =
    firstListHit(request, set, amount) ?? (await firstVelocityHit(request, set, amount, history, now));
  if (hit !== undefined) {
    return { outcome: 'reject', ...hit, score: formatScore(Math.max(points, threshold)), ...base };
  }
  if (points >= threshold) {
    return {
      outcome: 'reject',
      rule: 'scoring.threshold',
      code: RISK_CODES.scoreThreshold,
      detail: `score ${points} reached the threshold ${threshold}`,
      score: formatScore(points),
      ...base,
    };
  }
  return { outcome: 'accept', score: formatScore(points), ...base };
}
