/**
 * A merchant account's day settled into staged records (server/storage/settlements/staged.ts), a
 * page of transactions at a time, so that a day of any size settles in bounded memory and in time
 * linear in its transactions. The records are those settle() (shared/settlement) gives for the
 * whole day, in its order, with the same seq: the day's transactions come in settle()'s order
 * (createdAt, id) from the store, the acquirer's own records merged in; each settlement currency
 * numbers its records as they come.
 *
 * Matching without the whole day: a gateway payment's UniqueID always finds itself, and a CB's or
 * CR's the payment charged back when the store has it. Only the rest (the acquirer's own records,
 * a chargeback whose original is missing) match by the merchant's reference against the whole
 * day: they are kept aside with their places (their record count does not depend on the match),
 * the day's candidates with their references collected (a second reading of the day when a
 * reference was not known before the first), and their records staged at the end.
 */
import { newId } from '../../../shared/engine/core/ids';
import type { Channel } from '../../../shared/engine/core/model';
import type { Minor } from '../../../shared/money';
import {
  type CandidatePayment,
  compareTransactions,
  type Match,
  matchTransaction,
  type SettlementAccount,
  type SettlementRecord,
  type SettlementTransaction,
  transactionSettler,
} from '../../../shared/settlement';
import { simulatedRate } from '../../processors/simulator/fx';
import type { GatewayStore } from '../../storage/kysely-store';
import { recordRow, type Settlement, type StagedRecords } from '../../storage/settlements';
import { acquirerDay } from './acquirer';
import {
  type DayTransaction,
  DEFAULT_FEES,
  DEFAULT_FILE_FORMAT,
  dayStart,
  MAX_LISTED,
  type ProcessorDiscrepancies,
  type SettleDayOptions,
  SIMULATED_CLEARING_INSTITUTE,
} from './model';
import { ProcessorDayIndex, ProcessorRecordsUnavailable } from './processor-day';
import { reportedRecords, unclaimedTransaction } from './processor-records';
import { dayTransactions } from './transactions';

export function configOf(channel: Channel, options: SettleDayOptions) {
  const own = options.config?.(channel) ?? {};
  const simulated = { name: SIMULATED_CLEARING_INSTITUTE, merchantId: `SIM-${channel.id.slice(0, 16)}` };
  return {
    currency: own.currency,
    fees: own.fees ?? DEFAULT_FEES,
    fxRates: own.fxRates,
    rounding: own.rounding,
    clearingInstitute: own.clearingInstitute ?? simulated,
    /** Of what the channel's connector processed: the configured institute, else the connector. */
    connectorInstitute: own.clearingInstitute ?? connectorInstitute(channel) ?? simulated,
    fileFormat: own.fileFormat ?? DEFAULT_FILE_FORMAT,
  };
}

/** The name each kind's records give their clearing institute (followed by the connector's host). */
const INSTITUTE_NAMES = {
  opp: 'OPP connector',
  adyen: 'Adyen connector',
  stripe: 'Stripe connector',
} as const;

/**
 * The clearing institute of a connector channel's records (ClearingInsitituteName AN64,
 * ClearingInstituteMerchantId AN 5-64): the connector, named by its kind and the address it
 * forwards to (`OPP connector acquirer.example`), and the account there (opp: its entityId;
 * adyen: the merchant account; stripe: the channel's, Stripe's key names none), never the
 * simulator.
 */
function connectorInstitute(channel: Channel): { name: string; merchantId: string } | undefined {
  const connector = channel.settings.connector ?? channel.settings.routes?.[0]?.connector;
  if (connector === undefined) return undefined;
  const kind = connector.kind ?? 'opp';
  if (!Object.hasOwn(INSTITUTE_NAMES, kind)) return undefined;
  let host = connector.baseUrl;
  try {
    host = new URL(connector.baseUrl).host;
  } catch {
    // a stored address that does not parse is named as it is
  }
  const own =
    connector.kind === 'adyen'
      ? connector.merchantAccount
      : connector.kind === 'stripe'
        ? channel.id
        : connector.entityId;
  const account = own.length >= 5 ? own : `${own}-${channel.id}`;
  return { name: `${INSTITUTE_NAMES[kind]} ${host}`.slice(0, 64), merchantId: account.slice(0, 64) };
}

