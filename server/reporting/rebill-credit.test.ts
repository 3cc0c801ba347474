/**
 * Settlement of rebills, credits and bank-account payments (decisions, "Settlement"): a rebill (RB)
 * charges the shopper again, a DEBIT with cashflow POS and a capture fee; a credit (CD) pays out,
 * a CREDIT with NEG; a SEPA debit takes its holder and last four from the bank account and names its
 * brand; TransactionId and InvoiceId follow the spec's 36 columns (a rebill keeps its debit's
 * merchantTransactionId). Value by value.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../test-kit/clock';
import { VISA_CARD_WITHOUT_CVV } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { checkReconciliationCsv } from '../test-kit/settlement/spec-checks';
import { settleDay } from './settlement-run';

const DAY = '2026-06-02';
const SEPA = {
  paymentBrand: 'DIRECTDEBIT_SEPA',
  'bankAccount.holder': 'Max Mustermann',
  'bankAccount.iban': 'DE89370400440532013000',
  'bankAccount.bic': 'COBADEFFXXX',
};

describe('settlement of RB, CD and a bank-account payment', () => {
  const clock = fakeClock(`${DAY}T09:00:00.000Z`);
  let gw: TestGateway;
  let m: TestMerchant;
  const ids: Record<string, string> = {};

  const post = async (label: string, path: string, params: Record<string, string>) => {
    const res = await gw.post(path, { entityId: m.entityId, ...params }, { token: m.token });
    expect(res.status, res.text).toBe(200);
    ids[label] = res.body.id;
    clock.advance(60_000);
  };

  beforeAll(async () => {
    gw = await testGateway({ clock, settlement: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    await post('db', '/v1/payments', {
      ...VISA_CARD_WITHOUT_CVV,
      amount: '50.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: 'order-0100',
      merchantInvoiceId: 'invoice-0100',
    });
  });
  afterAll(() => gw?.cleanup());

  it('books them as the decisions say', async () => {
    await post('rb', `/v1/payments/${ids.db}`, { amount: '5.00', currency: 'EUR', paymentType: 'RB' });
    await post('cd', '/v1/payments', {
      ...VISA_CARD_WITHOUT_CVV,
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'CD',
    });
    await post('sepa', '/v1/payments', {
      ...SEPA,
      amount: '30.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: 'order-0101',
    });
    clock.advance(Date.parse('2026-06-03T03:00:00.000Z') - clock.now().getTime());
    const [account] = await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, DAY, {
      merchantId: m.merchantId,
    });
    const rows = checkReconciliationCsv(await readFile(account!.file!, 'utf8'));
    const cols = [
      'ReconciliationType',
      'PaymentType',
      'Cashflow',
      'UniqueID',
      'Amount',
      'SettlementAmount',
      'SettlementFee',
      'Brand',
      'AccountHolder',
      'AccountNumberLast4',
      'TransactionId',
      'InvoiceId',
    ] as const;
    // biome-ignore format: one row per line reads like the file
    expect(rows.map((r) => cols.map((c) => r[c]))).toEqual([
      ['SETTLED', 'DEBIT', 'POS', ids.db, '50.00', '50.00', '0.75', 'VISA', 'Jane Jones', '0000', 'order-0100', 'invoice-0100'],
      ['FEE', 'CAPTURE_FEE', 'NEG', ids.db, '50.00', '0.75', '', 'VISA', 'Jane Jones', '0000', 'order-0100', 'invoice-0100'],
      ['SETTLED', 'DEBIT', 'POS', ids.rb, '5.00', '5.00', '0.08', 'VISA', 'Jane Jones', '0000', 'order-0100', ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', ids.rb, '5.00', '0.08', '', 'VISA', 'Jane Jones', '0000', 'order-0100', ''],
      ['SETTLED', 'CREDIT', 'NEG', ids.cd, '10.00', '10.00', '', 'VISA', 'Jane Jones', '0000', '', ''],
      ['SETTLED', 'DEBIT', 'POS', ids.sepa, '30.00', '30.00', '0.45', 'DIRECTDEBITSEPA', 'Max Mustermann', '3000', 'order-0101', ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', ids.sepa, '30.00', '0.45', '', 'DIRECTDEBITSEPA', 'Max Mustermann', '3000', 'order-0101', ''],
    ]);
  });
});
