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
 * - Memory bounded whatever the day's size: the day is read a page of payments at a time and
 *   settled transaction by transaction in settle()'s order (day-records.ts); the records go to a
 *   staging file in `<dataDir>/reconciliation/.tmp/` and are copied into the store, a page at a
 *   time, in the transaction that claims the run; the file is written from the store a page at a
 *   time. Only what matches by reference (the acquirer's own records, a chargeback without its
 *   original) waits for the whole day, with the day's candidates of those references.
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
 *
 * This module is what settles a day, for the back office, the CLI and the HTTP layer; the worker
 * that settles by the clock is the composition root's (server/gateway.ts imports ./worker.ts), so
 * that what settles a day on demand does not depend on the poller.
 */

export { SIMULATED_EUR_RATES, simulatedRate } from '../../processors/simulator/fx';
export { writeFileAtomic } from './day-file';
export {
  type ChannelSettlementConfig,
  type ContractOf,
  csvOptions,
  DEFAULT_CUTOFF_MS,
  DEFAULT_FEES,
  DEFAULT_FILE_FORMAT,
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_PSP_ENTITY_ID,
  DEFAULT_SETTLEMENT_INTERVAL_MS,
  dayOf,
  dayStart,
  MAX_LISTED,
  merchantFolder,
  type ProcessorDiscrepancies,
  RECONCILIATION_FOLDER,
  reconciliationFileName,
  type SettleDayOptions,
  type SettledAccount,
  type SettlementRunDeps,
  SIMULATED_CLEARING_INSTITUTE,
} from './model';
export { ProcessorRecordsUnavailable } from './processor-day';
export { settleAccountDay, settleDay } from './settle-day';