type DayConfig = ReturnType<typeof configOf>;

/** One settlement currency's settlement, its counts and totals added up as its records come. */
class OpenSettlement {
  readonly id = newId();
  /** Records so far: the next record's seq. */
  seq = 0;
  private success = true;
  private readonly counts = { settled: 0, chargebacks: 0, chargebackReversals: 0, fees: 0 };
  private readonly totals = { positive: 0, negative: 0, fees: 0 };

  constructor(readonly currency: string) {}

  /** Counts a transaction's records; the seq of the first. */
  add(records: readonly SettlementRecord[]): number {
    const first = this.seq;
    this.seq += records.length;
    for (const r of records) {
      if (r.settlement.status !== 'SUCCESS') this.success = false;
      // a FAILED settlement moved no money: listed, counted, but not in the totals
      if (r.settlement.status === 'FAILED') {
        if (r.recordType === 'SETTLED') this.counts.settled += 1;
        continue;
      }
      if (r.cashflow === 'POS') this.totals.positive += r.settlement.amount;
      else this.totals.negative += r.settlement.amount;
      if (r.recordType === 'FEE') {
        this.totals.fees += r.settlement.amount;
        this.counts.fees += 1;
      } else if (r.recordType === 'SETTLED') this.counts.settled += 1;
      else if (r.recordType === 'CHARGEBACK') this.counts.chargebacks += 1;
      else this.counts.chargebackReversals += 1;
    }
    return first;
  }

  settlement(channel: Channel, date: string, at: Date): Settlement {
    return {
      id: this.id,
      merchantId: channel.merchantId,
      channelId: channel.id,
      date,
      currency: this.currency,
      status: this.success ? 'SUCCESS' : 'FAILED',
      recordCount: this.seq,
      counts: { ...this.counts },
      totals: {
        positive: this.totals.positive as Minor,
        negative: this.totals.negative as Minor,
        fees: this.totals.fees as Minor,
      },
      createdAt: at,
    };
  }
}

/** The match that needs no other transaction of the day; undefined when only the day's references can tell. */
function directMatch(item: DayTransaction): Match | undefined {
  const { tx } = item;
  if (tx.origin === 'acquirer') return undefined;
  if (tx.paymentType !== 'CB' && tx.paymentType !== 'CR') return { status: 'MATCHED', ids: [tx.id] };
  // a chargeback's second candidate is the payment charged back, when the store has it
  const original = item.candidates.find((c) => c.id === tx.referencedId);
  return original === undefined ? undefined : { status: 'MATCHED', ids: [original.id] };
}

const NOT_MATCHED: Match = { status: 'NOT_MATCHED', ids: [] };

/** A transaction whose match waits for the whole day: its records' settlement and first seq. */
interface Deferred {
  readonly item: DayTransaction;
  readonly settlement: OpenSettlement;
  readonly seq: number;
}

export interface StageDayInput {
  readonly store: GatewayStore;
  readonly channel: Channel;
  readonly date: string;
  readonly config: DayConfig;
  readonly pspEntityId: string;
  readonly now: Date;
  /**
   * The processor's records of the day (a connector channel whose kind reports them), or why they
   * could not be read: then a day with a transaction of the connector's is not settled now.
   */
  readonly processor?: ProcessorDayIndex | ProcessorRecordsUnavailable;
}

export interface StagedDay {
  /** One per settlement currency with records, by currency. */
  readonly settlements: Settlement[];
  /** Settled from the processor's records: what did not agree. */
  readonly processor?: ProcessorDiscrepancies;
}

/** Ids listed up to MAX_LISTED, counted whole. */
class Listed {
  readonly ids: string[] = [];
  count = 0;
  add(id: string): void {
    this.count += 1;
    if (this.ids.length < MAX_LISTED) this.ids.push(id);
  }
}

/**
 * A transaction as the processor's records have it: its reported settlement claimed; without
 * one, FAILED and listed as missing (an authorisation or reversal without a fee moves no money:
 * undefined, nothing written). Throws ProcessorRecordsUnavailable when the processor has not
 * settled the day at all (yet).
 */
