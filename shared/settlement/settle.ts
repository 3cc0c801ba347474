/**
 * The settlement of one merchant account's day: its transactions in, reconciliation records out.
 * Pure and deterministic: the same input gives the same records in the same order, whatever the
 * order of the transactions given; no clock, no randomness, no I/O.
 *
 * Money never touches a float. Amounts are integer minor units; FX rates are decimal strings applied
 * exactly with bigint arithmetic and one rounding step (`rounding`, default `halfEven`, i.e. banker's
 * rounding). Every settlement amount and fee is rounded to the DEC2 quantum of the settlement
 * currency (a cent; 10 fils for BHD; 1 yen for JPY) so that the CSV can always write it as DEC2.
 *
 * What each gateway payment type becomes:
 *
 * | paymentType | record                                   | cashflow | fee record (if the schedule has one) |
 * |-------------|------------------------------------------|----------|--------------------------------------|
 * | DB, CP, RB  | SETTLED, DEBIT                           | POS      | CAPTURE_FEE                          |
 * | RF          | SETTLED, REFUND                          | NEG      | REFUND_FEE                           |
 * | CD          | SETTLED, CREDIT                          | NEG      | none                                 |
 * | CB          | CHARGEBACK, DEBIT                        | NEG      | none (the spec has no chargeback fee type) |
 * | CR          | CHARGEBACK REVERSAL, DEBIT               | POS      | none                                 |
 * | PA          | nothing settled                          |          | AUTH_FEE                             |
 * | RV          | nothing settled                          |          | CANCEL_FEE                           |
 *
 * FEE records are NEG and carry the fee as their settlement amount; the settled record of the same
 * transaction repeats it as `settlement.fee` for information only. The payout of the day is therefore
 * Σ POS settlement amounts − Σ NEG settlement amounts (FEE records included); do not subtract
 * `settlement.fee` again. A transaction whose settlement FAILED settles nothing and is charged no fee.
 *
 * A transaction of `origin: 'acquirer'` is a record the acquirer holds that the gateway has no
 * payment for: it has no UniqueID or ShortId (its id is the acquirer's, written as ConnectorTxId1)
 * and matches by the merchant's reference only, so it is NOT_MATCHED unless that finds a payment.
 */
import { type Minor, roundDiv } from '../money';
import { checkDec2, dec2Quantum, fail, parseRate, requireExponent } from './amounts';
import type {
  FeeTransactionType,
  MatchingStatus,
  MerchantAccount,
  RecordAccount,
  SettlementRecord,
  SettlementStatus,
} from './records';

/** The gateway payment types a settlement day consists of. */
export const SETTLEMENT_PAYMENT_TYPES = ['DB', 'CP', 'RF', 'RB', 'CD', 'CB', 'CR', 'PA', 'RV'] as const;
export type SettlementPaymentType = (typeof SETTLEMENT_PAYMENT_TYPES)[number];

/** One gateway transaction of the day (a `Payment`, reduced to what settlement needs). */
export interface SettlementTransaction {
  /** 32 letters/digits: the payment id (UniqueID); the acquirer's reference for `origin: 'acquirer'`. */
  readonly id: string;
  /** AN14 (`dddd.dddd.dddd`); ignored for `origin: 'acquirer'`. */
  readonly shortId: string;
  /** Whose transaction it is: the gateway's payment (default), or only the acquirer's record. */
  readonly origin?: 'gateway' | 'acquirer';
  readonly paymentType: SettlementPaymentType;
  /** Minor units of `currency`, non-negative (the amount of the transaction, not signed). */
  readonly amount: Minor;
  readonly currency: string;
  readonly brand?: string;
  /** When the merchant ordered it (TxRequestTime). */
  readonly createdAt: Date;
  readonly descriptor?: string;
  /** The merchant's reference, used for matching when the ids find nothing. */
  readonly merchantTransactionId?: string;
  /** A card payment's account; wins over `bankAccount` when both are given. */
  readonly card?: { readonly last4Digits: string; readonly holder?: string };
  readonly bankAccount?: {
    readonly last4Digits?: string;
    readonly holder?: string;
    readonly bankCode?: string;
  };
  /** The payment this one references (the captured PA, the refunded or charged-back DB …). */
  readonly referencedId?: string;
  /** CR only: the chargeback it reverses (its record's ChargebackId, as the chargeback's own record has it). */
  readonly chargebackId?: string;
  /** CB and CR only: the chargeback's reason (`000.100.2dd`) and its description. */
  readonly chargebackResultCode?: string;
  readonly chargebackResultDescription?: string;
  /** The clearing institute's own references (ConnectorTxId1..3). */
  readonly clearing?: { readonly txId1?: string; readonly txId2?: string; readonly txId3?: string };
  /** Whether the clearing institute settled it; default SUCCESS. */
  readonly status?: SettlementStatus;
}

