/**
 * The settlement run's dependencies, options and defaults; days and the reconciliation files' names
 * and folders; a day's transaction as the run takes it (transactions.ts reads them, acquirer.ts
 * and day-records.ts match them).
 */

import { join } from 'node:path';
import type { Channel, ChannelMode, ConnectorSettings } from '../../../shared/engine/core/model';
import type { Clock } from '../../../shared/engine/core/ports';
import { asMinor } from '../../../shared/money';
import type {
  CandidatePayment,
  FeeSchedule,
  ReconciliationCsvOptions,
  SettlementTransaction,
} from '../../../shared/settlement';
import type { ConnectorContract, ProcessorSettlement } from '../../connectors/kit/contract';
import type { Logger } from '../../security/logger';
import type { GatewayStore } from '../../storage/kysely-store';
import type { Settlement } from '../../storage/settlements';

export interface SettlementRunDeps {
  readonly store: GatewayStore;
  readonly clock: Clock;
  /** The gateway's data folder; files go to `<dataDir>/reconciliation/<merchantId>/`. */
  readonly dataDir: string;
  readonly logger?: Logger;
  /** Where GATEWAY_CSV_NEUTRALISE is read; process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * A channel's connector as its kind's contract (the processors' own): a connector channel whose
   * kind reports its settlement (`settle`) settles from its processor's records
   * (processor-day.ts). Without it, every channel settles as the gateway computes it (the
   * simulated rates, the channel's fees).
   */
  readonly contractOf?: ContractOf;
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

/** A channel's connector settings as the contract of their kind; undefined for a kind the gateway lacks. */
export type ContractOf = (connector: ConnectorSettings) => ConnectorContract | undefined;

/** What a run did for one merchant account. */
export interface SettledAccount {
  readonly merchantId: string;
  readonly channelId: string;
  readonly date: string;
  /**
   * `settled` by this run, or `already-settled` by an earlier one (nothing written again);
   * `not-settled`: its processor's records could not be read now (`reason`), a later run settles it.
   */
  readonly status: 'settled' | 'already-settled' | 'not-settled';
  readonly reason?: string;
  readonly settlements: readonly Settlement[];
  /** The reconciliation file (absolute path), when the day had records. */
  readonly file?: string;
  /** Of a channel settled from its processor's records (by this run): what did not agree. */
  readonly processor?: ProcessorDiscrepancies;
}

/**
 * What the gateway's day and its processor's records of it did not agree on (ids, the first
 * {@link MAX_LISTED} of each; the counts are whole).
 */
export interface ProcessorDiscrepancies {
  /** The gateway's payments the processor did not report settled: written FAILED. */
  readonly missing: readonly string[];
  readonly missingCount: number;
  /** The processor's ids of what it settled that the gateway has no payment for: written NOT_MATCHED. */
  readonly unknown: readonly string[];
  readonly unknownCount: number;
}

/** How many ids a run's answer lists of each kind of discrepancy. */
export const MAX_LISTED = 100;

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
  RB: { basisPoints: 150, fixed: asMinor(0) }, // a rebill is charged like a debit
};

export const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
export const PAGE = 1000;
/** The payment types read for a day (PA and RV are kept only for configured fees). */
export const DAY_TYPES = ['DB', 'CP', 'PA.CP', 'RF', 'RB', 'CD', 'CB', 'CR', 'PA', 'RV'];

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

/**
 * Brand is A16 (letters only) in the spec's record table: a brand code's underscores are left
 * out (DIRECTDEBIT_SEPA → DIRECTDEBITSEPA), so bank-account rows name their brand too.
 */
export function recordBrand(paymentBrand: string | undefined): string | undefined {
  const letters = paymentBrand?.replaceAll('_', '');
  return letters !== undefined && /^[A-Za-z]{1,16}$/.test(letters) ? letters : undefined;
}

/** A transaction of the day as settle() takes it, with what its record and its matching need. */
export interface DayTransaction {
  readonly tx: SettlementTransaction;
  /** The merchant's references of the transaction (the record's TransactionId and InvoiceId). */
  readonly references: { merchantTransactionId?: string; merchantInvoiceId?: string };
  /** The payments a record may match that this transaction brings: itself and, for a CB or CR, the payment charged back. */
  readonly candidates: readonly CandidatePayment[];
  /**
   * The channel's connector processed it (testMode EXTERNAL, or live), so the connector is its
   * clearing institute; the simulator's (or the configured one) otherwise.
   */
  readonly viaConnector?: true;
  /** What the processor reported it settled for this transaction (the amounts written). */
  readonly reported?: ProcessorSettlement;
}
