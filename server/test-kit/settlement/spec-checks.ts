/**
 * The spec's reconciliation table as test checks: an RFC 4180 reader for the CSV (separator `;`),
 * the header line, each column's requirement and format, and checkReconciliationCsv, which holds
 * a file to all of them. Shared by the CSV's unit tests and the settlement run's end-to-end tests.
 */
import { expect } from 'vitest';
import { CURRENCY_CODES } from '../../../shared/money';
import { RECONCILIATION_COLUMNS } from '../../../shared/settlement/csv';

/** A small RFC 4180 reader (separator `;`): quoted fields, doubled quotes, CRLF after every record. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i += 1;
        if (i < text.length && text[i] !== ';' && text[i] !== '\r')
          throw new Error(`junk after quote at ${i}`);
      } else {
        field += ch;
        i += 1;
      }
    } else if (ch === '"') {
      if (field !== '') throw new Error(`quote inside a bare field at ${i}`);
      quoted = true;
      i += 1;
    } else if (ch === ';') {
      row.push(field);
      field = '';
      i += 1;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (ch === '\r' || ch === '\n') {
      throw new Error(`bare line break outside quotes at ${i}`);
    } else {
      field += ch;
      i += 1;
    }
  }
  if (quoted || field !== '' || row.length > 0) throw new Error('last record not terminated by CRLF');
  return rows;
}

/** The spec's header line. */
export const SPEC_HEADER =
  'ReconciliationType;PaymentType;Cashflow;ClearingInstituteMerchantId;MerchantAccountId;MerchantAccountName;' +
  'PspId;DivisionId;MerchantId;SettlementTxId;UniqueID;ShortId;ConnectorTxId1;ConnectorTxId2;ConnectorTxId3;' +
  'Amount;Currency;Brand;TxRequestTime;SettlementAmount;SettlementCurrency;SettlementFee;SettlementFxRate;' +
  'SettlementDate;SettlementStatus;Descriptor;AccountNumberLast4;BankCode;AccountHolder;ReasonCode;ReasonDesc;' +
  'SettlementFileFormat;ClearingInsitituteName;MatchingStatus;MatchedTransactions;ChargebackId;' +
  // Listed in the spec's table, not in its column order: appended (decisions, Settlement).
  'TransactionId;InvoiceId';

const ID32 = /^[A-Za-z0-9]{32}$/;
const DEC2 = /^\d+\.\d{2}$/;
const an = (min: number, max: number) => new RegExp(`^[\\s\\S]{${min},${max}}$`, 'u');
const oneOf = (...values: string[]) => new RegExp(`^(?:${values.join('|')})$`);

