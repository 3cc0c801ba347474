/**
 * Test helpers for settlement runs: a settlement day made through the HTTP API (and the chargeback
 * back office), an RFC 4180 reader for the reconciliation CSV, and the spec's table as checks.
 */
import { expect } from 'vitest';
import { bookChargeback, reverseChargeback } from '../../shared/engine/chargebacks';
import type { Clock } from '../../shared/engine/ports';
import { CURRENCY_CODES } from '../../shared/money';
import { RECONCILIATION_COLUMNS } from '../../shared/settlement';
import type { TestGateway, TestMerchant } from '../test-support/gateway';

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
  'SettlementFileFormat;ClearingInsitituteName;MatchingStatus;MatchedTransactions;ChargebackId';

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
};

export type CsvRow = Record<(typeof RECONCILIATION_COLUMNS)[number], string>;

/**
 * Checks a reconciliation CSV against the spec: the header (order, spelling), 36 fields per row,
 * every required column filled, every value in its format. Returns the rows by column name.
 */
export function checkReconciliationCsv(text: string): CsvRow[] {
  expect(text.startsWith(`${SPEC_HEADER}\r\n`)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...rows] = parseCsv(text);
  expect(header).toEqual(SPEC_HEADER.split(';'));
  expect(Object.keys(SPEC_COLUMNS).sort()).toEqual([...RECONCILIATION_COLUMNS].sort());
  const byColumn = rows.map((row) => {
    expect(row).toHaveLength(36);
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

const CARD = {
  paymentBrand: 'VISA',
  'card.number': '4200000000000000',
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
};

/** The payments of a settlement day, by role. */
export interface PaidDay {
  readonly db: string;
  readonly pa: string;
  readonly cp: string;
  readonly rf: string;
  readonly cb: string;
  readonly cr: string;
  readonly declined: string;
  /** A USD debit (a second settlement currency), when asked for. */
  readonly usd?: string;
}

/**
 * Makes a day's transactions on the merchant's first channel, a minute apart: DB 92.00 EUR,
 * PA 100.00 + CP 60.00, RF 20.00 of the DB, a declined DB, CB 60.00 of the CP (reason 000.100.220)
 * and its CR; with `usd`, a DB of 49.99 USD.
 */
export async function payDay(
  gw: TestGateway,
  clock: Clock & { advance(ms: number): void },
  merchant: TestMerchant,
  options: { usd?: boolean; entityId?: string } = {},
): Promise<PaidDay> {
  const entityId = options.entityId ?? merchant.entityId;
  const auth = { token: merchant.token };
  const tick = () => clock.advance(60_000);
  const ok = (res: { status: number; body: { id: string; result: { code: string } } }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id;
  };
  const db = ok(
    await gw.post(
      '/v1/payments',
      {
        entityId,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        merchantTransactionId: 'order-0001',
        ...CARD,
      },
      auth,
    ),
  );
  tick();
  const pa = ok(
    await gw.post(
      '/v1/payments',
      { entityId, amount: '100.00', currency: 'EUR', paymentType: 'PA', ...CARD },
      auth,
    ),
  );
  tick();
  const cp = ok(
    await gw.post(
      `/v1/payments/${pa}`,
      { entityId, amount: '60.00', currency: 'EUR', paymentType: 'CP' },
      auth,
    ),
  );
  tick();
  const rf = ok(
    await gw.post(
      `/v1/payments/${db}`,
      { entityId, amount: '20.00', currency: 'EUR', paymentType: 'RF' },
      auth,
    ),
  );
  tick();
  const declinedRes = await gw.post(
    '/v1/payments',
    {
      entityId,
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...CARD,
      'card.number': '4000000000000002',
    },
    auth,
  );
  expect(declinedRes.status).toBe(400);
  const declined = declinedRes.body.id as string;
  tick();
  const deps = { store: gw.store, clock };
  const cbOutcome = await bookChargeback(deps, merchant.merchantId, cp, {
    chargebackResultCode: '000.100.220',
  });
  if (cbOutcome.kind !== 'booked') throw new Error(`chargeback: ${JSON.stringify(cbOutcome)}`);
  tick();
  const crOutcome = await reverseChargeback(deps, merchant.merchantId, cbOutcome.payment.id);
  if (crOutcome.kind !== 'booked') throw new Error(`reversal: ${JSON.stringify(crOutcome)}`);
  tick();
  let usd: string | undefined;
  if (options.usd) {
    usd = ok(
      await gw.post(
        '/v1/payments',
        {
          entityId,
          amount: '49.99',
          currency: 'USD',
          paymentType: 'DB',
          ...CARD,
          paymentBrand: 'MASTER',
          'card.number': '5454545454545454',
        },
        auth,
      ),
    );
    tick();
  }
  return {
    db,
    pa,
    cp,
    rf,
    cb: cbOutcome.payment.id,
    cr: crOutcome.payment.id,
    declined,
    ...(usd ? { usd } : {}),
  };
}