function asReported(
  input: StageDayInput,
  processor: ProcessorDayIndex | ProcessorRecordsUnavailable,
  item: DayTransaction,
  missing: Listed,
): DayTransaction | undefined {
  if (item.viaConnector !== true || item.reported !== undefined) return item;
  if (processor instanceof ProcessorRecordsUnavailable) throw processor;
  if (!processor.reported)
    throw new ProcessorRecordsUnavailable(input.channel.id, input.date, 'are not there yet');
  const reported = processor.claim(item.tx);
  if (reported !== undefined) return { ...item, reported };
  if (item.tx.paymentType === 'PA' || item.tx.paymentType === 'RV') return undefined;
  missing.add(item.tx.id);
  return { ...item, tx: { ...item.tx, status: 'FAILED' } };
}

/** Settles the day into `staged`: its settlements, and what the processor's records did not agree on. */
export async function stageDay(input: StageDayInput, staged: StagedRecords): Promise<StagedDay> {
  const { store, channel, date, config, processor } = input;
  const index = processor instanceof ProcessorDayIndex ? processor : undefined;
  const acquirer = acquirerDay(await store.listAcquirerRecords(channel.id, date));
  const ownIds = new Set(acquirer.own.map((o) => o.tx.id));
  const settle = settlers(input);
  const open = new Map<string, OpenSettlement>();
  const deferred: Deferred[] = [];
  const references = new ReferenceIndex(acquirer.own.map((o) => o.tx.merchantTransactionId));
  const missing = new Listed();

  const take = async (given: DayTransaction): Promise<void> => {
    const known = acquirer.failed.has(given.tx.id)
      ? { ...given, tx: { ...given.tx, status: 'FAILED' as const } }
      : given;
    const item = processor === undefined ? known : asReported(input, processor, known, missing);
    if (item === undefined) return;
    references.collect(item.candidates);
    const currency = item.reported?.settlement.currency ?? config.currency ?? item.tx.currency;
    const match = directMatch(item);
    const records = settle(currency, item, match ?? NOT_MATCHED);
    if (records.length === 0) return;
    let settlement = open.get(currency);
    if (settlement === undefined) {
      settlement = new OpenSettlement(currency);
      open.set(currency, settlement);
    }
    const seq = settlement.add(records);
    if (match === undefined) deferred.push({ item, settlement, seq });
    else await stage(staged, settlement.id, seq, records, item);
  };

  let next = 0; // the acquirer's own transactions taken so far
  // with the processor's records, every PA and RV is read: the processor may have charged a fee
  const read = index === undefined ? config.fees : { ...READ_ALL, ...config.fees };
  for await (const page of dayTransactions(store, channel, date, read)) {
    for (const item of page) {
      if (ownIds.has(item.tx.id)) throw new RangeError(`Transaction ${item.tx.id} given twice`);
      while (next < acquirer.own.length && compareTransactions(acquirer.own[next]!.tx, item.tx) < 0)
        await take(acquirer.own[next++]!);
      await take(item);
    }
  }
  while (next < acquirer.own.length) await take(acquirer.own[next++]!);
  // what the processor settled that the gateway lacks, after the gateway's own day
  const unknown = new Listed();
  for (const reported of index?.unclaimed() ?? []) {
    unknown.add(reported.theirId);
    const item = unclaimedTransaction(reported, dayStart(date));
    if (item !== undefined) await take(item);
  }

  await settleDeferred(input, staged, deferred, references, settle);
  const settlements = [...open.values()]
    .sort((a, b) => (a.currency < b.currency ? -1 : 1))
    .map((s) => s.settlement(channel, date, input.now));
  if (index === undefined) return { settlements };
  return {
    settlements,
    processor: {
      missing: missing.ids,
      missingCount: missing.count,
      unknown: unknown.ids,
      unknownCount: unknown.count,
    },
  };
}

/** Fees of nothing for PA and RV: only so that the day's reading keeps them (transactions.ts settles()). */
const READ_ALL = { PA: { basisPoints: 0, fixed: 0 as Minor }, RV: { basisPoints: 0, fixed: 0 as Minor } };

type Settler = (currency: string, item: DayTransaction, match: Match) => SettlementRecord[];

