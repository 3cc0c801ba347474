/**
 * Reconciliation records (spec: "Reconciliation records"): what a merchant account's settlement of
 * one day consists of, one record per settled transaction, chargeback, chargeback reversal or fee.
 * Field names follow the API names of the spec's table; `csv.ts` renders them as the CSV columns.
 *
 * Framework-free and browser-safe. Money is integer minor units (`Minor`) of the currency kept next
 * to it, never a float; every amount is non-negative and `cashflow` says which way the money goes.
 */
import type { Minor } from '../money';

/** ReconciliationType. */
export const RECORD_TYPES = ['SETTLED', 'CHARGEBACK', 'CHARGEBACK REVERSAL', 'FEE'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** PaymentType of a reconciliation record (not the gateway's two-letter paymentType). */
export const TRANSACTION_TYPES = [
  'DEBIT',
  'CREDIT',
  'REFUND',
  'BATCH',
  'MONTHLY',
  'SUBMERCHANT',
  'PAYMENT_FACILITATOR',
  'AUTH_FEE',
  'CAPTURE_FEE',
  'CANCEL_FEE',
  'REFUND_FEE',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The transaction types of FEE records produced per transaction. */
export type FeeTransactionType = Extract<
  TransactionType,
  'AUTH_FEE' | 'CAPTURE_FEE' | 'CANCEL_FEE' | 'REFUND_FEE'
>;

/** POS: money to the merchant; NEG: money from the merchant. */
export type Cashflow = 'POS' | 'NEG';

/** Settlement status (spec, second document: value sets). */
export const SETTLEMENT_STATUSES = ['SUCCESS', 'FAILED'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** Matching status (spec, second document: value sets). */
export const MATCHING_STATUSES = ['MATCHED', 'MULTIPLE_MATCHES', 'NOT_MATCHED'] as const;
export type MatchingStatus = (typeof MATCHING_STATUSES)[number];

export interface SettlementPart {
  /** SettlementTxId, AN up to 64. */
  readonly id?: string;
  /** SettlementAmount in minor units of `currency`, always a multiple of the DEC2 quantum. */
  readonly amount: Minor;
  /** SettlementCurrency, ISO 4217. */
  readonly currency: string;
  /**
   * SettlementFee, minor units of `currency`: what the transaction of this record cost. Informational
   * on SETTLED / CHARGEBACK records, whose fee moves as its own FEE record; absent on FEE records.
   */
  readonly fee?: Minor;
  /**
   * The exact rate applied: units of the settlement currency per one unit of the payment currency, as
   * a decimal string (`"1.0856"`; `"1.00"` for the same currency). The CSV renders it as DEC2 by default.
   */
  readonly fxRate: string;
  /** SettlementDate, `yyyy-MM-dd`, the day of settlement in the clearing institute's time zone. */
  readonly date: string;
  readonly status: SettlementStatus;
  /** SettlementFileFormat, AN32. */
  readonly format: string;
}

export interface ClearingInstitute {
  /** ClearingInsitituteName (sic, the spec's column name), AN64. */
  readonly name: string;
  /** ClearingInstituteMerchantId, AN 5-64. */
  readonly merchantId: string;
  /** ConnectorTxId1..3, AN64 each. */
  readonly txId1?: string;
  readonly txId2?: string;
  readonly txId3?: string;
}

/** The shopper's account: card (last4Digits, holder) or bank account (last4Digits, holder, bankCode). */
export interface RecordAccount {
  /**
   * Which it is: the record table's `card.*` or `bankAccount.*` (the CSV has one set of columns for
   * both). Records settled before it was kept have none: a bankCode then tells a bank account.
   */
  readonly kind?: 'card' | 'bankAccount';
  /** AccountNumberLast4, AN4. */
  readonly last4Digits?: string;
  /** AccountHolder, AN128. */
  readonly holder?: string;
  /** BankCode, AN12 (bank accounts only). */
  readonly bankCode?: string;
}

export interface MerchantAccount {
  /** MerchantAccountId, 32 letters/digits. */
  readonly id: string;
  /** MerchantAccountName. */
  readonly name?: string;
}

/** The gateway transaction a record is about. */
export interface RecordPayment {
  /** UniqueID, 32 letters/digits. */
  readonly id?: string;
  /** ShortId, AN14. */
  readonly shortId?: string;
  /** Amount in minor units of `currency` (the transaction's own currency). */
  readonly amount: Minor;
  readonly currency: string;
  /** Brand, A16. */
  readonly brand?: string;
  /** TxRequestTime: when the merchant ordered the transaction. */
  readonly requestTime?: Date;
  /** Descriptor, AN128. */
  readonly descriptor?: string;
}

/** Reason of a chargeback (chargebacks and their reversals only). */
export interface ChargebackReason {
  /** ReasonCode: 2-11 digits and dots. */
  readonly code: string;
  /** ReasonDesc, AN128. */
  readonly description?: string;
}

export interface SettlementRecord {
  readonly recordType: RecordType;
  readonly transactionType: TransactionType;
  readonly cashflow: Cashflow;
  readonly settlement: SettlementPart;
  readonly clearingInstitute: ClearingInstitute;
  readonly account?: RecordAccount;
  readonly merchantAccount: MerchantAccount;
  /** PspId, 32 letters/digits. */
  readonly pspEntityId: string;
  /** DivisionId, 32 letters/digits. */
  readonly divisionId?: string;
  /** MerchantId, 32 letters/digits. */
  readonly merchantId: string;
  readonly payment: RecordPayment;
  readonly reason?: ChargebackReason;
  readonly matchingStatus: MatchingStatus;
  /** MatchedTransactions: ids of the matched payments (one when MATCHED, several when MULTIPLE_MATCHES). */
  readonly matchedTransactions: readonly string[];
  /** ChargebackId: the chargeback transaction, set on CHARGEBACK records once matched. */
  readonly chargebackId?: string;
}
