/**
 * The daily settlement run: a merchant account's (channel's) successful transactions of one UTC day
 * become reconciliation records (`shared/settlement` settle()), stored once per merchant account,
 * day and settlement currency (`SettlementStore`), and written as the spec's CSV file into the
 * merchant's FTP folder.
 *
 * - What settles: DB, CP (and PA.CP, as a debit), RF, RB that succeeded (success or success-review
 *   codes), CB booked with a chargeback code (000.100.2xx), CR that succeeded. PA and RV only make
 *   fee records, and only when the channel's fee schedule has a PA or RV fee. A transaction belongs
 *   to the UTC day of its creation (`createdAt`); a pending payment that ends later keeps its day.
 * - When: on demand, `settleDay(deps, 'yyyy-MM-dd')` (the CLI), for a day that is over (UTC); or by
 *   the clock, `settlementWorker`, which settles each of the last `lookbackDays` days (default 7)
 *   once its cut-off has passed: 02:00 UTC of the next day (`cutoffMs`). Pending payments end within
 *   30 minutes, so by then every transaction of the day is final.
 * - Once: the run row (channel, day) is written in the transaction of the day's settlements; a second
 *   run of the day, here or in another process, writes nothing and answers `already-settled`.
 * - The ids of the spec: MerchantAccountId = the channel (entityId) and its name; MerchantId = the
 *   merchant; PspId = the installation (`pspEntityId`, default {@link DEFAULT_PSP_ENTITY_ID});
 *   DivisionId is not written (the gateway has no divisions). SettlementDate = the settled day;
 *   the clearing institute's time zone is UTC.
 * - Settlement configuration per channel (`options.config`), with defaults: settlement currency =
 *   the transaction's (one settlement per currency), fees {@link DEFAULT_FEES}, FX rates from the
 *   simulated table {@link SIMULATED_EUR_RATES} (cross rates through EUR, 6 decimals, half-even),
 *   clearing institute `Simulated Acquirer` / `SIM-<first 16 of the entityId>`, file format
 *   `SIM-SETTLEMENT-V1`.
 * - The file: `<dataDir>/reconciliation/<merchantId>/reconciliation_<entityId>_<yyyyMMdd>.csv`
 *   (`…_<yyyyMMdd>_LIVE.csv` for a live channel: one channel per file, so test and live never mix), the
 *   day's records of every currency (currencies in alphabetical order, each in settle()'s order),
 *   written to a temporary file in `<dataDir>/reconciliation/.tmp/` (no merchant's folder), synced,
 *   then renamed into place: readers see the whole file or none. A day without records has no
 *   file. A run that finds its day settled writes the file again if it is missing (a crash
 *   between the commit and the rename).
 * - Formula injection: text cells that a spreadsheet would run (`=`, `+`, `-`, `@`, TAB, CR first)
 *   get a leading `'` (shared/settlement/csv.ts); GATEWAY_CSV_NEUTRALISE=off writes them as they
 *   are, for consumers that need the exact values (read at each write: {@link csvOptions}).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../../shared/engine/core/ids';
import type { Channel, ChannelMode, Payment } from '../../shared/engine/core/model';
import type { Clock } from '../../shared/engine/core/ports';
import { CHARGEBACK_RESULT_CODE } from '../../shared/engine/operations/chargebacks';
import { asMinor, type Minor } from '../../shared/money';
import { SIMULATED_EUR_RATES, simulatedRate } from '../processors/simulator/fx';

export { SIMULATED_EUR_RATES, simulatedRate };

import { describe, isSuccess, isSuccessReview } from '../../shared/result-codes';
import {
  type CandidatePayment,
  type FeeSchedule,
  type ReconciliationCsvOptions,
  reconciliationCsv,
  type SettlementConfig,
  type SettlementPaymentType,
  type SettlementRecord,
  type SettlementTransaction,
  settle,
} from '../../shared/settlement';
import type { Logger } from '../security/logger';
import type { GatewayStore } from '../storage';
import type { Settlement, StoredSettlementRecord } from '../storage/settlements';
import { type Poller, poller } from '../workers/poller';

export interface SettlementRunDeps {
  readonly store: GatewayStore;
  readonly clock: Clock;
  /** The gateway's data folder; files go to `<dataDir>/reconciliation/<merchantId>/`. */
  readonly dataDir: string;
  readonly logger?: Logger;
  /** Where GATEWAY_CSV_NEUTRALISE is read; process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * How the reconciliation CSV is written: text cells that start a formula are neutralised unless
 * GATEWAY_CSV_NEUTRALISE is `off` (also `false`, `0`, `no`). The reporting API's CSV uses the same.
 */
