import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { asMinor, type Minor } from '../../../shared/money';
import { settle } from '../../../shared/settlement';
import { eurConfig, merchantDay } from '../../test-kit/fixtures/settlement-day';
import { allRecords, saveRun } from '../../test-kit/settlement/saved-run';
import { describeDialects, dialectStore } from '../../test-kit/store-dialects';
import type { Settlement, SettlementRun, StoredSettlementRecord } from './store';

const hex = (): string => randomBytes(16).toString('hex');

function settlementOf(merchantId: string, channelId: string, date: string, currency: string): Settlement {
  return {
    id: hex(),
    merchantId,
    channelId,
    date,
    currency,
    status: 'SUCCESS',
    recordCount: 19,
    counts: { settled: 7, chargebacks: 1, chargebackReversals: 1, fees: 10 },
    totals: { positive: asMinor(123456789012), negative: asMinor(5), fees: asMinor(3) as Minor },
    createdAt: new Date('2026-03-03T02:00:00.123Z'),
  };
}

describeDialects('%s settlement store', (dialect) => {
  const store = dialectStore(dialect, 'gateway-settlements-');

  const merchantId = hex();
  const channelId = hex();
  const records: StoredSettlementRecord[] = settle(merchantDay, eurConfig).map((record, i) =>
    i === 0 ? { record, merchantTransactionId: 'order-0001' } : { record },
  );
  const run: SettlementRun = {
    channelId,
    date: '2026-03-02',
    merchantId,
    settlementCount: 2,
    recordCount: records.length + 1,
    fileName: 'reconciliation_x_20260302.csv',
    createdAt: new Date('2026-03-03T02:00:00.123Z'),
  };
  const eur = settlementOf(merchantId, channelId, '2026-03-02', 'EUR');
  const usd = { ...settlementOf(merchantId, channelId, '2026-03-02', 'USD'), recordCount: 1 };

  it('writes a run with its settlements and records once', async () => {
    expect(await store.getSettlementRun(channelId, '2026-03-02')).toBeUndefined();
    const saved = await saveRun(store, run, [
      { settlement: eur, records },
      { settlement: usd, records: records.slice(0, 1) },
    ]);
    expect(saved).toBe(true);
    expect(await store.getSettlementRun(channelId, '2026-03-02')).toEqual(run);
    // A second run of the day writes nothing, not even its other settlements.
    const other = settlementOf(merchantId, channelId, '2026-03-02', 'GBP');
    expect(await saveRun(store, { ...run, recordCount: 0 }, [{ settlement: other, records: [] }])).toBe(
      false,
    );
    expect(await store.getSettlement(merchantId, other.id)).toBeUndefined();
    expect(await store.getSettlementRun(channelId, '2026-03-02')).toEqual(run);
  });

  it('reads settlements back exactly, by day, range, currency and id', async () => {
    expect(await store.listDaySettlements(channelId, '2026-03-02')).toEqual([eur, usd]);
    expect(await store.getSettlement(merchantId, eur.id)).toEqual(eur);
    expect(await store.getSettlement(hex(), eur.id)).toBeUndefined();
    const q = { merchantId, from: '2026-03-01', to: '2026-03-02' };
    expect(await store.listSettlements(q)).toEqual([eur, usd]);
    expect(await store.listSettlements({ ...q, currency: 'USD' })).toEqual([usd]);
    expect(await store.listSettlements({ ...q, channelIds: [] })).toEqual([]);
    expect(await store.listSettlements({ ...q, channelIds: [hex()] })).toEqual([]);
    expect(await store.listSettlements({ ...q, from: '2026-03-03', to: '2026-03-31' })).toEqual([]);
    expect(await store.listSettlements({ ...q, to: '2026-03-01' })).toEqual([]);
  });

  it('reads records a page at a time in SettlementTxDate order, ASC and the exact reverse', async () => {
    // 2,500 records over three pages: request times with ties, some without one (they come first)
    const many: StoredSettlementRecord[] = Array.from({ length: 2500 }, (_, i) => {
      const { record } = records[i % records.length]!;
      const requestTime =
        i % 7 === 0 ? undefined : new Date(Date.UTC(2026, 2, 2) + ((i * 7919) % 300) * 1000);
      const { requestTime: _drop, ...payment } = record.payment;
      return { record: { ...record, payment: { ...payment, ...(requestTime ? { requestTime } : {}) } } };
    });
    const big = settlementOf(merchantId, channelId, '2026-03-05', 'EUR');
    await saveRun(store, { ...run, date: '2026-03-05', recordCount: many.length }, [
      { settlement: big, records: many },
    ]);
    const stored = many;
    const time = (r: StoredSettlementRecord) => r.record.payment.requestTime?.getTime() ?? 0;
    const asc = stored.map((r, seq) => ({ r, seq })).sort((a, b) => time(a.r) - time(b.r) || a.seq - b.seq);
    const read = async (order: 'ASC' | 'DESC') => {
      const pages: StoredSettlementRecord[][] = [];
      for await (const page of store.settlementRecordPagesByTime(big.id, order)) pages.push(page);
      return pages;
    };
    const ascPages = await read('ASC');
    // the records without a request time, then the others: each range read in pages of at most 1,000
    expect(ascPages.map((p) => p.length)).toEqual([358, 1000, 1000, 142]);
    expect(ascPages.flat()).toEqual(asc.map((x) => x.r));
    expect((await read('DESC')).flat()).toEqual(asc.map((x) => x.r).reverse());
    for await (const _ of store.settlementRecordPagesByTime(hex(), 'ASC')) expect.unreachable();
  });

  it('reads records back exactly, in their order', async () => {
    expect(await allRecords(store, eur.id)).toEqual(records);
    expect(await allRecords(store, usd.id)).toEqual(records.slice(0, 1));
    expect(await allRecords(store, hex())).toEqual([]);
  });

  it('lets one of two concurrent runs of a day win', async () => {
    const channel = hex();
    const attempt = () =>
      saveRun(store, { ...run, channelId: channel }, [
        { settlement: { ...eur, id: hex(), channelId: channel }, records },
      ]);
    const outcomes = await Promise.all([attempt(), attempt(), attempt()]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await store.listDaySettlements(channel, '2026-03-02')).toHaveLength(1);
  });
});
