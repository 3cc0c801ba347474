/**
 * The settlement run's reconciliation, value by value (decisions, "Settlement"): a rebill (RB)
 * charges the shopper again, a DEBIT with cashflow POS and a capture fee; a credit (CD) pays out,
 * a CREDIT with NEG; a SEPA debit takes its holder and last four from the bank account and names its
 * brand; TransactionId and InvoiceId follow the spec's 36 columns (a rebill keeps its debit's
 * merchantTransactionId). Against the simulated acquirer's records of the day: a bank-account
 * payment whose transfer the acquirer reports failed settles FAILED (no fee, not in the totals),
 * and a record the acquirer holds that no payment matches is NOT_MATCHED (no UniqueID, its
 * reference as ConnectorTxId1).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeClock } from '../test-kit/clock';
import { SEPA_DIRECT_DEBIT } from '../test-kit/fixtures/bank-accounts';
import { VISA_CARD_WITHOUT_CVV } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, startPostgres } from '../test-kit/postgres';
import { checkReconciliationCsv } from '../test-kit/settlement/spec-checks';
import { describeDialects } from '../test-kit/store-dialects';
import { settleDay } from './settlement-run';

const DAY = '2026-06-02';
const SEPA = { ...SEPA_DIRECT_DEBIT, 'bankAccount.holder': 'Max Mustermann' };

describeDialects('%s: the reconciliation of a day', (dialect) => {
  const clock = fakeClock(`${DAY}T09:00:00.000Z`);
  let cluster: PostgresCluster | undefined;
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
    if (dialect === 'postgres') cluster = await startPostgres();
    gw = await testGateway({
      clock,
      settlement: { autoStart: false },
      ...(cluster === undefined ? {} : { databaseUrl: cluster.url }),
    });
    m = await gw.addMerchant({ channels: 1 });
    await post('db', '/v1/payments', {
      ...VISA_CARD_WITHOUT_CVV,
      amount: '50.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: 'order-0100',
      merchantInvoiceId: 'invoice-0100',
    });
  }, 60_000);
  afterAll(async () => {
    await gw?.cleanup();
    await cluster?.stop();
  }, 60_000);

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
    await post('returned', '/v1/payments', {
      ...SEPA,
      amount: '20.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: 'order-0102',
    });
    // the acquirer's records of the day: the transfer of the second debit failed, and a 7.00
    // debit the acquirer took that the gateway made no payment for
    const failed = await gw.post('/simulators/acquirer/transfer-failures', {
      entityId: m.entityId,
      id: ids.returned!,
    });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ paymentId: ids.returned, status: 'FAILED', date: DAY });
    clock.advance(60_000);
    const held = await gw.post('/simulators/acquirer/records', {
      entityId: m.entityId,
      amount: '7.00',
      currency: 'EUR',
      paymentBrand: 'VISA',
      merchantTransactionId: 'terminal-0001',
    });
    expect(held.status, held.text).toBe(200);
    expect(held.body).toMatchObject({ status: 'SUCCESS', date: DAY, amount: '7.00', paymentType: 'DB' });
    ids.held = held.body.id;
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
      'SettlementStatus',
      'MatchingStatus',
      'MatchedTransactions',
      'ConnectorTxId1',
    ] as const;
    // biome-ignore format: one row per line reads like the file
    expect(rows.map((r) => cols.map((c) => r[c]))).toEqual([
      ['SETTLED', 'DEBIT', 'POS', ids.db, '50.00', '50.00', '0.75', 'VISA', 'Jane Jones', '0000', 'order-0100', 'invoice-0100', 'SUCCESS', 'MATCHED', ids.db, ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', ids.db, '50.00', '0.75', '', 'VISA', 'Jane Jones', '0000', 'order-0100', 'invoice-0100', 'SUCCESS', 'MATCHED', ids.db, ''],
      ['SETTLED', 'DEBIT', 'POS', ids.rb, '5.00', '5.00', '0.08', 'VISA', 'Jane Jones', '0000', 'order-0100', '', 'SUCCESS', 'MATCHED', ids.rb, ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', ids.rb, '5.00', '0.08', '', 'VISA', 'Jane Jones', '0000', 'order-0100', '', 'SUCCESS', 'MATCHED', ids.rb, ''],
      ['SETTLED', 'CREDIT', 'NEG', ids.cd, '10.00', '10.00', '', 'VISA', 'Jane Jones', '0000', '', '', 'SUCCESS', 'MATCHED', ids.cd, ''],
      ['SETTLED', 'DEBIT', 'POS', ids.sepa, '30.00', '30.00', '0.45', 'DIRECTDEBITSEPA', 'Max Mustermann', '3000', 'order-0101', '', 'SUCCESS', 'MATCHED', ids.sepa, ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', ids.sepa, '30.00', '0.45', '', 'DIRECTDEBITSEPA', 'Max Mustermann', '3000', 'order-0101', '', 'SUCCESS', 'MATCHED', ids.sepa, ''],
      ['SETTLED', 'DEBIT', 'POS', ids.returned, '20.00', '20.00', '', 'DIRECTDEBITSEPA', 'Max Mustermann', '3000', 'order-0102', '', 'FAILED', 'MATCHED', ids.returned, ''],
      ['SETTLED', 'DEBIT', 'POS', '', '7.00', '7.00', '0.10', 'VISA', '', '', 'terminal-0001', '', 'SUCCESS', 'NOT_MATCHED', '', ids.held],
      ['FEE', 'CAPTURE_FEE', 'NEG', '', '7.00', '0.10', '', 'VISA', '', '', 'terminal-0001', '', 'SUCCESS', 'NOT_MATCHED', '', ids.held],
    ]);
    // the failed transfer moved no money: the day's settlement is FAILED, its totals without it;
    // the acquirer charges its fee on the debit it took
    const [settlement] = account!.settlements;
    expect(settlement).toMatchObject({
      status: 'FAILED',
      recordCount: 10,
      counts: { settled: 6, chargebacks: 0, chargebackReversals: 0, fees: 4 },
      totals: { positive: 9200, negative: 1138, fees: 138 },
    });
  });
});
