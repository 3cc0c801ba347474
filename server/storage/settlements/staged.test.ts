import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { asMinor } from '../../../shared/money';
import { settle } from '../../../shared/settlement';
import { eurConfig, merchantDay } from '../../test-kit/fixtures/settlement-day';
import { allRecords } from '../../test-kit/settlement/saved-run';
import { describeDialects, dialectStore } from '../../test-kit/store-dialects';
import { StagedRecords } from './staged';
import { recordRow, type Settlement, type SettlementRun, type StoredSettlementRecord } from './store';

const hex = (): string => randomBytes(16).toString('hex');

describeDialects('%s settlement store, a staged day', (dialect) => {
  const store = dialectStore(dialect, 'gateway-staged-settlements-');
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const merchantId = hex();
  const channelId = hex();
  const day = settle(merchantDay, eurConfig);
  // More records than a page (1,000), so that copying and reading cross pages; references on some.
  const records: StoredSettlementRecord[] = Array.from({ length: 2_345 }, (_, i) => ({
    record: day[i % day.length]!,
    ...(i % 3 === 0 ? { merchantTransactionId: `order-${i}\t"x"` } : {}),
    ...(i % 5 === 0 ? { merchantInvoiceId: `inv-${i}\nnext` } : {}),
  }));
  const settlement = (currency: string, recordCount: number): Settlement => ({
    id: hex(),
    merchantId,
    channelId,
    date: '2026-03-02',
    currency,
    status: 'SUCCESS',
    recordCount,
    counts: { settled: 1, chargebacks: 0, chargebackReversals: 0, fees: 1 },
    totals: { positive: asMinor(100), negative: asMinor(2), fees: asMinor(2) },
    createdAt: new Date('2026-03-03T02:00:00.123Z'),
  });
  const run: SettlementRun = {
    channelId,
    date: '2026-03-02',
    merchantId,
    settlementCount: 2,
    recordCount: records.length + 2,
    fileName: 'reconciliation_x_20260302.csv',
    createdAt: new Date('2026-03-03T02:00:00.123Z'),
  };

  async function staging(): Promise<{ staged: StagedRecords; dir: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-staged-'));
    dirs.push(dir);
    return { staged: await StagedRecords.open(join(dir, 'tmp')), dir: join(dir, 'tmp') };
  }

  it('copies staged records into the run, a page at a time, and reads them back in their order', async () => {
    const eur = settlement('EUR', records.length);
    const usd = settlement('USD', 2);
    const { staged, dir } = await staging();
    // interleaved, as a day of two currencies comes: the seq, not the order of staging, orders them
    await staged.add(recordRow(usd.id, 1, records[1]!));
    for (const [seq, stored] of records.entries()) {
      await staged.add(recordRow(eur.id, seq, stored));
      if (seq === 7) await staged.add(recordRow(usd.id, 0, records[0]!));
    }
    expect(staged.count).toBe(records.length + 2);
    expect((await stat(join(dir, (await readdir(dir))[0]!))).mode & 0o777).toBe(0o600);
    expect(await store.saveStagedSettlementRun(run, [eur, usd], staged)).toBe(true);
    await staged.discard();
    expect(await readdir(dir)).toEqual([]);

    expect(await store.getSettlementRun(channelId, '2026-03-02')).toEqual(run);
    expect(await store.listDaySettlements(channelId, '2026-03-02')).toEqual([eur, usd]);
    expect(await allRecords(store, eur.id)).toEqual(records);
    const pages: StoredSettlementRecord[][] = [];
    for await (const page of store.settlementRecordPages(eur.id)) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, 345]);
    expect(pages.flat()).toEqual(records);
    expect(await allRecords(store, usd.id)).toEqual(records.slice(0, 2));
  });

  it('writes nothing of a staged day whose run another process wrote first', async () => {
    const other = settlement('GBP', 1);
    const { staged } = await staging();
    await staged.add(recordRow(other.id, 0, records[0]!));
    expect(await store.saveStagedSettlementRun({ ...run, recordCount: 1 }, [other], staged)).toBe(false);
    await staged.discard();
    expect(await store.getSettlement(merchantId, other.id)).toBeUndefined();
    expect(await allRecords(store, other.id)).toEqual([]);
    expect(await store.getSettlementRun(channelId, '2026-03-02')).toEqual(run);
  });
});
