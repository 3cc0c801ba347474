import { describe, expect, it } from 'vitest';
import { dayTransactions, eurConfig, merchantDay, tid } from '../../server/test-kit/fixtures/settlement-day';
import { asMinor } from '../money';
import type { SettlementRecord } from './records';
import {
  type CandidatePayment,
  matchTransaction,
  type SettlementConfig,
  type SettlementDay,
  type SettlementTransaction,
  settle,
} from './settle';

const summary = (r: SettlementRecord) => [
  r.recordType,
  r.transactionType,
  r.cashflow,
  r.payment.id,
  r.settlement.amount,
  r.settlement.fee,
  r.settlement.fxRate,
  r.matchingStatus,
  r.matchedTransactions.join(','),
  r.chargebackId,
];

function one(tx: Partial<SettlementTransaction>, config: Partial<SettlementConfig> = {}): SettlementRecord[] {
  const transaction: SettlementTransaction = {
    id: tid(100),
    shortId: '0000.0000.0100',
    paymentType: 'DB',
    amount: asMinor(100),
    currency: 'EUR',
    createdAt: new Date('2026-03-01T00:00:00Z'),
    ...tx,
  };
  return settle(
    { ...merchantDay, transactions: [transaction], candidates: [] },
    { ...eurConfig, fees: {}, ...config },
  );
}

describe('settle: the day', () => {
  const records = settle(merchantDay, eurConfig);

  it('gives one record per settled transaction and one FEE record per fee, in time order', () => {
    expect(records.map(summary)).toEqual([
      ['SETTLED', 'DEBIT', 'POS', tid(1), 10000, 175, '1.00', 'MATCHED', tid(1), undefined],
      ['FEE', 'CAPTURE_FEE', 'NEG', tid(1), 175, undefined, '1.00', 'MATCHED', tid(1), undefined],
      // 49.99 USD × 0.9211 = 46.045789 EUR → 46.05; fee 1.5 % of 46.05 = 0.69075 → 0.69, + 0.25
      ['SETTLED', 'DEBIT', 'POS', tid(2), 4605, 94, '0.9211', 'MATCHED', tid(2), undefined],
      ['FEE', 'CAPTURE_FEE', 'NEG', tid(2), 94, undefined, '0.9211', 'MATCHED', tid(2), undefined],
      ['FEE', 'AUTH_FEE', 'NEG', tid(3), 5, undefined, '1.00', 'MATCHED', tid(3), undefined],
      ['SETTLED', 'DEBIT', 'POS', tid(4), 25000, 400, '1.00', 'MATCHED', tid(4), undefined],
      ['FEE', 'CAPTURE_FEE', 'NEG', tid(4), 400, undefined, '1.00', 'MATCHED', tid(4), undefined],
      // 10.00 USD × 0.9211 = 9.211 → 9.21
      ['SETTLED', 'REFUND', 'NEG', tid(5), 921, 50, '0.9211', 'MATCHED', tid(5), undefined],
      ['FEE', 'REFUND_FEE', 'NEG', tid(5), 50, undefined, '0.9211', 'MATCHED', tid(5), undefined],
      // Chargebacks match the charged-back payment; the chargeback id is the CB's own.
      ['CHARGEBACK', 'DEBIT', 'NEG', tid(6), 10000, undefined, '1.00', 'MATCHED', tid(1), tid(6)],
      ['CHARGEBACK REVERSAL', 'DEBIT', 'POS', tid(7), 10000, undefined, '1.00', 'MATCHED', tid(1), undefined],
      // 1.5 % of 12.34 = 0.1851 → 0.19, + 0.25
      ['SETTLED', 'DEBIT', 'POS', tid(8), 1234, 44, '1.00', 'MATCHED', tid(8), undefined],
      ['FEE', 'CAPTURE_FEE', 'NEG', tid(8), 44, undefined, '1.00', 'MATCHED', tid(8), undefined],
      ['FEE', 'AUTH_FEE', 'NEG', tid(9), 5, undefined, '0.9211', 'MATCHED', tid(9), undefined],
      ['FEE', 'CANCEL_FEE', 'NEG', tid(10), 5, undefined, '0.9211', 'MATCHED', tid(10), undefined],
      // 3.33 USD × 0.9211 = 3.067263 → 3.07; 1.5 % = 0.04605 → 0.05, + 0.25
      [
        'SETTLED',
        'DEBIT',
        'POS',
        tid(11),
        307,
        30,
        '0.9211',
        'MULTIPLE_MATCHES',
        `${tid(0x20)},${tid(0x21)}`,
        undefined,
      ],
      [
        'FEE',
        'CAPTURE_FEE',
        'NEG',
        tid(11),
        30,
        undefined,
        '0.9211',
        'MULTIPLE_MATCHES',
        `${tid(0x20)},${tid(0x21)}`,
        undefined,
      ],
      // 1.5 % of 0.05 = 0.00075 → 0.00, + 0.25
      ['SETTLED', 'DEBIT', 'POS', tid(12), 5, 25, '1.00', 'NOT_MATCHED', '', undefined],
      ['FEE', 'CAPTURE_FEE', 'NEG', tid(12), 25, undefined, '1.00', 'NOT_MATCHED', '', undefined],
    ]);
  });

  it('fills the fields every record shares', () => {
    for (const r of records) {
      expect(r.settlement).toMatchObject({ currency: 'EUR', date: '2026-03-02', status: 'SUCCESS' });
      expect(r.settlement.format).toBe('SIM-SETTLEMENT-V1');
      expect(r.settlement.id).toMatch(/^20260302[0-9a-f]{32}F?$/);
      expect(r.clearingInstitute).toMatchObject({ name: 'Simulated Acquirer', merchantId: 'ACQ-MID-0042' });
      expect(r.merchantAccount).toEqual({ id: 'a'.repeat(32), name: 'Demo Shop EUR' });
      expect([r.pspEntityId, r.divisionId, r.merchantId]).toEqual(['b', 'c', 'd'].map((c) => c.repeat(32)));
    }
    expect(new Set(records.map((r) => r.settlement.id)).size).toBe(records.length);
  });

  it('keeps payment, account, clearing ids and chargeback reasons', () => {
    const [first] = records;
    expect(first?.payment).toEqual({
      id: tid(1),
      shortId: '1111.2222.0001',
      amount: 10000,
      currency: 'EUR',
      brand: 'VISA',
      requestTime: new Date('2026-03-01T08:00:00Z'),
      descriptor: 'Order 1',
    });
    expect(first?.account).toEqual({ kind: 'card', last4Digits: '4242', holder: 'Jane Doe' });
    expect(first?.clearingInstitute).toMatchObject({ txId1: 'ACQ-0001', txId2: 'ARN-74000000001' });
    expect(first?.reason).toBeUndefined();
    const bank = records.find((r) => r.payment.id === tid(8));
    expect(bank?.account).toEqual({
      kind: 'bankAccount',
      last4Digits: '3000',
      holder: 'Max Mustermann',
      bankCode: '37040044',
    });
    const cb = records.find((r) => r.recordType === 'CHARGEBACK');
    expect(cb?.reason).toEqual({ code: '000.100.220', description: 'Fraudulent transaction' });
    const usd = records.find((r) => r.payment.id === tid(2));
    expect(usd?.payment).toMatchObject({ amount: 4999, currency: 'USD' });
  });

  it('nets to the payout: POS minus NEG, fees counted once', () => {
    const net = records.reduce((sum, r) => sum + (r.cashflow === 'POS' ? 1 : -1) * r.settlement.amount, 0);
    const settled = 10000 + 4605 + 25000 - 921 - 10000 + 10000 + 1234 + 307 + 5;
    const fees = 175 + 94 + 5 + 400 + 50 + 44 + 5 + 5 + 30 + 25;
    expect(net).toBe(settled - fees);
  });

  it('is deterministic whatever the order of the transactions', () => {
    const reversed = settle({ ...merchantDay, transactions: [...dayTransactions].reverse() }, eurConfig);
    expect(reversed).toEqual(records);
    expect(settle(merchantDay, eurConfig)).toEqual(records);
  });
});

