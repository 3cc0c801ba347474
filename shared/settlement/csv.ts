/**
 * The reconciliation CSV file (spec: "Reconciliation records"), as delivered by FTP.
 *
 * - Columns: the spec's column order, header first, spelled as the spec spells them (including
 *   `ClearingInsitituteName`), then TransactionId (merchantTransactionId) and InvoiceId
 *   (merchantInvoiceId), which the spec's table lists but its column order omits (decisions,
 *   Settlement): appended, so a reader by position of the 36 columns is unaffected.
 * - Separator `;`. Every line, the last one included, ends with CRLF (RFC 4180). UTF-8, no BOM.
 * - Quoting (RFC 4180, with `;` as the separator): a field containing `;`, `"`, CR or LF is wrapped
 *   in double quotes and its quotes are doubled; every other field is written bare. An absent
 *   optional value is an empty field.
 * - Amounts (Amount, SettlementAmount, SettlementFee) are DEC2, unsigned (Cashflow gives the
 *   direction), from minor units with the currency's exponent (`fromMinor`).
 * - SettlementFxRate is DEC2 as the spec's table says, rounded half-even from the exact rate applied
 *   (`0.92115` → `0.92`). That loses precision (a JPY → EUR rate of `0.0061` is written `0.01`), so
 *   `{ fxRate: 'exact' }` writes the rate as applied instead, for consumers that recompute amounts.
 * - SettlementDate `yyyy-MM-dd`; TxRequestTime `yyyy-MM-dd HH:mm:ss` in UTC.
 * - MatchedTransactions: the matched payment ids separated by commas.
 * - Formula injection (decisions, Settlement): merchants' staff open this file in spreadsheets, and
 *   its text cells carry what merchants and shoppers sent (merchantTransactionId, descriptor, holder
 *   …). A text cell starting with `=`, `+`, `-`, `@`, TAB or CR is written with a leading `'`
 *   (OWASP's advice), so a spreadsheet shows it instead of running it. Only text columns: amounts
 *   (unsigned DEC2, Cashflow gives the direction), rates, dates, times, enums and the gateway's
 *   own ids ({@link FORMULA_SAFE_COLUMNS}) are never altered, and never start so. A consumer that
 *   must read the exact values turns it off with `{ neutralizeFormulas: false }` (the settlement
 *   run: GATEWAY_CSV_NEUTRALISE=off) and imports the file as text.
 */
import { fromMinor, type Minor, RATE_PATTERN, roundDiv } from '../money';
import { formatTs } from '../params/formats';
import type { SettlementRecord } from './records';

/** The columns in the spec's order. */
export const RECONCILIATION_COLUMNS = [
  'ReconciliationType',
  'PaymentType',
  'Cashflow',
  'ClearingInstituteMerchantId',
  'MerchantAccountId',
  'MerchantAccountName',
  'PspId',
  'DivisionId',
  'MerchantId',
  'SettlementTxId',
  'UniqueID',
  'ShortId',
  'ConnectorTxId1',
  'ConnectorTxId2',
  'ConnectorTxId3',
  'Amount',
  'Currency',
  'Brand',
  'TxRequestTime',
  'SettlementAmount',
  'SettlementCurrency',
  'SettlementFee',
  'SettlementFxRate',
  'SettlementDate',
  'SettlementStatus',
  'Descriptor',
  'AccountNumberLast4',
  'BankCode',
  'AccountHolder',
  'ReasonCode',
  'ReasonDesc',
  'SettlementFileFormat',
  'ClearingInsitituteName',
  'MatchingStatus',
  'MatchedTransactions',
  'ChargebackId',
  'TransactionId',
  'InvoiceId',
] as const;
export type ReconciliationColumn = (typeof RECONCILIATION_COLUMNS)[number];

export const CSV_SEPARATOR = ';';
export const CSV_LINE_END = '\r\n';

export interface ReconciliationCsvOptions {
  /** `DEC2` (default, the spec's format) or `exact` (the rate as applied). */
  readonly fxRate?: 'DEC2' | 'exact';
  /** Prefix text values starting with `=`, `+`, `-`, `@`, TAB or CR with `'`; default true. */
  readonly neutralizeFormulas?: boolean;
}

/**
 * A record with the merchant's references, which the record itself does not hold (the storage
 * keeps them beside it): TransactionId and InvoiceId.
 */
export interface ReconciliationLine {
  readonly record: SettlementRecord;
  readonly merchantTransactionId?: string;
  readonly merchantInvoiceId?: string;
}

/**
 * Columns whose values the gateway writes in fixed formats (numbers, rates, dates, times, enums,
 * its own ids): never neutralised. Every other column is text that may come from outside.
 */
export const FORMULA_SAFE_COLUMNS: ReadonlySet<ReconciliationColumn> = new Set<ReconciliationColumn>([
  'ReconciliationType',
  'PaymentType',
  'Cashflow',
  'MerchantAccountId',
  'PspId',
  'DivisionId',
  'MerchantId',
  'UniqueID',
  'ShortId',
  'Amount',
  'Currency',
  'TxRequestTime',
  'SettlementAmount',
  'SettlementCurrency',
  'SettlementFee',
  'SettlementFxRate',
  'SettlementDate',
  'SettlementStatus',
  'ReasonCode',
  'MatchingStatus',
  'MatchedTransactions',
  'ChargebackId',
]);

