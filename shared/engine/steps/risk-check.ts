/**
 * The risk step of the payment pipelines: a payment's facts screened with its channel's risk rules
 * (`ChannelSettings.risk`, shared/risk) and history, after validation and money and before anyone
 * authenticates or authorizes it; and the stand-alone risk request (paymentType RE or RI).
 *
 * - No rules on the channel: nothing is screened, `risk.score` is "0", nothing is recorded.
 * - Rejected: the payment is recorded with the rule's catalogue code (HTTP 400, stored, queryable like
 *   any decline), its `risk.score`, and `details.riskCheck` (the rule, never answered by the API):
 *   the outbox tells the merchant's webhooks with a RISK notification (notifications.ts).
 * - Accepted: the payment goes on to 3-D Secure, redirect or acquirer, answering the real score.
 *
 * Velocity history. Each payment the risk check lets through is recorded under its velocity keys
 * (card fingerprint, e-mail, IP) when the channel's rules have velocity limits — an attempt, whatever
 * the acquirer then says: declines count, which is what stops card testing. Risk rejections are not
 * recorded, so a key over its limit is admitted again once its window has room (a limit reads "at
 * most N attempts per window reach the acquirer"), and stand-alone checks are not recorded either
 * (they charge nothing; the payment that follows one counts). Counts are per channel. Keys are stored
 * hashed (`Fingerprint`: the vault's card fingerprint, HMACs of e-mail and IP): no plaintext. The
 * check and the record are one step per key (RiskLedger.exclusiveRiskKeys: the keys locked, in this
 * process and on PostgreSQL across processes, until the accepted attempt is recorded), so concurrent
 * attempts of one key are screened one after another and a limit lets exactly its number through.
 *
 * Card data. Only the BIN (8 leading digits at most), the card country of the simulator's BIN table
 * (test mode INTERNAL only: no live BIN lookup exists, so card-country rules screen nothing elsewhere)
 * and the fingerprint reach the screening; registration payments and linked payments that reuse a
 * stored card have no fingerprint (the engine never opens stored numbers).
 */
import { isToMinorError, type Minor, toMinor } from '../../money';
import { type RequestOf, STANDALONE_RISK_TYPES } from '../../params/requests';
import {
  checkRules,
  type HistoryCount,
  type HistoryKey,
  isRuleErrors,
  type RiskFacts,
  type RiskHistory,
  type RiskParameters,
  type RiskRules,
  type RiskSignal,
  type RiskVerdict,
  screen,
  screenedAmount,
  velocityKeys,
} from '../../risk';
import { echoOf } from '../answers/echo';
import type { Caller, EngineDeps, Outcome } from '../core/deps';
import { type Checked, type Invalid, invalid } from '../core/failure';
import { storedCard } from '../core/instruments';
import type { Channel, TestMode } from '../core/model';
import type { BinInfo, Decision, RiskEvent, RiskLedger } from '../core/ports';
import { processorFor } from '../core/processor';
import { paymentRecord } from '../core/record';
import { recordPayment } from './record';

export type { Fingerprint } from '../core/deps';

/** What the risk step needs of the engine's dependencies. */
export type RiskDeps = Pick<EngineDeps, 'fingerprint' | 'riskHistory'>;

/** The answer of a stand-alone risk check the rules let through: "Risk check successful". */
export const RISK_CHECK_SUCCESSFUL = '000.300.100';

export type StandaloneRiskType = (typeof STANDALONE_RISK_TYPES)[number];

export const isStandaloneRisk = (paymentType: string | undefined): paymentType is StandaloneRiskType =>
  (STANDALONE_RISK_TYPES as readonly string[]).includes(paymentType ?? '');

/**
 * Why a payment was screened as it was, kept in `details.riskCheck` (never answered: response.ts leaves
 * it out) for the RISK notification. Quotes configuration, never customer data (see screen.ts).
 */
export interface RiskCheck {
  readonly outcome: RiskVerdict['outcome'];
  readonly rule?: string;
  readonly ruleSet?: string;
  readonly detail?: string;
  readonly signals: readonly RiskSignal[];
}

/** The request fields the risk check reads. */
export interface RiskRequest {
  readonly customer?: { readonly email?: string | undefined; readonly ip?: string | undefined } | undefined;
  readonly billing?: { readonly country?: string | undefined } | undefined;
  readonly risk?:
    | {
        readonly channelId?: string | undefined;
        readonly serviceId?: string | undefined;
        readonly amount?: string | undefined;
        readonly orderTimestamp?: string | undefined;
        readonly brand?: string | undefined;
        readonly parameters?: Readonly<Record<string, string>> | undefined;
        readonly merchantWebsite?: string | undefined;
        readonly accountToken?: string | undefined;
      }
    | undefined;
}

/** The payment being screened. */
export interface RiskSubject {
  readonly request: RiskRequest;
  readonly amount: Minor;
  readonly currency: string;
  readonly brand?: string | undefined;
  /** The card number the request sends (fingerprinted, its BIN taken; never screened itself). */
  readonly cardNumber?: string | undefined;
  /** The BIN of a stored card the payment charges, when it sends no number. */
  readonly bin?: string | undefined;
  /** The deciding processor's issuer lookup (the simulator's BIN table), for the card country. */
  readonly binInfo?: ((bin: string) => BinInfo | undefined) | undefined;
}