/** The spec's table, column by column: required (R), optional (O) or conditional (C), and the format. */
export const SPEC_COLUMNS: Record<string, { req: 'R' | 'O' | 'C'; re: RegExp }> = {
  ReconciliationType: { req: 'R', re: oneOf('SETTLED', 'CHARGEBACK', 'CHARGEBACK REVERSAL', 'FEE') },
  PaymentType: {
    req: 'R',
    re: oneOf(
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
    ),
  },
  Cashflow: { req: 'R', re: oneOf('POS', 'NEG') },
  ReasonCode: { req: 'O', re: /^[0-9.]{2,11}$/ },
  ReasonDesc: { req: 'O', re: an(1, 128) },
  SettlementTxId: { req: 'O', re: an(1, 64) },
  SettlementAmount: { req: 'R', re: DEC2 },
  SettlementCurrency: { req: 'R', re: /^[A-Z]{3}$/ },
  SettlementFee: { req: 'O', re: DEC2 },
  SettlementFxRate: { req: 'R', re: DEC2 },
  SettlementDate: { req: 'R', re: /^\d{4}-\d{2}-\d{2}$/ },
  SettlementStatus: { req: 'R', re: oneOf('SUCCESS', 'FAILED') },
  SettlementFileFormat: { req: 'R', re: an(1, 32) },
  ClearingInsitituteName: { req: 'R', re: an(1, 64) },
  ClearingInstituteMerchantId: { req: 'R', re: an(5, 64) },
  ConnectorTxId1: { req: 'O', re: an(1, 64) },
  ConnectorTxId2: { req: 'O', re: an(1, 64) },
  ConnectorTxId3: { req: 'O', re: an(1, 64) },
  AccountNumberLast4: { req: 'O', re: an(1, 4) },
  AccountHolder: { req: 'O', re: an(1, 128) },
  BankCode: { req: 'O', re: an(1, 12) },
  MerchantAccountId: { req: 'R', re: ID32 },
  MerchantAccountName: { req: 'O', re: an(1, 1000) },
  UniqueID: { req: 'O', re: ID32 },
  PspId: { req: 'R', re: ID32 },
  DivisionId: { req: 'O', re: ID32 },
  MerchantId: { req: 'R', re: ID32 },
  ShortId: { req: 'O', re: an(1, 14) },
  Amount: { req: 'R', re: DEC2 },
  Currency: { req: 'R', re: /^[A-Z]{3}$/ },
  Brand: { req: 'O', re: /^[A-Za-z]{1,16}$/ },
  TxRequestTime: { req: 'O', re: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/ },
  Descriptor: { req: 'O', re: an(1, 128) },
  MatchingStatus: { req: 'C', re: oneOf('MATCHED', 'MULTIPLE_MATCHES', 'NOT_MATCHED') },
  MatchedTransactions: { req: 'C', re: /^[A-Za-z0-9]{32}(?:,[A-Za-z0-9]{32})*$/ },
  ChargebackId: { req: 'C', re: ID32 },
  // AN 8-255; R in the spec's table, but a payment may have been sent without one. A value that
  // would start a formula is written with a leading ' (csv.ts), so one character more.
  TransactionId: { req: 'O', re: an(1, 256) },
  InvoiceId: { req: 'O', re: an(1, 256) },
};

export type CsvRow = Record<(typeof RECONCILIATION_COLUMNS)[number], string>;

/**
 * Checks a reconciliation CSV against the spec: the header (order, spelling), 38 fields per row,
 * every required column filled, every value in its format. Returns the rows by column name.
 */
export function checkReconciliationCsv(text: string): CsvRow[] {
  expect(text.startsWith(`${SPEC_HEADER}\r\n`)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...rows] = parseCsv(text);
  expect(header).toEqual(SPEC_HEADER.split(';'));
  expect(Object.keys(SPEC_COLUMNS).sort()).toEqual([...RECONCILIATION_COLUMNS].sort());
  const byColumn = rows.map((row) => {
    expect(row).toHaveLength(RECONCILIATION_COLUMNS.length);
    return Object.fromEntries(RECONCILIATION_COLUMNS.map((c, i) => [c, row[i] ?? ''])) as CsvRow;
  });
  for (const [n, row] of byColumn.entries()) {
    for (const column of RECONCILIATION_COLUMNS) {
      const value = row[column];
      const { req, re } = SPEC_COLUMNS[column]!;
      const where = `row ${n + 1}, ${column} = ${JSON.stringify(value)}`;
      if (req === 'R') expect(value, where).not.toBe('');
      if (value !== '') expect(re.test(value), where).toBe(true);
    }
    const chargeback =
      row.ReconciliationType === 'CHARGEBACK' || row.ReconciliationType === 'CHARGEBACK REVERSAL';
    if (!chargeback) expect([row.ReasonCode, row.ReasonDesc]).toEqual(['', '']);
    if (row.MatchingStatus === 'NOT_MATCHED') expect(row.MatchedTransactions).toBe('');
    else expect(row.MatchedTransactions).not.toBe('');
    expect(CURRENCY_CODES).toContain(row.Currency);
    expect(CURRENCY_CODES).toContain(row.SettlementCurrency);
  }
  return byColumn;
}