const NEEDS_QUOTES = /[;"\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, quoted per RFC 4180 when it contains the separator, a quote, CR or LF. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** TxRequestTime: the TS format, `yyyy-MM-dd HH:mm:ss` in UTC. */
export const formatRequestTime = formatTs;

/** A decimal rate string as DEC2, rounded half-even (`1.0856` → `1.09`, `1` → `1.00`). */
export function fxRateDec2(rate: string): string {
  if (!RATE_PATTERN.test(rate)) throw new RangeError(`Invalid FX rate: ${rate}`);
  const dot = rate.indexOf('.');
  const scale = dot === -1 ? 0 : rate.length - dot - 1;
  const units = BigInt(dot === -1 ? rate : rate.slice(0, dot) + rate.slice(dot + 1));
  const cents =
    scale >= 2 ? roundDiv(units, 10n ** BigInt(scale - 2), 'halfEven') : units * 10n ** BigInt(2 - scale);
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const amount = (minor: Minor | undefined, currency: string): string =>
  minor === undefined ? '' : fromMinor(minor, currency);

/** The cell as written: a text value that a spreadsheet would run as a formula gets a leading `'`. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The row of one record, as unquoted values in column order (not yet neutralised). */
export function reconciliationRow(
  record: SettlementRecord,
  options: ReconciliationCsvOptions = {},
  references: Omit<ReconciliationLine, 'record'> = {},
): Record<ReconciliationColumn, string> {
  const { settlement, payment, clearingInstitute: ci, account, reason } = record;
  return {
    ReconciliationType: record.recordType,
    PaymentType: record.transactionType,
    Cashflow: record.cashflow,
    ClearingInstituteMerchantId: ci.merchantId,
    MerchantAccountId: record.merchantAccount.id,
    MerchantAccountName: record.merchantAccount.name ?? '',
    PspId: record.pspEntityId,
    DivisionId: record.divisionId ?? '',
    MerchantId: record.merchantId,
    SettlementTxId: settlement.id ?? '',
    UniqueID: payment.id ?? '',
    ShortId: payment.shortId ?? '',
    ConnectorTxId1: ci.txId1 ?? '',
    ConnectorTxId2: ci.txId2 ?? '',
    ConnectorTxId3: ci.txId3 ?? '',
    Amount: amount(payment.amount, payment.currency),
    Currency: payment.currency,
    Brand: payment.brand ?? '',
    TxRequestTime: payment.requestTime ? formatRequestTime(payment.requestTime) : '',
    SettlementAmount: amount(settlement.amount, settlement.currency),
    SettlementCurrency: settlement.currency,
    SettlementFee: amount(settlement.fee, settlement.currency),
    SettlementFxRate: options.fxRate === 'exact' ? settlement.fxRate : fxRateDec2(settlement.fxRate),
    SettlementDate: settlement.date,
    SettlementStatus: settlement.status,
    Descriptor: payment.descriptor ?? '',
    AccountNumberLast4: account?.last4Digits ?? '',
    BankCode: account?.bankCode ?? '',
    AccountHolder: account?.holder ?? '',
    ReasonCode: reason?.code ?? '',
    ReasonDesc: reason?.description ?? '',
    SettlementFileFormat: settlement.format,
    ClearingInsitituteName: ci.name,
    MatchingStatus: record.matchingStatus,
    MatchedTransactions: record.matchedTransactions.join(','),
    ChargebackId: record.chargebackId ?? '',
    TransactionId: references.merchantTransactionId ?? '',
    InvoiceId: references.merchantInvoiceId ?? '',
  };
}

function line(row: Record<ReconciliationColumn, string>, options: ReconciliationCsvOptions): string {
  const neutralize = options.neutralizeFormulas !== false;
  return (
    RECONCILIATION_COLUMNS.map((c) => {
      const value = row[c];
      return csvField(neutralize && !FORMULA_SAFE_COLUMNS.has(c) ? neutralizeFormula(value) : value);
    }).join(CSV_SEPARATOR) + CSV_LINE_END
  );
}

const isLine = (r: SettlementRecord | ReconciliationLine): r is ReconciliationLine => 'record' in r;

/** The CSV file's first line: the column names. */
export const RECONCILIATION_HEADER = RECONCILIATION_COLUMNS.join(CSV_SEPARATOR) + CSV_LINE_END;

/** The CSV file of `records`: header and one line per record, each ending in CRLF. */
export function reconciliationCsv(
  records: readonly (SettlementRecord | ReconciliationLine)[],
  options: ReconciliationCsvOptions = {},
): string {
  let out = RECONCILIATION_HEADER;
  for (const text of reconciliationCsvLines(records, options)) out += text;
  return out;
}

/** The file's lines of `records` one by one (no header), for writing a large day without holding it as one string. */
export function* reconciliationCsvLines(
  records: Iterable<SettlementRecord | ReconciliationLine>,
  options: ReconciliationCsvOptions = {},
): Generator<string> {
  for (const entry of records) {
    const { record, ...references } = isLine(entry) ? entry : { record: entry };
    yield line(reconciliationRow(record, options, references), options);
  }
}