export function csvOptions(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ReconciliationCsvOptions {
  const setting = env.GATEWAY_CSV_NEUTRALISE?.trim().toLowerCase();
  return {
    neutralizeFormulas: !(setting === 'off' || setting === 'false' || setting === '0' || setting === 'no'),
  };
}

/** A channel's settlement configuration; every field has a default. */
export interface ChannelSettlementConfig {
  /** Settlement currency; by default each transaction settles in its own currency. */
  readonly currency?: string;
  readonly fees?: FeeSchedule;
  /** Units of the settlement currency per unit of a transaction currency; the simulated table otherwise. */
  readonly fxRates?: Readonly<Record<string, string>>;
  readonly rounding?: 'halfEven' | 'halfUp';
  readonly clearingInstitute?: { readonly name: string; readonly merchantId: string };
  readonly fileFormat?: string;
}

export interface SettleDayOptions {
  /** Only this merchant's channels. */
  readonly merchantId?: string;
  /** Only these channels (entityIds). */
  readonly channelIds?: readonly string[];
  /** A channel's settlement configuration (defaults above for what it leaves out). */
  readonly config?: (channel: Channel) => ChannelSettlementConfig | undefined;
  /** PspId of the records: 32 letters/digits. */
  readonly pspEntityId?: string;
}

/** What a run did for one merchant account. */
export interface SettledAccount {
  readonly merchantId: string;
  readonly channelId: string;
  readonly date: string;
  /** `settled` by this run, or `already-settled` by an earlier one (nothing written again). */
  readonly status: 'settled' | 'already-settled';
  readonly settlements: readonly Settlement[];
  /** The reconciliation file (absolute path), when the day had records. */
  readonly file?: string;
}

/** The installation's PSP entity (PspId): a constant, since the gateway is its own single PSP. */
export const DEFAULT_PSP_ENTITY_ID = '0000000000000000000000000000a001';
export const DEFAULT_CUTOFF_MS = 2 * 60 * 60_000;
export const DEFAULT_SETTLEMENT_INTERVAL_MS = 10 * 60_000;
export const DEFAULT_LOOKBACK_DAYS = 7;
export const DEFAULT_FILE_FORMAT = 'SIM-SETTLEMENT-V1';
export const SIMULATED_CLEARING_INSTITUTE = 'Simulated Acquirer';
/** The folder under the data folder that holds the merchants' folders (the FTP root). */
export const RECONCILIATION_FOLDER = 'reconciliation';

/** Debits and captures 1.5 %, refunds and rebills 0.5 %; nothing for authorizations and reversals. */
export const DEFAULT_FEES: FeeSchedule = {
  DB: { basisPoints: 150, fixed: asMinor(0) },
  CP: { basisPoints: 150, fixed: asMinor(0) },
  RF: { basisPoints: 50, fixed: asMinor(0) },
  RB: { basisPoints: 50, fixed: asMinor(0) },
};

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const PAGE = 1000;
/** The payment types read for a day (PA and RV are kept only for configured fees). */
const DAY_TYPES = ['DB', 'CP', 'PA.CP', 'RF', 'RB', 'CB', 'CR', 'PA', 'RV'];

/** The start of a `yyyy-MM-dd` day in UTC; throws RangeError for anything else. */
export function dayStart(date: string): Date {
  const m = DAY.exec(date);
  const start = m && new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (!start || start.toISOString().slice(0, 10) !== date)
    throw new RangeError(`Not a day (yyyy-MM-dd): ${date}`);
  return start;
}

/** The UTC day of an instant, `yyyy-MM-dd`. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * `reconciliation_<entityId>_<yyyyMMdd>.csv` for a test channel, `…_<yyyyMMdd>_LIVE.csv` for a
 * live one: a file holds one channel's day, so test and live never share a file, and the suffix
 * tells the merchant's two environments apart in its one folder.
 */
export const reconciliationFileName = (channelId: string, date: string, mode: ChannelMode = 'TEST'): string =>
  `reconciliation_${channelId}_${date.replaceAll('-', '')}${mode === 'LIVE' ? '_LIVE' : ''}.csv`;

/** Where a merchant's reconciliation files are. */
export const merchantFolder = (dataDir: string, merchantId: string): string =>
  join(dataDir, RECONCILIATION_FOLDER, merchantId);

// ---------------------------------------------------------------------------------------------
// Transactions of a day

/** Whether a payment settles (or, PA/RV, may carry a fee). */
function settles(p: Payment, fees: FeeSchedule): boolean {
  if (p.amount === null && p.paymentType !== 'RV') return false;
  const ok = isSuccess(p.resultCode) || isSuccessReview(p.resultCode);
  switch (p.paymentType) {
    case 'CB':
      return CHARGEBACK_RESULT_CODE.test(p.resultCode);
    case 'CR':
      return isSuccess(p.resultCode);
    case 'PA':
    case 'RV':
      return ok && fees[p.paymentType] !== undefined;
    default:
      return ok;
  }
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined;

function bankAccountOf(details: Payment['details']): SettlementTransaction['bankAccount'] {
  const bank = details.bankAccount as Record<string, unknown> | undefined;
  if (bank === undefined || typeof bank !== 'object') return undefined;
  const number = [bank.iban, bank.number].find((v): v is string => typeof v === 'string');
  const digits = number?.replace(/[^A-Za-z0-9]/g, '');
  const last4Digits = digits && digits.length >= 4 ? digits.slice(-4) : undefined;
  const holder = text(bank.holder, 128);
  const bankCode = text(bank.bankCode, 12);
  if (last4Digits === undefined && holder === undefined && bankCode === undefined) return undefined;
  return {
    ...(last4Digits === undefined ? {} : { last4Digits }),
    ...(holder === undefined ? {} : { holder }),
    ...(bankCode === undefined ? {} : { bankCode }),
  };
}

function clearingOf(details: Payment['details']): SettlementTransaction['clearing'] {
  const rd = details.resultDetails as Record<string, unknown> | undefined;
  if (rd === undefined || typeof rd !== 'object') return undefined;
  const ids = {
    txId1: text(rd.ConnectorTxID1, 64),
    txId2: text(rd.ConnectorTxID2, 64),
    txId3: text(rd.ConnectorTxID3, 64),
  };
  const present = Object.entries(ids).filter(([, v]) => v !== undefined);
  return present.length === 0 ? undefined : Object.fromEntries(present);
}

/** A payment as settle() takes it; `lookup` reads referenced payments (RV amounts, a CR's CB). */
async function transactionOf(
  p: Payment,
  lookup: (id: string) => Promise<Payment | undefined>,
): Promise<SettlementTransaction | undefined> {
  let amount = p.amount;
  let currency = p.currency;
  if ((amount === null || currency === undefined) && p.referencedId !== undefined) {
    const original = await lookup(p.referencedId);
    amount ??= original?.amount ?? null;
    currency ??= original?.currency;
  }
  if (amount === null || currency === undefined) return undefined;
  let reason: { code: string; description?: string } | undefined;
  if (p.paymentType === 'CB') {
    const code = text(p.details.chargebackResultCode, 11) ?? p.resultCode;
    reason = { code, description: describe(code) ?? p.resultDescription };
  } else if (p.paymentType === 'CR' && typeof p.details.chargebackId === 'string') {
    const chargeback = await lookup(p.details.chargebackId);
    const code = chargeback && (text(chargeback.details.chargebackResultCode, 11) ?? chargeback.resultCode);
    if (code !== undefined) reason = { code, description: describe(code) };
  }
  const brand =
    p.paymentBrand !== undefined && /^[A-Za-z]{1,16}$/.test(p.paymentBrand) ? p.paymentBrand : undefined;
  const descriptor = text(p.descriptor, 128);
  const bankAccount = bankAccountOf(p.details);
  const clearing = clearingOf(p.details);
  return {
    id: p.id,
    shortId: p.shortId,
    paymentType: (p.paymentType === 'PA.CP' ? 'DB' : p.paymentType) as SettlementPaymentType,
    amount,
    currency,
    createdAt: p.createdAt,
    ...(brand === undefined ? {} : { brand }),
    ...(descriptor === undefined ? {} : { descriptor }),
    ...(p.merchantTransactionId === undefined ? {} : { merchantTransactionId: p.merchantTransactionId }),
    ...(p.card === undefined
      ? {}
      : {
          card: {
            last4Digits: p.card.last4Digits,
            ...(p.card.holder === undefined ? {} : { holder: p.card.holder.slice(0, 128) }),
          },
        }),
    ...(bankAccount === undefined ? {} : { bankAccount }),
    ...(p.referencedId === undefined ? {} : { referencedId: p.referencedId }),
    ...(reason === undefined
      ? {}
      : {
          chargebackResultCode: reason.code,
          ...(reason.description === undefined ? {} : { chargebackResultDescription: reason.description }),
        }),
    ...(clearing === undefined ? {} : { clearing }),
  };
}

/** The channel's payments of the day that settle, oldest first. */
async function dayPayments(
  store: GatewayStore,
  channel: Channel,
  date: string,
  fees: FeeSchedule,
): Promise<Payment[]> {
  const from = dayStart(date);
  const until = new Date(from.getTime() + DAY_MS);
  const out: Payment[] = [];
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const page = await store.queryPayments({
      merchantId: channel.merchantId,
      channelIds: [channel.id],
      from,
      until,
      paymentTypes: DAY_TYPES,
      limit: PAGE,
      ...(after === undefined ? {} : { after }),
    });
    out.push(...page.filter((p) => settles(p, fees)));
    if (page.length < PAGE) return out;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

// ---------------------------------------------------------------------------------------------
// One merchant account's day

function configOf(channel: Channel, options: SettleDayOptions) {
  const own = options.config?.(channel) ?? {};
  return {
    currency: own.currency,
    fees: own.fees ?? DEFAULT_FEES,
    fxRates: own.fxRates,
    rounding: own.rounding,
    clearingInstitute: own.clearingInstitute ?? {
      name: SIMULATED_CLEARING_INSTITUTE,
      merchantId: `SIM-${channel.id.slice(0, 16)}`,
    },
    fileFormat: own.fileFormat ?? DEFAULT_FILE_FORMAT,
  };
}

function ratesInto(currency: string, from: readonly string[], configured?: Readonly<Record<string, string>>) {
  const rates: Record<string, string> = {};
  for (const c of new Set(from)) {
    if (c === currency) continue;
    const rate = configured?.[c] ?? simulatedRate(c, currency);
    if (rate !== undefined) rates[c] = rate;
  }
  return rates;
}

function summarize(
  channel: Channel,
  date: string,
  currency: string,
  records: readonly SettlementRecord[],
  at: Date,
): Settlement {
  let positive = 0;
  let negative = 0;
  let fees = 0;
  const counts = { settled: 0, chargebacks: 0, chargebackReversals: 0, fees: 0 };
  for (const r of records) {
    if (r.cashflow === 'POS') positive += r.settlement.amount;
    else negative += r.settlement.amount;
    if (r.recordType === 'FEE') {
      fees += r.settlement.amount;
      counts.fees += 1;
    } else if (r.recordType === 'SETTLED') counts.settled += 1;
    else if (r.recordType === 'CHARGEBACK') counts.chargebacks += 1;
    else counts.chargebackReversals += 1;
  }
  return {
    id: newId(),
    merchantId: channel.merchantId,
    channelId: channel.id,
    date,
    currency,
    status: records.every((r) => r.settlement.status === 'SUCCESS') ? 'SUCCESS' : 'FAILED',
    recordCount: records.length,
    counts,
    totals: { positive: positive as Minor, negative: negative as Minor, fees: fees as Minor },
    createdAt: at,
  };
}

/** Writes `content` to `path` atomically: a synced temporary file in `tmpDir`, renamed over it. */
export async function writeFileAtomic(path: string, tmpDir: string, content: string): Promise<void> {
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const tmp = join(tmpDir, `${randomBytes(8).toString('hex')}.tmp`);
  // Owner only: the files hold merchants' transactions (the FTP server runs as the same user).
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The day's file from the stored settlements (currencies in order), written atomically. */
async function writeDayFile(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  settlements: readonly Settlement[],
): Promise<string> {
  const records: StoredSettlementRecord[] = [];
  for (const s of [...settlements].sort((a, b) => (a.currency < b.currency ? -1 : 1)))
    records.push(...(await deps.store.listSettlementRecords(s.id)));
  const folder = merchantFolder(deps.dataDir, channel.merchantId);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, reconciliationFileName(channel.id, date, channel.mode));
  const csv = reconciliationCsv(records, csvOptions(deps.env));
  await writeFileAtomic(path, join(deps.dataDir, RECONCILIATION_FOLDER, '.tmp'), csv);
  return path;
}

/** Settles one merchant account's day (once); see the module comment. */
export async function settleAccountDay(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  options: SettleDayOptions = {},
): Promise<SettledAccount> {
  return deps.store.exclusive(`settlement:${channel.id}:${date}`, async () => {
    const done = await deps.store.getSettlementRun(channel.id, date);
    if (done !== undefined) return existing(deps, channel, date, done.fileName);

    const config = configOf(channel, options);
    const payments = await dayPayments(deps.store, channel, date, config.fees);
    const byId = new Map(payments.map((p) => [p.id, p]));
    const lookup = async (id: string) =>
      byId.get(id) ?? (await deps.store.getPayment(channel.merchantId, id));
    const transactions: SettlementTransaction[] = [];
    const references = new Map<string, { merchantTransactionId?: string; merchantInvoiceId?: string }>();
    for (const p of payments) {
      const tx = await transactionOf(p, lookup);
      if (tx === undefined) continue;
      transactions.push(tx);
      const invoice = text(p.details.merchantInvoiceId, 255);
      references.set(tx.id, {
        ...(tx.merchantTransactionId === undefined
          ? {}
          : { merchantTransactionId: tx.merchantTransactionId }),
        ...(invoice === undefined ? {} : { merchantInvoiceId: invoice }),
      });
    }
    // Records match the merchant's payments: the day's own, and the ones charged back.
    const candidates = new Map<string, CandidatePayment>();
    for (const tx of transactions) {
      candidates.set(tx.id, {
        id: tx.id,
        shortId: tx.shortId,
        merchantTransactionId: tx.merchantTransactionId,
      });
      if ((tx.paymentType === 'CB' || tx.paymentType === 'CR') && tx.referencedId !== undefined) {
        const original = await lookup(tx.referencedId);
        if (original !== undefined)
          candidates.set(original.id, {
            id: original.id,
            shortId: original.shortId,
            ...(original.merchantTransactionId === undefined
              ? {}
              : { merchantTransactionId: original.merchantTransactionId }),
          });
      }
    }

    const groups = new Map<string, SettlementTransaction[]>();
    for (const tx of transactions) {
      const currency = config.currency ?? tx.currency;
      groups.set(currency, [...(groups.get(currency) ?? []), tx]);
    }
    const now = deps.clock.now();
    const pspEntityId = options.pspEntityId ?? DEFAULT_PSP_ENTITY_ID;
    const written: { settlement: Settlement; records: StoredSettlementRecord[] }[] = [];
    for (const currency of [...groups.keys()].sort()) {
      const group = groups.get(currency)!;
      const settlementConfig: SettlementConfig = {
        date,
        currency,
        fees: config.fees,
        fxRates: ratesInto(
          currency,
          group.map((t) => t.currency),
          config.fxRates,
        ),
        ...(config.rounding === undefined ? {} : { rounding: config.rounding }),
        clearingInstitute: config.clearingInstitute,
        fileFormat: config.fileFormat,
      };
      const records = settle(
        {
          merchantAccount: { id: channel.id, name: channel.name },
          pspEntityId,
          merchantId: channel.merchantId,
          transactions: group,
          candidates: [...candidates.values()],
        },
        settlementConfig,
      );
      if (records.length === 0) continue;
      written.push({
        settlement: summarize(channel, date, currency, records, now),
        records: records.map((record) => ({
          record,
          ...(record.payment.id === undefined ? {} : references.get(record.payment.id)),
        })),
      });
    }

    const recordCount = written.reduce((n, w) => n + w.records.length, 0);
    const fileName = recordCount > 0 ? reconciliationFileName(channel.id, date, channel.mode) : undefined;
    const saved = await deps.store.saveSettlementRun(
      {
        channelId: channel.id,
        date,
        merchantId: channel.merchantId,
        settlementCount: written.length,
        recordCount,
        ...(fileName === undefined ? {} : { fileName }),
        createdAt: now,
      },
      written,
    );
    if (!saved) {
      const run = await deps.store.getSettlementRun(channel.id, date);
      return existing(deps, channel, date, run?.fileName);
    }
    const settlements = written.map((w) => w.settlement);
    const file = fileName === undefined ? undefined : await writeDayFile(deps, channel, date, settlements);
    deps.logger?.info('settled a day', {
      channelId: channel.id,
      date,
      settlements: settlements.length,
      records: recordCount,
    });
    return {
      merchantId: channel.merchantId,
      channelId: channel.id,
      date,
      status: 'settled',
      settlements,
      ...(file === undefined ? {} : { file }),
    };
  });
}

/** A day settled before: its settlements, and its file (written again when missing). */
async function existing(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  fileName: string | undefined,
): Promise<SettledAccount> {
  const settlements = await deps.store.listDaySettlements(channel.id, date);
  let file: string | undefined;
  if (fileName !== undefined) {
    file = join(merchantFolder(deps.dataDir, channel.merchantId), fileName);
    if (!(await exists(file))) file = await writeDayFile(deps, channel, date, settlements);
  }
  return {
    merchantId: channel.merchantId,
    channelId: channel.id,
    date,
    status: 'already-settled',
    settlements,
    ...(file === undefined ? {} : { file }),
  };
}

async function channelsOf(store: GatewayStore, options: SettleDayOptions): Promise<Channel[]> {
  const merchants =
    options.merchantId !== undefined ? [options.merchantId] : (await store.listMerchants()).map((m) => m.id);
  const channels: Channel[] = [];
  for (const merchantId of merchants) channels.push(...(await store.listChannels(merchantId)));
  return options.channelIds === undefined
    ? channels
    : channels.filter((c) => options.channelIds!.includes(c.id));
}

/**
 * Settles a UTC day for every merchant account (or those `options` names), each once: the CLI's
 * entry point. Throws RangeError for a date that is not `yyyy-MM-dd` or not over yet (UTC).
 */
export async function settleDay(
  deps: SettlementRunDeps,
  date: string,
  options: SettleDayOptions = {},
): Promise<SettledAccount[]> {
  const start = dayStart(date);
  if (start.getTime() + DAY_MS > deps.clock.now().getTime()) {
    throw new RangeError(`The day ${date} is not over yet (UTC)`);
  }
  const out: SettledAccount[] = [];
  for (const channel of await channelsOf(deps.store, options)) {
    out.push(await settleAccountDay(deps, channel, date, options));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// By the clock

export interface SettlementWorkerOptions extends SettleDayOptions {
  readonly intervalMs?: number;
  /** How long after midnight (UTC) a day is settled; default 2 hours. */
  readonly cutoffMs?: number;
  /** How many past days are looked at; default 7. */
  readonly lookbackDays?: number;
}

/**
 * The days due at `now`: each day whose next day's cut-off has passed, the latest `lookbackDays`
 * of them, oldest first.
 */
export function dueDays(
  now: Date,
  cutoffMs = DEFAULT_CUTOFF_MS,
  lookbackDays = DEFAULT_LOOKBACK_DAYS,
): string[] {
  const today = Math.floor((now.getTime() - cutoffMs) / DAY_MS) * DAY_MS;
  const days: string[] = [];
  for (let i = lookbackDays; i >= 1; i--) days.push(dayOf(new Date(today - i * DAY_MS)));
  return days;
}

/** One poll: settles every due day of every merchant account not settled yet. Reports the days settled. */
export async function settleDue(
  deps: SettlementRunDeps,
  options: SettlementWorkerOptions = {},
): Promise<number> {
  const days = dueDays(deps.clock.now(), options.cutoffMs, options.lookbackDays);
  let settled = 0;
  for (const channel of await channelsOf(deps.store, options)) {
    const opened = dayOf(channel.createdAt);
    for (const date of days) {
      if (date < opened || (await deps.store.getSettlementRun(channel.id, date)) !== undefined) continue;
      try {
        if ((await settleAccountDay(deps, channel, date, options)).status === 'settled') settled += 1;
      } catch (error) {
        // One account's bad day (a currency without a rate) must not stop the others.
        deps.logger?.error('settlement failed', { channelId: channel.id, date, error });
      }
    }
  }
  return settled;
}

/** The clock's settlement run (GATEWAY_SETTLEMENT_INTERVAL_MS), a poll like the other workers. */
export function settlementWorker(deps: SettlementRunDeps, options: SettlementWorkerOptions = {}): Poller {
  return poller(
    () => settleDue(deps, options),
    options.intervalMs ?? DEFAULT_SETTLEMENT_INTERVAL_MS,
    (error) => deps.logger?.error('settlement poll failed', { error }),
  );
}
