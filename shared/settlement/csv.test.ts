import { describe, expect, it } from 'vitest';
import {
  eurConfig,
  merchantDay,
  TRICKY_DESCRIPTOR,
  tid,
} from '../../server/test-kit/fixtures/settlement-day';
import {
  checkReconciliationCsv,
  SPEC_HEADER as HEADER,
  parseCsv,
  SPEC_COLUMNS as SPEC,
} from '../../server/test-kit/settlement/spec-checks';
import {
  csvField,
  FORMULA_SAFE_COLUMNS,
  formatRequestTime,
  fxRateDec2,
  neutralizeFormula,
  RECONCILIATION_COLUMNS,
  reconciliationCsv,
  reconciliationRow,
} from './csv';
import type { SettlementRecord } from './records';
import { settle } from './settle';

describe('reconciliationCsv: a settlement day', () => {
  const records = settle(merchantDay, eurConfig);
  const text = reconciliationCsv(records);
  const [header, ...rows] = parseCsv(text);
  const byColumn = rows.map((row) => Object.fromEntries(RECONCILIATION_COLUMNS.map((c, i) => [c, row[i]])));

  it("writes the spec's header, in its order and spelling, and CRLF after every line", () => {
    expect(text.startsWith(`${HEADER}\r\n`)).toBe(true);
    expect(header).toEqual(HEADER.split(';'));
    // The spec's 36 columns, then TransactionId and InvoiceId (decisions, Settlement).
    expect(header).toHaveLength(38);
    expect(header!.slice(-2)).toEqual(['TransactionId', 'InvoiceId']);
    expect(Object.keys(SPEC).sort()).toEqual([...RECONCILIATION_COLUMNS].sort());
    expect(text.endsWith('\r\n')).toBe(true);
    expect(reconciliationCsv([])).toBe(`${HEADER}\r\n`);
  });

  it('writes one row of 38 fields per record', () => {
    expect(rows).toHaveLength(records.length);
    expect(rows).toHaveLength(19);
    for (const row of rows) expect(row).toHaveLength(38);
  });

  it("fits every column of every row to the spec's table", () => {
    expect(checkReconciliationCsv(text)).toHaveLength(19);
  });

  it('writes the values of each row', () => {
    const cols = [
      'ReconciliationType',
      'PaymentType',
      'Cashflow',
      'UniqueID',
      'ShortId',
      'Amount',
      'Currency',
      'TxRequestTime',
      'SettlementAmount',
      'SettlementFee',
      'SettlementFxRate',
      'AccountNumberLast4',
      'ReasonCode',
      'MatchingStatus',
      'MatchedTransactions',
      'ChargebackId',
    ] as const;
    const dup = `${tid(0x20)},${tid(0x21)}`;
    const t = (n: number) => tid(n);
    const s = (n: number) => `1111.2222.${String(n).padStart(4, '0')}`;
    const d = (hms: string) => `2026-03-01 ${hms}`;
    // biome-ignore format: one row per line reads like the file
    const expected = [
      ['SETTLED', 'DEBIT', 'POS', t(1), s(1), '100.00', 'EUR', d('08:00:00'), '100.00', '1.75', '1.00', '4242', '', 'MATCHED', t(1), ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', t(1), s(1), '100.00', 'EUR', d('08:00:00'), '1.75', '', '1.00', '4242', '', 'MATCHED', t(1), ''],
      ['SETTLED', 'DEBIT', 'POS', t(2), s(2), '49.99', 'USD', d('08:30:15'), '46.05', '0.94', '0.92', '5454', '', 'MATCHED', t(2), ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', t(2), s(2), '49.99', 'USD', d('08:30:15'), '0.94', '', '0.92', '5454', '', 'MATCHED', t(2), ''],
      ['FEE', 'AUTH_FEE', 'NEG', t(3), s(3), '250.00', 'EUR', d('09:00:00'), '0.05', '', '1.00', '1111', '', 'MATCHED', t(3), ''],
      ['SETTLED', 'DEBIT', 'POS', t(4), s(4), '250.00', 'EUR', d('09:05:00'), '250.00', '4.00', '1.00', '1111', '', 'MATCHED', t(4), ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', t(4), s(4), '250.00', 'EUR', d('09:05:00'), '4.00', '', '1.00', '1111', '', 'MATCHED', t(4), ''],
      ['SETTLED', 'REFUND', 'NEG', t(5), s(5), '10.00', 'USD', d('10:00:00'), '9.21', '0.50', '0.92', '5454', '', 'MATCHED', t(5), ''],
      ['FEE', 'REFUND_FEE', 'NEG', t(5), s(5), '10.00', 'USD', d('10:00:00'), '0.50', '', '0.92', '5454', '', 'MATCHED', t(5), ''],
      ['CHARGEBACK', 'DEBIT', 'NEG', t(6), s(6), '100.00', 'EUR', d('11:00:00'), '100.00', '', '1.00', '4242', '000.100.220', 'MATCHED', t(1), t(6)],
      ['CHARGEBACK REVERSAL', 'DEBIT', 'POS', t(7), s(7), '100.00', 'EUR', d('12:00:00'), '100.00', '', '1.00', '4242', '000.100.221', 'MATCHED', t(1), ''],
      ['SETTLED', 'DEBIT', 'POS', t(8), s(8), '12.34', 'EUR', d('13:00:00'), '12.34', '0.44', '1.00', '3000', '', 'MATCHED', t(8), ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', t(8), s(8), '12.34', 'EUR', d('13:00:00'), '0.44', '', '1.00', '3000', '', 'MATCHED', t(8), ''],
      ['FEE', 'AUTH_FEE', 'NEG', t(9), s(9), '20.00', 'USD', d('14:00:00'), '0.05', '', '0.92', '', '', 'MATCHED', t(9), ''],
      ['FEE', 'CANCEL_FEE', 'NEG', t(10), s(10), '20.00', 'USD', d('14:10:00'), '0.05', '', '0.92', '', '', 'MATCHED', t(10), ''],
      ['SETTLED', 'DEBIT', 'POS', t(11), s(11), '3.33', 'USD', d('15:00:00'), '3.07', '0.30', '0.92', '', '', 'MULTIPLE_MATCHES', dup, ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', t(11), s(11), '3.33', 'USD', d('15:00:00'), '0.30', '', '0.92', '', '', 'MULTIPLE_MATCHES', dup, ''],
      ['SETTLED', 'DEBIT', 'POS', t(12), s(12), '0.05', 'EUR', d('16:00:00'), '0.05', '0.25', '1.00', '', '', 'NOT_MATCHED', '', ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', t(12), s(12), '0.05', 'EUR', d('16:00:00'), '0.25', '', '1.00', '', '', 'NOT_MATCHED', '', ''],
    ];
    expect(byColumn.map((row) => cols.map((c) => row[c]))).toEqual(expected);
  });

  it('writes the columns every row shares, and the optional ones where the data has them', () => {
    for (const row of byColumn) {
      expect(row).toMatchObject({
        ClearingInstituteMerchantId: 'ACQ-MID-0042',
        MerchantAccountId: 'a'.repeat(32),
        MerchantAccountName: 'Demo Shop EUR',
        PspId: 'b'.repeat(32),
        DivisionId: 'c'.repeat(32),
        MerchantId: 'd'.repeat(32),
        SettlementCurrency: 'EUR',
        SettlementDate: '2026-03-02',
        SettlementStatus: 'SUCCESS',
        SettlementFileFormat: 'SIM-SETTLEMENT-V1',
        ClearingInsitituteName: 'Simulated Acquirer',
      });
      expect(row.SettlementTxId).toBe(
        `20260302${row.UniqueID}${row.ReconciliationType === 'FEE' ? 'F' : ''}`,
      );
    }
    const first = byColumn[0]!;
    expect(first).toMatchObject({
      ConnectorTxId1: 'ACQ-0001',
      ConnectorTxId2: 'ARN-74000000001',
      ConnectorTxId3: '',
      Brand: 'VISA',
      Descriptor: 'Order 1',
      AccountHolder: 'Jane Doe',
      BankCode: '',
    });
    expect(byColumn.find((r) => r.UniqueID === tid(8))).toMatchObject({
      Brand: 'GIROPAY',
      AccountNumberLast4: '3000',
      BankCode: '37040044',
      AccountHolder: 'Max Mustermann',
    });
    expect(byColumn.find((r) => r.ReconciliationType === 'CHARGEBACK')?.ReasonDesc).toBe(
      'Fraudulent transaction',
    );
  });

  it('quotes a descriptor holding ; " CR and LF, and reads back the same', () => {
    const row = byColumn.find((r) => r.UniqueID === tid(2))!;
    expect(row.Descriptor).toBe(TRICKY_DESCRIPTOR);
    expect(text).toContain(';"Shop; ""Deluxe""\r\nline 2\nend";');
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField('')).toBe('');
  });
});

describe('reconciliationCsv: options and formats', () => {
  const [record] = settle(merchantDay, eurConfig).filter((r) => r.payment.currency === 'USD');
  const base = record!;

  it('writes the FX rate as DEC2 by default, or exactly as applied', () => {
    expect(reconciliationRow(base).SettlementFxRate).toBe('0.92');
    expect(reconciliationRow(base, { fxRate: 'exact' }).SettlementFxRate).toBe('0.9211');
    expect(fxRateDec2('1')).toBe('1.00');
    expect(fxRateDec2('1.5')).toBe('1.50');
    expect(fxRateDec2('1.0856')).toBe('1.09');
    expect(fxRateDec2('0.125')).toBe('0.12'); // half-even
    expect(fxRateDec2('0.135')).toBe('0.14');
    expect(fxRateDec2('0.0061')).toBe('0.01');
    expect(() => fxRateDec2('1e3')).toThrow(RangeError);
  });

  // Changed with security hole 11: neutralising is now the default (it was opt-in), and the
  // merchant's references are written as TransactionId and InvoiceId.
  it('neutralises text cells starting with = + - @ TAB CR by default; { neutralizeFormulas: false } leaves them', () => {
    const formula: SettlementRecord = {
      ...base,
      payment: { ...base.payment, descriptor: '=HYPERLINK("http://x";"y")' },
      account: { holder: '@SUM(A1)', bankCode: '-1+2' },
      reason: { code: '000.100.220', description: '\tTab' },
    };
    const line = { record: formula, merchantTransactionId: '+1+1 order', merchantInvoiceId: '\rinv-0001' };
    const col = (row: string[], c: (typeof RECONCILIATION_COLUMNS)[number]) =>
      row[RECONCILIATION_COLUMNS.indexOf(c)];
    const safe = parseCsv(reconciliationCsv([line]))[1]!;
    expect(col(safe, 'Descriptor')).toBe(`'=HYPERLINK("http://x";"y")`);
    expect(col(safe, 'AccountHolder')).toBe(`'@SUM(A1)`);
    expect(col(safe, 'BankCode')).toBe(`'-1+2`);
    expect(col(safe, 'ReasonDesc')).toBe(`'\tTab`);
    expect(col(safe, 'TransactionId')).toBe(`'+1+1 order`);
    expect(col(safe, 'InvoiceId')).toBe(`'\rinv-0001`);
    expect(col(safe, 'SettlementAmount')).toBe('46.05');
    const plain = parseCsv(reconciliationCsv([line], { neutralizeFormulas: false }))[1]!;
    expect(col(plain, 'Descriptor')).toBe('=HYPERLINK("http://x";"y")');
    expect(col(plain, 'AccountHolder')).toBe('@SUM(A1)');
    expect(col(plain, 'TransactionId')).toBe('+1+1 order');
    // A bare record has no references: empty cells.
    expect(col(parseCsv(reconciliationCsv([formula]))[1]!, 'TransactionId')).toBe('');
  });

  it('never alters the numeric, date, enum and id columns', () => {
    for (const column of FORMULA_SAFE_COLUMNS) expect(RECONCILIATION_COLUMNS).toContain(column);
    expect(FORMULA_SAFE_COLUMNS.has('Amount')).toBe(true);
    expect(FORMULA_SAFE_COLUMNS.has('Descriptor')).toBe(false);
    expect(FORMULA_SAFE_COLUMNS.has('TransactionId')).toBe(false);
    expect(neutralizeFormula('-12.50')).toBe("'-12.50");
    expect(neutralizeFormula('Jane')).toBe('Jane');
  });

  it('formats amounts with the currency exponent and request times in UTC', () => {
    const jpy: SettlementRecord = {
      ...base,
      payment: { ...base.payment, amount: 1234 as never, currency: 'JPY' },
      settlement: { ...base.settlement, amount: 4120 as never, currency: 'BHD', fee: undefined },
    };
    const row = reconciliationRow(jpy);
    expect([
      row.Amount,
      row.Currency,
      row.SettlementAmount,
      row.SettlementCurrency,
      row.SettlementFee,
    ]).toEqual(['1234.00', 'JPY', '4.12', 'BHD', '']);
    expect(formatRequestTime(new Date('2026-12-31T23:59:59.999+01:00'))).toBe('2026-12-31 22:59:59');
    expect(formatRequestTime(new Date('0999-01-02T03:04:05Z'))).toBe('0999-01-02 03:04:05');
  });
});