export type RiskStep =
  | Invalid
  | {
      readonly kind: 'accepted' | 'rejected';
      readonly score: string;
      /** Absent when the channel has no rules (nothing was screened). */
      readonly verdict?: RiskVerdict;
    };

/** Stored rules already checked: a channel's settings object is read (and cached) once, screened often. */
const checked = new WeakMap<object, RiskRules>();

/** The channel's rules, checked again as they are read: a stored configuration must still hold. */
export function channelRules(channel: Channel): RiskRules | undefined {
  const stored = channel.settings.risk;
  if (stored === undefined) return undefined;
  const known = checked.get(stored);
  if (known !== undefined) return known;
  const rules = checkRules(stored);
  if (isRuleErrors(rules)) {
    throw new Error(`Channel ${channel.id} has invalid risk rules: ${rules.errors.join('; ')}`);
  }
  checked.set(stored, rules);
  return rules;
}

const hasVelocity = (rules: RiskRules): boolean =>
  (rules.velocity?.length ?? 0) > 0 ||
  Object.values(rules.ruleSets ?? {}).some((set) => (set.velocity?.length ?? 0) > 0);

/** `risk.amount` in minor units (undefined when not sent), or its fault. */
function riskAmountOf(subject: RiskSubject): Checked<{ amount: number | undefined }> {
  const sent = subject.request.risk?.amount;
  if (sent === undefined) return NO_RISK_AMOUNT;
  const minor = toMinor(sent, subject.currency);
  if (!isToMinorError(minor)) return { kind: 'ok', amount: minor };
  return invalid([{ name: 'risk.amount', value: sent, message: `cannot be read in ${subject.currency}` }]);
}

const NO_RISK_AMOUNT = { kind: 'ok', amount: undefined } as const;

/** The payment's facts for the screening, or the fault of `risk.amount`. */
export function riskFactsOf(deps: RiskDeps, subject: RiskSubject): Checked<{ facts: RiskFacts }> {
  const { request, currency } = subject;
  const sent = request.risk;
  const read = riskAmountOf(subject);
  if (read.kind === 'invalid') return read;
  const riskAmount = read.amount;
  const number = subject.cardNumber?.replace(/[\s-]/g, '');
  const bin = number !== undefined && /^[0-9]{12,19}$/.test(number) ? number.slice(0, 8) : subject.bin;
  const cardCountry =
    subject.binInfo !== undefined && bin !== undefined
      ? subject.binInfo(bin.slice(0, 6))?.country
      : undefined;
  const fingerprint =
    number !== undefined && deps.fingerprint !== undefined ? deps.fingerprint('card', number) : undefined;
  const risk: RiskParameters = {
    ...defined({
      channelId: sent?.channelId,
      amount: riskAmount,
      brand: sent?.brand,
      serviceId: sent?.serviceId,
      orderTimestamp: sent?.orderTimestamp,
      merchantWebsite: sent?.merchantWebsite,
      accountToken: sent?.accountToken,
    }),
    ...(sent?.parameters === undefined ? {} : { parameters: { ...sent.parameters } }),
  };
  return {
    kind: 'ok',
    facts: {
      amount: subject.amount,
      currency,
      ...defined({
        bin: bin !== undefined && /^[0-9]{6,8}$/.test(bin) ? bin : undefined,
        brand: subject.brand,
        cardCountry,
        cardFingerprint: fingerprint,
        email: request.customer?.email,
        ip: request.customer?.ip,
        billingCountry: request.billing?.country,
      }),
      ...(Object.keys(risk).length === 0 ? {} : { risk }),
    },
  };
}

/**
 * Screens a payment with its channel's rules. `record`: an accepted payment is recorded in the
 * velocity history (false for stand-alone checks).
 */
export async function screenRisk(
  deps: RiskDeps,
  caller: Caller,
  subject: RiskSubject,
  now: Date,
  record: boolean,
): Promise<RiskStep> {
  const rules = channelRules(caller.channel);
  if (rules === undefined) {
    // Nothing to screen: of the facts only risk.amount's fault would be answered.
    const amount = riskAmountOf(subject);
    return amount.kind === 'invalid' ? amount : { kind: 'accepted', score: '0' };
  }
  // The card's fingerprint (an HMAC) only counts for velocity: not worth computing without such a rule.
  const read = riskFactsOf(hasVelocity(rules) ? deps : {}, subject);
  if (read.kind === 'invalid') return read;
  const { facts } = read;
  const channelId = caller.channel.id;
  const ledger = deps.riskHistory;
  let verdict: RiskVerdict;
  if (record && hasVelocity(rules) && ledger !== undefined) {
    // Check and record under the payment's velocity keys, as one step: concurrent attempts of one
    // card (in any process) are screened one after another, each seeing the ones before it.
    const keys: HistoryKey[] = [];
    for (const key of velocityKeys(facts)) {
      const hashed = hashKey(deps, key);
      if (hashed !== undefined) keys.push(hashed);
    }
    verdict = await ledger.exclusiveRiskKeys(channelId, keys, async (count) => {
      const result = await screen(facts, rules, channelHistory(deps, channelId, count), now);
      if (result.outcome === 'reject') return { result, events: [] };
      const events = keys.map(
        (hashed): RiskEvent => ({
          merchantId: caller.merchantId,
          channelId,
          kind: hashed.kind,
          value: hashed.value,
          amount: screenedAmount(facts),
          currency: facts.currency,
          at: now,
        }),
      );
      return { result, events };
    });
  } else {
    verdict = await screen(facts, rules, channelHistory(deps, channelId), now);
  }
  if (verdict.outcome === 'reject') return { kind: 'rejected', score: verdict.score, verdict };
  return { kind: 'accepted', score: verdict.score, verdict };
}