describe('settle: money', () => {
  it('converts exactly and rounds half-even by default, half-up on request', () => {
    // 1 cent USD × 0.5 = 0.5 cent: a tie.
    const tie = { currency: 'USD', amount: asMinor(1) };
    expect(one(tie, { fxRates: { USD: '0.5' } })[0]?.settlement.amount).toBe(0);
    expect(one(tie, { fxRates: { USD: '0.5' }, rounding: 'halfUp' })[0]?.settlement.amount).toBe(1);
    const tie3 = { currency: 'USD', amount: asMinor(3) }; // 1.5 → 2 both ways
    expect(one(tie3, { fxRates: { USD: '0.5' } })[0]?.settlement.amount).toBe(2);
    // Not representable in binary floating point: 1.15 × 100 would be 114.99999999999999.
    expect(
      one({ currency: 'USD', amount: asMinor(100) }, { fxRates: { USD: '1.15' } })[0]?.settlement.amount,
    ).toBe(115);
  });

  it('handles currencies with 0 and 3 decimals, rounding to the DEC2 quantum', () => {
    const jpy = one({ currency: 'JPY', amount: asMinor(1000) }, { fxRates: { JPY: '0.0061' } })[0];
    expect(jpy?.settlement).toMatchObject({ amount: 610, fxRate: '0.0061' });
    const toJpy = one({ amount: asMinor(1234) }, { currency: 'JPY', fxRates: { EUR: '163.27' } })[0];
    expect(toJpy?.settlement.amount).toBe(2015); // 12.34 × 163.27 = 2014.7518
    // 10.00 EUR × 0.4123 = 4.123 BHD → 4.12 (DEC2), i.e. 4120 fils
    const bhd = one({ amount: asMinor(1000) }, { currency: 'BHD', fxRates: { EUR: '0.4123' } })[0];
    expect(bhd?.settlement.amount).toBe(4120);
  });

  it('computes percentage plus fixed fees, rounded, and none for PA/RV without a schedule entry', () => {
    const fees = { DB: { basisPoints: 50, fixed: asMinor(0) } };
    // 0.5 % of 1.00 = 0.005 → tie → 0.00 (half-even) or 0.01 (half-up)
    expect(one({}, { fees })).toHaveLength(1);
    expect(one({}, { fees })[0]?.settlement.fee).toBe(0);
    const up = one({}, { fees, rounding: 'halfUp' });
    expect(up.map((r) => [r.recordType, r.settlement.amount])).toEqual([
      ['SETTLED', 100],
      ['FEE', 1],
    ]);
    expect(one({ paymentType: 'PA' })).toEqual([]);
    expect(one({ paymentType: 'RV' })).toEqual([]);
    expect(
      one({ paymentType: 'CB' }, { fees: { DB: { basisPoints: 100, fixed: asMinor(10) } } }),
    ).toHaveLength(1);
  });

  it('a FAILED settlement keeps its record with status FAILED and is charged no fee', () => {
    const records = one({ status: 'FAILED' }, { fees: { DB: { basisPoints: 0, fixed: asMinor(10) } } });
    expect(records).toHaveLength(1);
    expect(records[0]?.settlement).toMatchObject({ status: 'FAILED', amount: 100, fee: undefined });
  });

  it('refuses invalid input rather than guessing', () => {
    expect(() => one({ currency: 'USD' }, { fxRates: {} })).toThrow(/No FX rate from USD to EUR/);
    expect(() => one({ currency: 'USD' }, { fxRates: { USD: '1,08' } })).toThrow(RangeError);
    expect(() => one({ currency: 'USD' }, { fxRates: { USD: '0.000' } })).toThrow(/positive/);
    expect(() => one({ currency: 'XAU' })).toThrow(/currency/);
    expect(() => one({ amount: asMinor(-5) })).toThrow(/non-negative/);
    expect(() => one({ currency: 'BHD', amount: asMinor(12345) }, { fxRates: { BHD: '2.4' } })).toThrow(
      /two decimals/,
    );
    expect(() => one({ id: 'short' })).toThrow(/32 letters/);
    expect(() => one({}, { date: '2026-02-30' })).toThrow(/calendar day/);
    expect(() => one({}, { clearingInstitute: { name: 'X', merchantId: 'abc' } })).toThrow(/5-64/);
    expect(() => one({}, { fees: { DB: { basisPoints: 1.5, fixed: asMinor(0) } } })).toThrow(/basisPoints/);
    expect(() => one({ paymentType: 'CB', chargebackResultCode: 'x' })).toThrow(/chargebackResultCode/);
    const tx = dayTransactions[0]!;
    expect(() => settle({ ...merchantDay, transactions: [tx, tx] }, eurConfig)).toThrow(/twice/);
  });
});