/**
 * settle()'s records of one transaction into a settlement currency: a settler per settlement
 * currency and transaction currency, each with the one FX rate it needs (the rates of the
 * currencies a day has, as settle() is given them).
 */
function settlers(input: StageDayInput): Settler {
  const { channel, date, config } = input;
  const account: SettlementAccount = {
    merchantAccount: { id: channel.id, name: channel.name },
    pspEntityId: input.pspEntityId,
    merchantId: channel.merchantId,
  };
  const cache = new Map<string, ReturnType<typeof transactionSettler>>();
  const reportedConfig = {
    date,
    clearingInstitute: config.connectorInstitute,
    fileFormat: config.fileFormat,
  };
  return (currency, item, match) => {
    const { tx, viaConnector, reported } = item;
    if (reported !== undefined) return reportedRecords(account, reportedConfig, { ...item, reported }, match);
    const key = `${currency} ${tx.currency}${viaConnector === true ? ' connector' : ''}`;
    let settler = cache.get(key);
    if (settler === undefined) {
      const rate =
        tx.currency === currency
          ? undefined
          : (config.fxRates?.[tx.currency] ?? simulatedRate(tx.currency, currency));
      settler = transactionSettler(account, {
        date,
        currency,
        fees: config.fees,
        fxRates: rate === undefined ? {} : { [tx.currency]: rate },
        ...(config.rounding === undefined ? {} : { rounding: config.rounding }),
        clearingInstitute: viaConnector === true ? config.connectorInstitute : config.clearingInstitute,
        fileFormat: config.fileFormat,
      });
      cache.set(key, settler);
    }
    return settler(tx, match);
  };
}

async function stage(
  staged: StagedRecords,
  settlementId: string,
  seq: number,
  records: readonly SettlementRecord[],
  item: DayTransaction,
): Promise<void> {
  for (const [i, record] of records.entries())
    await staged.add(recordRow(settlementId, seq + i, { record, ...item.references }));
}

/**
 * The day's candidates that carry one of the wanted references (the merchant's
 * merchantTransactionId): all a record matched by reference needs of the day.
 */
class ReferenceIndex {
  private readonly wanted: Set<string>;
  private readonly found = new Map<string, Map<string, CandidatePayment>>();

  constructor(references: Iterable<string | undefined>) {
    this.wanted = new Set([...references].filter((r): r is string => r !== undefined && r !== ''));
  }

  /** Whether every reference of `txs` was wanted from the start (else the day is read again for them). */
  covers(txs: readonly SettlementTransaction[]): boolean {
    return txs.every((tx) => !tx.merchantTransactionId || this.wanted.has(tx.merchantTransactionId));
  }

  collect(candidates: readonly CandidatePayment[]): void {
    for (const c of candidates) {
      const reference = c.merchantTransactionId;
      if (reference === undefined || !this.wanted.has(reference)) continue;
      const ids = this.found.get(reference) ?? new Map<string, CandidatePayment>();
      this.found.set(reference, ids.set(c.id, c));
    }
  }

  candidates(reference: string | undefined): CandidatePayment[] {
    return reference ? [...(this.found.get(reference)?.values() ?? [])] : [];
  }
}

/** The transactions that match by reference, matched against the whole day and staged in their places. */
async function settleDeferred(
  input: StageDayInput,
  staged: StagedRecords,
  deferred: readonly Deferred[],
  references: ReferenceIndex,
  settle: Settler,
): Promise<void> {
  if (deferred.length === 0) return;
  const txs = deferred.map((d) => d.item.tx);
  if (!references.covers(txs)) {
    // a chargeback without its original named a reference the first reading did not collect
    const again = new ReferenceIndex(txs.map((tx) => tx.merchantTransactionId));
    for await (const page of dayTransactions(input.store, input.channel, input.date, input.config.fees))
      for (const item of page) again.collect(item.candidates);
    references = again;
  }
  for (const { item, settlement, seq } of deferred) {
    const match = matchTransaction(item.tx, references.candidates(item.tx.merchantTransactionId));
    await stage(staged, settlement.id, seq, settle(settlement.currency, item, match), item);
  }
}
