import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../shared/engine/core/model';
import { fakeClock } from '../test-kit/clock';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PaidDay, payDay } from '../test-kit/settlement/pay-day';
import { checkReconciliationCsv } from '../test-kit/settlement/spec-checks';
import {
  DEFAULT_PSP_ENTITY_ID,
  merchantFolder,
  RECONCILIATION_FOLDER,
  reconciliationFileName,
  type SettledAccount,
  settleDay,
  simulatedRate,
} from './settlement-run';
import { STALE_STAGING_MS } from './settlement-run/staging';
import { dueDays } from './settlement-run/worker';

const DAY = '2026-03-10';

describe('settlement run, through the gateway', () => {
  const clock = fakeClock('2026-03-10T09:00:00.000Z');
  let gw: TestGateway;
  let a: TestMerchant;
  let b: TestMerchant;
  let paidA: PaidDay;
  let paidB: PaidDay;
  /** B settles everything in EUR. */
  let eurChannel = '';
  const config = (channel: Channel) => (channel.id === eurChannel ? { currency: 'EUR' } : undefined);
  const deps = () => ({ store: gw.store, clock, dataDir: gw.dataDir });

  beforeAll(async () => {
    gw = await testGateway({ clock, settlement: { autoStart: false, config } });
    a = await gw.addMerchant({ channels: 1 });
    b = await gw.addMerchant({ channels: 1 });
    eurChannel = b.entityId;
    paidA = await payDay(gw, clock, a, { usd: true });
    paidB = await payDay(gw, clock, b, { usd: true });
  });
  afterAll(async () => {
    await gw?.cleanup();
  });

  it('refuses a day that is not over yet', async () => {
    await expect(settleDay(deps(), DAY)).rejects.toThrow(RangeError);
    await expect(settleDay(deps(), '2026-02-30')).rejects.toThrow(RangeError);
  });

  it('settles a day by the clock only after 02:00 UTC of the next day, once', async () => {
    clock.advance(Date.parse('2026-03-11T01:59:59.999Z') - clock.now().getTime());
    expect(await gw.settlement.runOnce()).toBe(0);
    expect(await gw.store.getSettlementRun(a.entityId, DAY)).toBeUndefined();
    clock.advance(1);
    // A, B and the demo merchant's channel (a day without transactions).
    expect(await gw.settlement.runOnce()).toBe(3);
    expect(await gw.store.getSettlementRun(a.entityId, DAY)).toMatchObject({
      recordCount: 10,
      settlementCount: 2,
    });
    expect(await gw.settlement.runOnce()).toBe(0);
  });

  it('names the due days: each past day whose cut-off has passed, the last 7', () => {
    expect(dueDays(new Date('2026-03-11T01:59:59Z'))).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
    ]);
    expect(dueDays(new Date('2026-03-11T02:00:00Z'), undefined, 2)).toEqual(['2026-03-09', '2026-03-10']);
    expect(dueDays(new Date('2026-03-01T05:00:00Z'), 0, 1)).toEqual(['2026-02-28']);
  });

  let accounts: SettledAccount[];
  it('answers a day settled before without settling it again', async () => {
    const before = await gw.store.listSettlements({ merchantId: a.merchantId, from: DAY, to: DAY });
    accounts = await settleDay(deps(), DAY, { merchantId: a.merchantId, config });
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ status: 'already-settled', channelId: a.entityId, date: DAY });
    expect(accounts[0]!.settlements).toEqual(before);
    expect(before.map((s) => s.currency)).toEqual(['EUR', 'USD']);
    expect(await gw.store.listSettlements({ merchantId: a.merchantId, from: DAY, to: DAY })).toHaveLength(2);
  });

  it('stores one settlement per currency with its counts and totals', () => {
    const [eur, usd] = accounts[0]!.settlements;
    expect(eur).toMatchObject({
      merchantId: a.merchantId,
      channelId: a.entityId,
      date: DAY,
      currency: 'EUR',
      status: 'SUCCESS',
      recordCount: 8,
      counts: { settled: 3, chargebacks: 1, chargebackReversals: 1, fees: 3 },
      // POS 92 + 60 + 60; NEG 20 + 60 + fees 1.38 + 0.90 + 0.10 (1.5 % of debits, 0.5 % of refunds)
      totals: { positive: 21200, negative: 8238, fees: 238 },
    });
    expect(eur!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(usd).toMatchObject({
      currency: 'USD',
      recordCount: 2,
      counts: { settled: 1, chargebacks: 0, chargebackReversals: 0, fees: 1 },
      totals: { positive: 4999, negative: 75, fees: 75 },
    });
  });

  it("writes the day's CSV file in the merchant's folder, every row and column as the spec's table says", async () => {
    const file = join(merchantFolder(gw.dataDir, a.merchantId), reconciliationFileName(a.entityId, DAY));
    expect(accounts[0]!.file).toBe(file);
    expect(file.endsWith(`reconciliation_${a.entityId}_20260310.csv`)).toBe(true);
    const rows = checkReconciliationCsv(await readFile(file, 'utf8'));
    const p = paidA;
    const t = (hhmm: string) => `2026-03-10 ${hhmm}:00`;
    const cols = [
      'ReconciliationType',
      'PaymentType',
      'Cashflow',
      'UniqueID',
      'Amount',
      'Currency',
      'TxRequestTime',
      'SettlementAmount',
      'SettlementCurrency',
      'SettlementFee',
      'SettlementFxRate',
      'ReasonCode',
      'MatchingStatus',
      'MatchedTransactions',
      'ChargebackId',
    ] as const;
    // biome-ignore format: one row per line reads like the file
    const expected = [
      ['SETTLED', 'DEBIT', 'POS', p.db, '92.00', 'EUR', t('09:00'), '92.00', 'EUR', '1.38', '1.00', '', 'MATCHED', p.db, ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', p.db, '92.00', 'EUR', t('09:00'), '1.38', 'EUR', '', '1.00', '', 'MATCHED', p.db, ''],
      ['SETTLED', 'DEBIT', 'POS', p.cp, '60.00', 'EUR', t('09:02'), '60.00', 'EUR', '0.90', '1.00', '', 'MATCHED', p.cp, ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', p.cp, '60.00', 'EUR', t('09:02'), '0.90', 'EUR', '', '1.00', '', 'MATCHED', p.cp, ''],
      ['SETTLED', 'REFUND', 'NEG', p.rf, '20.00', 'EUR', t('09:03'), '20.00', 'EUR', '0.10', '1.00', '', 'MATCHED', p.rf, ''],
      ['FEE', 'REFUND_FEE', 'NEG', p.rf, '20.00', 'EUR', t('09:03'), '0.10', 'EUR', '', '1.00', '', 'MATCHED', p.rf, ''],
      ['CHARGEBACK', 'DEBIT', 'NEG', p.cb, '60.00', 'EUR', t('09:05'), '60.00', 'EUR', '', '1.00', '000.100.220', 'MATCHED', p.cp, p.cb],
      ['CHARGEBACK REVERSAL', 'DEBIT', 'POS', p.cr, '60.00', 'EUR', t('09:06'), '60.00', 'EUR', '', '1.00', '000.100.220', 'MATCHED', p.cp, p.cb],
      ['SETTLED', 'DEBIT', 'POS', p.usd, '49.99', 'USD', t('09:07'), '49.99', 'USD', '0.75', '1.00', '', 'MATCHED', p.usd, ''],
      ['FEE', 'CAPTURE_FEE', 'NEG', p.usd, '49.99', 'USD', t('09:07'), '0.75', 'USD', '', '1.00', '', 'MATCHED', p.usd, ''],
    ];
    // 10 records: the PA (no fee by default) and the declined debit settle nothing.
    expect(rows.map((r) => cols.map((c) => r[c]))).toEqual(expected);
    expect(rows.map((r) => r.UniqueID)).not.toContain(p.pa);
    expect(rows.map((r) => r.UniqueID)).not.toContain(p.declined);
    for (const row of rows) {
      expect(row).toMatchObject({
        ClearingInstituteMerchantId: `SIM-${a.entityId.slice(0, 16)}`,
        MerchantAccountId: a.entityId,
        MerchantAccountName: 'Test_Channel_1',
        PspId: DEFAULT_PSP_ENTITY_ID,
        DivisionId: '',
        MerchantId: a.merchantId,
        SettlementDate: DAY,
        SettlementStatus: 'SUCCESS',
        SettlementFileFormat: 'SIM-SETTLEMENT-V1',
        ClearingInsitituteName: 'Simulated Acquirer',
        AccountHolder: 'Jane Jones',
      });
      expect(row.SettlementTxId).toBe(
        `20260310${row.UniqueID}${row.ReconciliationType === 'FEE' ? 'F' : ''}`,
      );
      expect(row.ShortId).toMatch(/^\d{4}\.\d{4}\.\d{4}$/);
      expect(row.Descriptor).toMatch(/^\d{4}\.\d{4}\.\d{4} Test_Channel_1/);
    }
    expect(rows.filter((r) => r.Currency === 'EUR').map((r) => r.Brand)).toEqual(Array(8).fill('VISA'));
    expect(rows.at(-1)).toMatchObject({ Brand: 'MASTER', AccountNumberLast4: '5454' });
    expect(rows[0]!.AccountNumberLast4).toBe('0000');
    expect(rows.find((r) => r.ReconciliationType === 'CHARGEBACK')?.ReasonDesc).toBe(
      'Fraudulent Transaction',
    );
  });

  it('settles into a configured currency at the simulated rate', async () => {
    const [settled] = await settleDay(deps(), DAY, { merchantId: b.merchantId, config });
    expect(settled!.settlements.map((s) => s.currency)).toEqual(['EUR']);
    const rows = checkReconciliationCsv(await readFile(settled!.file!, 'utf8'));
    expect(rows).toHaveLength(10);
    const usd = rows.filter((r) => r.UniqueID === paidB.usd);
    expect(simulatedRate('USD', 'EUR')).toBe('0.9211');
    // 49.99 × 0.9211 = 46.045789 → 46.05; fee 1.5 % of 46.05 = 0.69075 → 0.69
    expect(
      usd.map((r) => [r.Amount, r.Currency, r.SettlementAmount, r.SettlementCurrency, r.SettlementFxRate]),
    ).toEqual([
      ['49.99', 'USD', '46.05', 'EUR', '0.92'],
      ['49.99', 'USD', '0.69', 'EUR', '0.92'],
    ]);
    expect(simulatedRate('EUR', 'USD')).toBe('1.085658');
    expect(simulatedRate('EUR', 'XXX')).toBeUndefined();
  });

  it('writes a missing file again from the stored records, identical', async () => {
    const file = accounts[0]!.file!;
    const bytes = await readFile(file);
    await rm(file);
    const [again] = await settleDay(deps(), DAY, { channelIds: [a.entityId] });
    expect(again).toMatchObject({ status: 'already-settled', file });
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
  });

  it('leaves a day without transactions without a file', async () => {
    clock.advance(86_400_000);
    const [quiet] = await settleDay(deps(), '2026-03-11', { channelIds: [a.entityId] });
    expect(quiet).toMatchObject({ status: 'settled', settlements: [] });
    expect(quiet!.file).toBeUndefined();
    expect(await gw.store.getSettlementRun(a.entityId, '2026-03-11')).toMatchObject({ recordCount: 0 });
  });

  it('removes the staging files a crashed run left when the next run starts, not younger ones', async () => {
    const staging = join(gw.dataDir, RECONCILIATION_FOLDER, '.tmp');
    await mkdir(staging, { recursive: true });
    const old = new Date(Date.now() - STALE_STAGING_MS - 60_000);
    const files = {
      crashedRecords: '0123456789abcdef.records',
      crashedFile: 'fedcba9876543210.tmp',
      running: '00112233445566aa.records',
      notOurs: 'notes.txt',
    };
    for (const name of Object.values(files)) await writeFile(join(staging, name), 'x');
    for (const name of [files.crashedRecords, files.crashedFile, files.notOurs])
      await utimes(join(staging, name), old, old);
    clock.advance(86_400_000);
    await settleDay(deps(), '2026-03-12', { channelIds: [a.entityId] });
    expect((await readdir(staging)).sort()).toEqual([files.running, files.notOurs].sort());
  });
});