/** A payment of the merchant that a record may match: the caller passes the merchant's own payments only. */
export interface CandidatePayment {
  readonly id: string;
  readonly shortId?: string;
  readonly merchantTransactionId?: string;
}

/** One merchant account's day. */
export interface SettlementDay {
  readonly merchantAccount: MerchantAccount;
  readonly pspEntityId: string;
  readonly divisionId?: string;
  readonly merchantId: string;
  readonly transactions: readonly SettlementTransaction[];
  /** The payments records are matched against (normally the merchant's payments around the day). */
  readonly candidates: readonly CandidatePayment[];
}

/** A fee: `basisPoints` of the settled amount (150 = 1.5 %), plus `fixed` minor units of the settlement currency. */
export interface Fee {
  readonly basisPoints: number;
  readonly fixed: Minor;
}

/** Payment types that can carry a fee, and the FEE record's transaction type for each. */
export const FEE_TYPES = {
  PA: 'AUTH_FEE',
  DB: 'CAPTURE_FEE',
  CP: 'CAPTURE_FEE',
  RV: 'CANCEL_FEE',
  RF: 'REFUND_FEE',
  // a rebill charges the shopper again: a debit (decisions, "Settlement")
  RB: 'CAPTURE_FEE',
} as const satisfies Record<string, FeeTransactionType>;
export type FeePaymentType = keyof typeof FEE_TYPES;

export type FeeSchedule = Partial<Readonly<Record<FeePaymentType, Fee>>>;

export interface SettlementConfig {
  /** The settlement day, `yyyy-MM-dd` in the clearing institute's time zone. */
  readonly date: string;
  /** Settlement currency (ISO 4217 with a minor unit). */
  readonly currency: string;
  readonly fees?: FeeSchedule;
  /**
   * Units of the settlement currency per one unit of the transaction currency, by transaction
   * currency, as decimal strings (`{ USD: '0.9211' }` with EUR settlement). The settlement currency
   * itself needs no entry (rate `1.00`); any other currency without one is an error.
   */
  readonly fxRates?: Readonly<Record<string, string>>;
  /** Rounding of FX conversions and percentage fees; default `halfEven` (banker's). */
  readonly rounding?: 'halfEven' | 'halfUp';
  /** ClearingInsitituteName (AN64) and ClearingInstituteMerchantId (AN 5-64). */
  readonly clearingInstitute: { readonly name: string; readonly merchantId: string };
  /** SettlementFileFormat, AN32 (the format of the clearing institute's file the day came from). */
  readonly fileFormat: string;
}

/** Rate written for a transaction in the settlement currency. */
export const SAME_CURRENCY_RATE = '1.00';

const ID = /^[A-Za-z0-9]{32}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const REASON_CODE = /^[0-9.]{2,11}$/;

function checkText(value: string, name: string, min: number, max: number): void {
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    fail(`${name} must be ${min}-${max} characters: ${JSON.stringify(value)}`);
  }
}

