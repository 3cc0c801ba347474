/** One merchant account's day settled once (settleAccountDay), and every account's (settleDay). */
import { join } from 'node:path';
import type { Channel } from '../../../shared/engine/core/model';
import type { GatewayStore } from '../../storage/kysely-store';
import { type Settlement, StagedRecords } from '../../storage/settlements';
import { exists, writeDayFile } from './day-file';
import { configOf, stageDay } from './day-records';
import {
  DAY_MS,
  DEFAULT_PSP_ENTITY_ID,
  dayStart,
  merchantFolder,
  type ProcessorDiscrepancies,
  RECONCILIATION_FOLDER,
  reconciliationFileName,
  type SettleDayOptions,
  type SettledAccount,
  type SettlementRunDeps,
} from './model';
import { ProcessorRecordsUnavailable, processorDay } from './processor-day';
import { removeStaleStaging } from './staging';

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
    const { settlements, recordCount, fileName, processor } = saved;
    const file = fileName === undefined ? undefined : await writeDayFile(deps, channel, date, settlements);
    deps.logger?.info('settled a day', {
      channelId: channel.id,
      date,
      settlements: settlements.length,
      records: recordCount,
      ...(processor === undefined ? {} : { fromProcessor: true }),
    });
    if (processor !== undefined && (processor.missingCount > 0 || processor.unknownCount > 0))
      // what the operator must look into: the file has them FAILED and NOT_MATCHED
      deps.logger?.warn('the processor’s records of the day disagree with the gateway’s', {
        channelId: channel.id,
        date,
        missingAtProcessor: processor.missingCount,
        unknownToGateway: processor.unknownCount,
        missing: processor.missing,
        unknown: processor.unknown,
      });
    return {
      merchantId: channel.merchantId,
      channelId: channel.id,
      date,
      status: 'settled',
      settlements,
      ...(file === undefined ? {} : { file }),
      ...(processor === undefined ? {} : { processor }),
    };
  });
}

/**
 * Settles the day and saves its settlements and records, once; undefined when another run saved it
 * first. The records are staged in a temporary file as the day is settled, a page at a time, and
 * copied into the store in the transaction that claims the run (day-records.ts).
 */
async function saveDay(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  options: SettleDayOptions,
): Promise<
  | { settlements: Settlement[]; recordCount: number; fileName?: string; processor?: ProcessorDiscrepancies }
  | undefined
> {
  const now = deps.clock.now();
  // asked before anything is staged; one that cannot be asked leaves unsettled only a day with
  // transactions of its own (stageDay throws it then)
  const processor =
    deps.contractOf === undefined
      ? undefined
      : await processorDay(deps.contractOf, channel, date).catch((error: unknown) => {
          if (error instanceof ProcessorRecordsUnavailable) return error;
          throw error;
        });
  const stagingDir = join(deps.dataDir, RECONCILIATION_FOLDER, '.tmp');
  // what a crashed run left (staging.ts says which are stale)
  const stale = await removeStaleStaging(stagingDir);
  if (stale > 0) deps.logger?.info('removed stale settlement staging files', { files: stale });
  const staged = await StagedRecords.open(stagingDir);
  try {
    const day = await stageDay(
      {
        store: deps.store,
        channel,
        date,
        config: configOf(channel, options),
        pspEntityId: options.pspEntityId ?? DEFAULT_PSP_ENTITY_ID,
        now,
        ...(processor === undefined ? {} : { processor }),
      },
      staged,
    );
    const { settlements } = day;
    const recordCount = staged.count;
    const fileName = recordCount > 0 ? reconciliationFileName(channel.id, date, channel.mode) : undefined;
    const run = {
      channelId: channel.id,
      date,
      merchantId: channel.merchantId,
      settlementCount: settlements.length,
      recordCount,
      ...(fileName === undefined ? {} : { fileName }),
      createdAt: now,
    };
    if (!(await deps.store.saveStagedSettlementRun(run, settlements, staged))) return undefined;
    return {
      settlements,
      recordCount,
      ...(fileName === undefined ? {} : { fileName }),
      ...(day.processor === undefined ? {} : { processor: day.processor }),
    };
  } finally {
    await staged.discard();
  }
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
 * entry point. A connector channel whose processor's records cannot be read now is `not-settled`
 * (with the reason), the others settle. Throws RangeError for a date that is not `yyyy-MM-dd` or not over yet (UTC).
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
    try {
      out.push(await settleAccountDay(deps, channel, date, options));
    } catch (error) {
      // one processor not reachable (or not done) leaves its channel's day for later, not the others'
      if (!(error instanceof ProcessorRecordsUnavailable)) throw error;
      deps.logger?.warn('not settled: the processor’s records are not available', {
        channelId: channel.id,
        date,
      });
      out.push({
        merchantId: channel.merchantId,
        channelId: channel.id,
        date,
        status: 'not-settled',
        reason: error.message,
        settlements: [],
      });
    }
  }
  return out;
}
