/**
 * The records of a transaction the processor settled (issue 32 point 6): settle()'s record of the
 * gateway's transaction (its ids, account, matching), with the processor's settlement currency,
 * FX rate, settled amount and fee in place of the gateway's own computation; and the
 * transactions the processor settled that the gateway has no payment for, as settle() takes
 * them (origin `acquirer`: no UniqueID, the processor's id as ConnectorTxId1, matched by
 * reference only, so NOT_MATCHED).
 */
import {
  FEE_TYPES,
  type FeePaymentType,
  type FeeSchedule,
  type Match,
  type SettlementAccount,
  type SettlementRecord,
  transactionSettler,
} from '../../../shared/settlement';
import type { ProcessorSettlement } from '../../connectors/kit/contract';
import { type DayTransaction, recordBrand } from './model';

export interface ReportedConfig {
  readonly date: string;
  readonly clearingInstitute: { readonly name: string; readonly merchantId: string };
  readonly fileFormat: string;
}

/** settle()'s records of `item` as the processor settled it (`item.reported`). */
export function reportedRecords(
  account: SettlementAccount,
  config: ReportedConfig,
  item: DayTransaction & { readonly reported: ProcessorSettlement },
  match: Match,
): SettlementRecord[] {
  const { tx, reported } = item;
  const s = reported.settlement;
  // the processor's fee as a fixed fee: settle() writes it on the record and as its FEE record
  const feeType = tx.paymentType in FEE_TYPES ? (tx.paymentType as FeePaymentType) : undefined;
  const fees: FeeSchedule =
    feeType !== undefined && s.fee !== undefined ? { [feeType]: { basisPoints: 0, fixed: s.fee } } : {};
  const settler = transactionSettler(account, {
    date: config.date,
    currency: s.currency,
    fees,
    fxRates: tx.currency === s.currency ? {} : { [tx.currency]: s.fxRate },
    clearingInstitute: config.clearingInstitute,
    fileFormat: config.fileFormat,
  });
  const records = settler({ ...tx, status: s.status }, match);
  // the amount the processor settled, not the rate applied again (its rate is written rounded)
  const settled = s.amount;
  return settled === undefined
    ? records
    : records.map((r) =>
        r.recordType === 'FEE' ? r : { ...r, settlement: { ...r.settlement, amount: settled } },
      );
}

const ID = /^[A-Za-z0-9]{32}$/;

/**
 * A settlement the processor reported that no transaction of the gateway's claimed, as a
 * transaction of the day; undefined when its id cannot be written as one (not 32 letters/digits).
 */
export function unclaimedTransaction(
  reported: ProcessorSettlement,
  dayStart: Date,
): DayTransaction | undefined {
  if (!ID.test(reported.theirId)) return undefined;
  const brand = recordBrand(reported.brand);
  const at = reported.requestTime;
  return {
    tx: {
      id: reported.theirId,
      shortId: '',
      origin: 'acquirer',
      paymentType: reported.paymentType,
      amount: reported.amount,
      currency: reported.currency,
      createdAt: at !== undefined && !Number.isNaN(at.getTime()) ? at : dayStart,
      status: reported.settlement.status,
      ...(brand === undefined ? {} : { brand }),
    },
    references: {},
    candidates: [],
    viaConnector: true,
    reported,
  };
}