function checkDay(date: string): void {
  const m = DAY.exec(date);
  if (!m) fail(`date must be yyyy-MM-dd: ${date}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.toISOString().slice(0, 10) !== date) fail(`date is not a calendar day: ${date}`);
}

interface Conversion {
  readonly rate: string;
  /** Converts minor units of the transaction currency into minor units of the settlement currency. */
  readonly apply: (minor: number) => bigint;
}

function conversion(from: string, config: SettlementConfig): Conversion {
  const to = config.currency;
  if (from === to) return { rate: SAME_CURRENCY_RATE, apply: (minor) => BigInt(minor) };
  const rate = config.fxRates?.[from];
  if (rate === undefined) fail(`No FX rate from ${from} to ${to}`);
  const { units, scale } = parseRate(rate, from);
  const fromExponent = requireExponent(from);
  const toExponent = requireExponent(to);
  const quantum = dec2Quantum(to);
  const mode = config.rounding ?? 'halfEven';
  // minor / 10^fromExp units × units / 10^scale × 10^toExp target minor, rounded to the DEC2 quantum.
  const denominator = 10n ** BigInt(scale + fromExponent) * quantum;
  return {
    rate,
    apply: (minor) =>
      roundDiv(BigInt(minor) * units * 10n ** BigInt(toExponent), denominator, mode) * quantum,
  };
}

function feeOf(fee: Fee, base: bigint, config: SettlementConfig): bigint {
  const quantum = dec2Quantum(config.currency);
  const percentage = roundDiv(
    base * BigInt(fee.basisPoints),
    10_000n * quantum,
    config.rounding ?? 'halfEven',
  );
  return percentage * quantum + BigInt(fee.fixed);
}

function checkConfig(config: SettlementConfig): void {
  checkDay(config.date);
  requireExponent(config.currency);
  if (config.rounding !== undefined && config.rounding !== 'halfEven' && config.rounding !== 'halfUp') {
    fail(`Unknown rounding: ${String(config.rounding)}`);
  }
  checkText(config.clearingInstitute.name, 'clearingInstitute.name', 1, 64);
  checkText(config.clearingInstitute.merchantId, 'clearingInstitute.merchantId', 5, 64);
  checkText(config.fileFormat, 'fileFormat', 1, 32);
  const quantum = dec2Quantum(config.currency);
  for (const [type, fee] of Object.entries(config.fees ?? {})) {
    if (!(type in FEE_TYPES)) fail(`No fee type for payment type ${type}`);
    if (!fee) continue;
    if (!Number.isSafeInteger(fee.basisPoints) || fee.basisPoints < 0) {
      fail(`Fee ${type}: basisPoints must be a non-negative integer: ${fee.basisPoints}`);
    }
    checkDec2(fee.fixed, config.currency, `Fee ${type}: fixed`);
    if (BigInt(fee.fixed) % quantum !== 0n) fail(`Fee ${type}: fixed is not a DEC2 amount: ${fee.fixed}`);
  }
  for (const [currency, rate] of Object.entries(config.fxRates ?? {})) {
    requireExponent(currency);
    parseRate(rate, currency);
  }
}

/** The ids a day's records carry: checked once per day. */
export type SettlementAccount = Omit<SettlementDay, 'transactions' | 'candidates'>;

function checkAccount(day: SettlementAccount): void {
  if (!ID.test(day.merchantAccount.id)) fail(`merchantAccount.id must be 32 letters/digits`);
  if (!ID.test(day.pspEntityId)) fail(`pspEntityId must be 32 letters/digits`);
  if (!ID.test(day.merchantId)) fail(`merchantId must be 32 letters/digits`);
  if (day.divisionId !== undefined && !ID.test(day.divisionId)) fail(`divisionId must be 32 letters/digits`);
}

/** Throws RangeError for a transaction settle() cannot take (a transaction given twice aside). */
function checkTransaction(tx: SettlementTransaction): void {
  if (!ID.test(tx.id)) fail(`Transaction id must be 32 letters/digits: ${tx.id}`);
  if (!(SETTLEMENT_PAYMENT_TYPES as readonly string[]).includes(tx.paymentType)) {
    fail(`Transaction ${tx.id}: paymentType ${tx.paymentType} does not settle`);
  }
  if (tx.origin !== 'acquirer') checkText(tx.shortId, `Transaction ${tx.id}: shortId`, 1, 14);
  requireExponent(tx.currency);
  checkDec2(tx.amount, tx.currency, `Transaction ${tx.id}: amount`);
  if (tx.status !== undefined && tx.status !== 'SUCCESS' && tx.status !== 'FAILED') {
    fail(`Transaction ${tx.id}: status must be SUCCESS or FAILED`);
  }
  if (!(tx.createdAt instanceof Date) || Number.isNaN(tx.createdAt.getTime())) {
    fail(`Transaction ${tx.id}: createdAt is not a date`);
  }
  if (
    (tx.paymentType === 'CB' || tx.paymentType === 'CR') &&
    tx.chargebackResultCode !== undefined &&
    !REASON_CODE.test(tx.chargebackResultCode)
  ) {
    fail(`Transaction ${tx.id}: chargebackResultCode must be 2-11 digits and dots`);
  }
}

function checkDayInput(day: SettlementDay): void {
  checkAccount(day);
  const seen = new Set<string>();
  for (const tx of day.transactions) {
    if (!ID.test(tx.id)) fail(`Transaction id must be 32 letters/digits: ${tx.id}`);
    if (seen.has(tx.id)) fail(`Transaction ${tx.id} given twice`);
    seen.add(tx.id);
    checkTransaction(tx);
  }
}

/** The outcome of matching a record against the merchant's payments. */
export interface Match {
  readonly status: MatchingStatus;
  readonly ids: readonly string[];
}

/**
 * Matches a transaction against the merchant's payments, by the first key that finds anything:
 * its UniqueID (for CB and CR: the charged-back payment, `referencedId`), then its shortId (not for
 * CB/CR: their shortId is their own), then the merchant's reference (`merchantTransactionId`).
 * An acquirer's record without a payment has neither id nor shortId of the gateway: only its
 * reference can match. One hit is MATCHED, several are MULTIPLE_MATCHES (ids sorted), none is
 * NOT_MATCHED.
 */
export function matchTransaction(tx: SettlementTransaction, candidates: readonly CandidatePayment[]): Match {
  return matchIndexed(tx, indexCandidates(candidates));
}

/** The candidates' ids by each matching key: one pass, so matching a day is linear, not a scan per record. */
interface CandidateIndex {
  readonly byId: ReadonlyMap<string, ReadonlySet<string>>;
  readonly byShortId: ReadonlyMap<string, ReadonlySet<string>>;
  readonly byReference: ReadonlyMap<string, ReadonlySet<string>>;
}

function indexCandidates(candidates: readonly CandidatePayment[]): CandidateIndex {
  const byId = new Map<string, Set<string>>();
  const byShortId = new Map<string, Set<string>>();
  const byReference = new Map<string, Set<string>>();
  const add = (index: Map<string, Set<string>>, key: string, id: string) => {
    const ids = index.get(key);
    if (ids === undefined) index.set(key, new Set([id]));
    else ids.add(id);
  };
  for (const c of candidates) {
    add(byId, c.id, c.id);
    if (c.shortId !== undefined) add(byShortId, c.shortId, c.id);
    if (c.merchantTransactionId !== undefined) add(byReference, c.merchantTransactionId, c.id);
  }
  return { byId, byShortId, byReference };
}

function matchIndexed(tx: SettlementTransaction, index: CandidateIndex): Match {
  const chargeback = tx.paymentType === 'CB' || tx.paymentType === 'CR';
  const gateway = tx.origin !== 'acquirer';
  const hits: (ReadonlySet<string> | undefined)[] = [];
  const uniqueId = chargeback ? tx.referencedId : gateway ? tx.id : undefined;
  if (uniqueId !== undefined) hits.push(index.byId.get(uniqueId));
  if (!chargeback && gateway) hits.push(index.byShortId.get(tx.shortId));
  const reference = tx.merchantTransactionId;
  if (reference !== undefined && reference !== '') hits.push(index.byReference.get(reference));
  for (const found of hits) {
    if (found === undefined || found.size === 0) continue;
    const ids = [...found].sort();
    return { status: ids.length === 1 ? 'MATCHED' : 'MULTIPLE_MATCHES', ids };
  }
  return { status: 'NOT_MATCHED', ids: [] };
}

function accountOf(tx: SettlementTransaction): RecordAccount | undefined {
  if (tx.card) return { kind: 'card', last4Digits: tx.card.last4Digits, holder: tx.card.holder };
  if (tx.bankAccount) return { kind: 'bankAccount', ...tx.bankAccount };
  return undefined;
}

/** ChargebackId: a chargeback's own id, and on its reversal the id of the chargeback it reverses. */
function chargebackIdOf(tx: SettlementTransaction): string | undefined {
  if (tx.paymentType === 'CB') return tx.id;
  return tx.paymentType === 'CR' ? tx.chargebackId : undefined;
}

/** The record a transaction's money movement is (decisions, "Settlement"); none for PA and RV. */
function mainRecordOf(paymentType: SettlementPaymentType) {
  switch (paymentType) {
    case 'DB':
    case 'CP':
    case 'RB': // a rebill charges the shopper again (decisions, "Settlement")
      return { recordType: 'SETTLED', transactionType: 'DEBIT', cashflow: 'POS' } as const;
    case 'RF':
      return { recordType: 'SETTLED', transactionType: 'REFUND', cashflow: 'NEG' } as const;
    case 'CD': // a credit pays the shopper out
      return { recordType: 'SETTLED', transactionType: 'CREDIT', cashflow: 'NEG' } as const;
    case 'CB':
      return { recordType: 'CHARGEBACK', transactionType: 'DEBIT', cashflow: 'NEG' } as const;
    case 'CR':
      return { recordType: 'CHARGEBACK REVERSAL', transactionType: 'DEBIT', cashflow: 'POS' } as const;
    default:
      return undefined; // PA, RV: authorizations move no money
  }
}

const compact = (date: string): string => date.replaceAll('-', '');

/** The order of a day's records: the transactions' `createdAt`, then id (as strings compare). */
export function compareTransactions(a: SettlementTransaction, b: SettlementTransaction): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The reconciliation records of one merchant account's settlement day, ordered by the transactions'
 * `createdAt` (then id), each transaction's record followed by its FEE record.
 *
 * Throws `RangeError` for invalid input: an unknown currency, an id not of 32 letters/digits, a
 * transaction given twice, a missing or invalid FX rate, an amount not writable as DEC2.
 */
export function settle(day: SettlementDay, config: SettlementConfig): SettlementRecord[] {
  checkConfig(config);
  checkDayInput(day);
  const transactions = [...day.transactions].sort(compareTransactions);
  const records: SettlementRecord[] = [];
  const candidates = indexCandidates(day.candidates);
  for (const tx of transactions) records.push(...recordsOf(tx, matchIndexed(tx, candidates), day, config));
  return records;
}

/**
 * One transaction's records, for a day too large to hold whole: the settler's `(tx, match)` is
 * what settle() gives for `tx` when the day's candidates match it as `match` (see
 * {@link matchTransaction}); the caller gives the transactions in {@link compareTransactions}
 * order, each once. The configuration and the account are checked here, once; each transaction
 * as it comes. Throws RangeError as settle() does.
 */
export function transactionSettler(
  account: SettlementAccount,
  config: SettlementConfig,
): (tx: SettlementTransaction, match: Match) => SettlementRecord[] {
  checkConfig(config);
  checkAccount(account);
  return (tx, match) => {
    checkTransaction(tx);
    return recordsOf(tx, match, account, config);
  };
}

/** A transaction's record and its FEE record (none, one or both). */
function recordsOf(
  tx: SettlementTransaction,
  match: Match,
  day: SettlementAccount,
  config: SettlementConfig,
): SettlementRecord[] {
  const records: SettlementRecord[] = [];
  const toMinor = (value: bigint, name: string): Minor => {
    const n = Number(value);
    checkDec2(n, config.currency, name);
    return n as Minor;
  };

  const convert = conversion(tx.currency, config);
  const settledAmount = toMinor(convert.apply(tx.amount), `Transaction ${tx.id}: settlement amount`);
  const feeRule = tx.paymentType in FEE_TYPES ? config.fees?.[tx.paymentType as FeePaymentType] : undefined;
  const status = tx.status ?? 'SUCCESS';
  const fee =
    feeRule && status === 'SUCCESS'
      ? toMinor(feeOf(feeRule, BigInt(settledAmount), config), `Transaction ${tx.id}: fee`)
      : undefined;
  const chargeback = tx.paymentType === 'CB' || tx.paymentType === 'CR';
  const acquirer = tx.origin === 'acquirer';

  const common = {
    clearingInstitute: {
      name: config.clearingInstitute.name,
      merchantId: config.clearingInstitute.merchantId,
      ...tx.clearing,
      ...(acquirer ? { txId1: tx.id } : {}),
    },
    account: accountOf(tx),
    merchantAccount: { ...day.merchantAccount },
    pspEntityId: day.pspEntityId,
    divisionId: day.divisionId,
    merchantId: day.merchantId,
    payment: {
      id: acquirer ? undefined : tx.id,
      shortId: acquirer ? undefined : tx.shortId,
      amount: tx.amount,
      currency: tx.currency,
      brand: tx.brand,
      requestTime: tx.createdAt,
      descriptor: tx.descriptor,
    },
    matchingStatus: match.status,
    matchedTransactions: match.ids,
  } as const;
  const settlement = {
    currency: config.currency,
    fxRate: convert.rate,
    date: config.date,
    status,
    format: config.fileFormat,
  } as const;

  const main = mainRecordOf(tx.paymentType);

  if (main) {
    records.push({
      ...main,
      ...common,
      settlement: { id: `${compact(config.date)}${tx.id}`, amount: settledAmount, fee, ...settlement },
      reason:
        chargeback && tx.chargebackResultCode !== undefined
          ? { code: tx.chargebackResultCode, description: tx.chargebackResultDescription }
          : undefined,
      chargebackId: match.status === 'MATCHED' ? chargebackIdOf(tx) : undefined,
    });
  }
  if (fee !== undefined && fee > 0) {
    records.push({
      recordType: 'FEE',
      transactionType: FEE_TYPES[tx.paymentType as FeePaymentType],
      cashflow: 'NEG',
      ...common,
      settlement: { id: `${compact(config.date)}${tx.id}F`, amount: fee, ...settlement },
    });
  }
  return records;
}
