/**
 * The settlement run by the clock: every due day of every merchant account, once.
 */

import { type Poller, poller } from '../../workers/poller';
import {
  DAY_MS,
  DEFAULT_CUTOFF_MS,
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_SETTLEMENT_INTERVAL_MS,
  dayOf,
  type SettleDayOptions,
  type SettlementRunDeps,
} from './model';
import { channelsOf, settleAccountDay } from './settle-day';

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