/** A rejection as the pipelines' Decision (nobody else was asked); undefined when not rejected. */
export function riskDecision(step: RiskStep, testMode: TestMode | undefined): Decision | undefined {
  if (step.kind !== 'rejected' || step.verdict?.code === undefined) return undefined;
  return {
    ...(testMode === undefined ? {} : { testMode }),
    code: step.verdict.code,
    result: {},
    resultDetails: {},
  };
}

/**
 * The payment's details for its risk step: `risk` as answered (the echoed request group and the score)
 * and, when the merchant is told with a RISK notification (rejections, stand-alone checks), `riskCheck`.
 */
export function riskDetails(
  step: RiskStep,
  echo: Readonly<Record<string, unknown>>,
  notify = step.kind === 'rejected',
): Record<string, unknown> {
  if (step.kind === 'invalid') return {};
  const echoed = echo.risk !== null && typeof echo.risk === 'object' ? echo.risk : {};
  const verdict = step.verdict;
  let check: RiskCheck | undefined;
  if (notify) {
    check =
      verdict === undefined
        ? { outcome: 'accept', signals: [] } // no rules: nothing to reject
        : {
            outcome: verdict.outcome,
            ...defined({ rule: verdict.rule, ruleSet: verdict.ruleSet, detail: verdict.detail }),
            signals: verdict.signals,
          };
  }
  return { risk: { ...echoed, score: step.score }, ...(check === undefined ? {} : { riskCheck: check }) };
}

/**
 * POST /v1/payments with paymentType RE or RI: screens the payment without charging anything. The rules
 * let it through: `000.300.100` (Risk check successful) with `risk.score`; they reject it: the rule's code.
 * Recorded as a transaction of its type (never settled, never referenced), and notified as RISK.
 */
export async function standaloneRisk(
  deps: EngineDeps,
  caller: Caller,
  request: RequestOf<'payment'>,
  amount: Minor,
  testMode: TestMode | undefined,
  checkoutId: string | undefined,
): Promise<Outcome> {
  const now = deps.clock.now();
  const step = await screenRisk(
    deps,
    caller,
    {
      request,
      amount,
      currency: request.currency ?? '',
      brand: request.paymentBrand,
      cardNumber: request.card?.number,
      binInfo:
        testMode === undefined ? undefined : processorFor(deps.processors, caller.channel, testMode).binInfo,
    },
    now,
    false,
  );
  if (step.kind === 'invalid') return step;
  const echo = echoOf(request);
  const payment = paymentRecord(caller, now, {
    paymentType: request.paymentType ?? 'RI',
    paymentBrand: request.paymentBrand,
    amount,
    currency: request.currency,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    checkoutId,
    testMode,
    card: storedCard(request, deps.seal),
    code: step.kind === 'rejected' ? (step.verdict?.code ?? RISK_CHECK_SUCCESSFUL) : RISK_CHECK_SUCCESSFUL,
    details: { ...echo, ...riskDetails(step, echo, true) },
  });
  await recordPayment(deps, payment);
  return { kind: 'payment', payment };
}

const EMPTY: HistoryCount = { count: 0, volume: new Map() };

/** The key as the history stores it: card fingerprints as they are, e-mail and IP hashed. */
function hashKey(deps: RiskDeps, key: HistoryKey): HistoryKey | undefined {
  if (deps.fingerprint === undefined) return undefined;
  return key.kind === 'card' ? key : { kind: key.kind, value: deps.fingerprint(key.kind, key.value) };
}

/**
 * The channel's history, as the screening asks it (keys hashed on the way); counted by `count`
 * when given (inside exclusiveRiskKeys), else by the ledger itself.
 */
function channelHistory(
  deps: RiskDeps,
  channelId: string,
  count: RiskLedger['countRiskEvents'] | undefined = deps.riskHistory?.countRiskEvents.bind(deps.riskHistory),
): RiskHistory {
  return {
    async count(key, since) {
      const hashed = hashKey(deps, key);
      if (hashed === undefined || count === undefined) return EMPTY;
      return count(channelId, hashed, since);
    },
  };
}

/** Leaves out undefined fields. */
function defined<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const kept: Record<string, unknown> = {};
  for (const name in value) if (value[name] !== undefined) kept[name] = value[name];
  return kept as { [K in keyof T]?: Exclude<T[K], undefined> };
}
