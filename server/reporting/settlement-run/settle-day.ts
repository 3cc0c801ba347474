/** One merchant account's day settled once (settleAccountDay), and every account's (settleDay). */
import { join } from 'node:path';
import { newId } from '../../../shared/engine/core/ids';
import type { Channel } from '../../../shared/engine/core/model';
import type { Minor } from '../../../shared/money';
import {
  type SettlementConfig,
  type SettlementRecord,
  type SettlementTransaction,
  settle,
} from '../../../shared/settlement';
import { simulatedRate } from '../../processors/simulator/fx';
import type { GatewayStore } from '../../storage';
import type { Settlement, StoredSettlementRecord } from '../../storage/settlements';
import { withAcquirerRecords } from './acquirer';
import { exists, writeDayFile } from './day-file';
import {
  DAY_MS,
  DEFAULT_FEES,
  DEFAULT_FILE_FORMAT,
  DEFAULT_PSP_ENTITY_ID,
  dayStart,
  merchantFolder,
  reconciliationFileName,
  type SettleDayOptions,
  type SettledAccount,
  type SettlementRunDeps,
  SIMULATED_CLEARING_INSTITUTE,
} from './model';
import { type DayTransactions, dayTransactions } from './transactions';

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
    // a FAILED settlement moved no money: listed, counted, but not in the totals
    if (r.settlement.status === 'FAILED') {
      if (r.recordType === 'SETTLED') counts.settled += 1;
      continue;
    }
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

    const saved = await saveDay(deps, channel, date, options);
    if (saved === undefined) {
      const run = await deps.store.getSettlementRun(channel.id, date);
      return existing(deps, channel, date, run?.fileName);
    }
    const { settlements, recordCount, fileName } = saved;
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

/**
 * Settles the day and saves its settlements and records, once; undefined when another run saved it
 * first. Its own function so that the day's transactions and records can be collected before the
 * file is written (from the store, a settlement at a time).
 */
async function saveDay(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  options: SettleDayOptions,
): Promise<{ settlements: Settlement[]; recordCount: number; fileName?: string } | undefined> {
  const now = deps.clock.now();
  const written = await settledDay(deps, channel, date, options, now);
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
  if (!saved) return undefined;
  return {
    settlements: written.map((w) => w.settlement),
    recordCount,
    ...(fileName === undefined ? {} : { fileName }),
  };
}

/** The day's settlements with their records; the day's transactions are not kept past it. */
async function settledDay(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  options: SettleDayOptions,
  now: Date,
): Promise<{ settlement: Settlement; records: StoredSettlementRecord[] }[]> {
  const config = configOf(channel, options);
  const day = withAcquirerRecords(
    await dayTransactions(deps.store, channel, date, config.fees),
    await deps.store.listAcquirerRecords(channel.id, date),
  );
  return settlementsOf(channel, date, config, day, options.pspEntityId ?? DEFAULT_PSP_ENTITY_ID, now);
}

/** The day's settlements, one per settlement currency (in alphabetical order), with their records. */
function settlementsOf(
  channel: Channel,
  date: string,
  config: ReturnType<typeof configOf>,
  day: DayTransactions,
  pspEntityId: string,
  now: Date,
): { settlement: Settlement; records: StoredSettlementRecord[] }[] {
  const groups = new Map<string, SettlementTransaction[]>();
  for (const tx of day.transactions) {
    const currency = config.currency ?? tx.currency;
    const group = groups.get(currency);
    if (group === undefined) groups.set(currency, [tx]);
    else group.push(tx); // in place: copying the group per transaction made a day quadratic
  }
  const written: { settlement: Settlement; records: StoredSettlementRecord[] }[] = [];
  const candidates = [...day.candidates.values()];
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
        candidates,
      },
      settlementConfig,
    );
    if (records.length === 0) continue;
    written.push({
      settlement: summarize(channel, date, currency, records, now),
      records: records.map((record) => ({
        record,
        // a gateway payment's references by its id; an acquirer's record's by its own (ConnectorTxId1)
        ...day.references.get(record.payment.id ?? record.clearingInstitute.txId1 ?? ''),
      })),
    });
  }
  return written;
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

export async function channelsOf(store: GatewayStore, options: SettleDayOptions): Promise<Channel[]> {
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