describe('matchTransaction', () => {
  const tx: SettlementTransaction = dayTransactions[0]!;
  const c = (id: number, shortId?: string, merchantTransactionId?: string): CandidatePayment => ({
    id: tid(id),
    shortId,
    merchantTransactionId,
  });

  it('matches by UniqueID, then shortId, then the merchant reference', () => {
    expect(matchTransaction(tx, [c(1), c(2, tx.shortId)])).toEqual({ status: 'MATCHED', ids: [tid(1)] });
    expect(matchTransaction(tx, [c(2, tx.shortId)])).toEqual({ status: 'MATCHED', ids: [tid(2)] });
    expect(matchTransaction(tx, [c(3, tx.shortId), c(2, tx.shortId)])).toEqual({
      status: 'MULTIPLE_MATCHES',
      ids: [tid(2), tid(3)],
    });
    expect(matchTransaction(tx, [c(4, 'x', 'order-0001'), c(5, 'y', 'order-0001')])).toEqual({
      status: 'MULTIPLE_MATCHES',
      ids: [tid(4), tid(5)],
    });
    expect(matchTransaction(tx, [c(4, 'x', 'order-0001')])).toEqual({ status: 'MATCHED', ids: [tid(4)] });
    expect(matchTransaction(tx, [c(4, 'x', 'other')])).toEqual({ status: 'NOT_MATCHED', ids: [] });
    expect(matchTransaction(tx, [])).toEqual({ status: 'NOT_MATCHED', ids: [] });
  });

  it('matches a chargeback by the payment it charges back, never by itself', () => {
    const cb: SettlementTransaction = { ...tx, id: tid(50), paymentType: 'CB', referencedId: tid(1) };
    expect(matchTransaction(cb, [c(50, tx.shortId), c(1)])).toEqual({ status: 'MATCHED', ids: [tid(1)] });
    expect(matchTransaction(cb, [c(50, tx.shortId)])).toEqual({ status: 'NOT_MATCHED', ids: [] });
    const day: SettlementDay = { ...merchantDay, transactions: [cb], candidates: [c(50)] };
    const [record] = settle(day, eurConfig);
    expect(record).toMatchObject({
      recordType: 'CHARGEBACK',
      matchingStatus: 'NOT_MATCHED',
      chargebackId: undefined,
    });
  });
});
