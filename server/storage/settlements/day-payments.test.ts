import { expect, it } from 'vitest';
import type { Payment } from '../../../shared/engine/core/model';
import { randomHexId as hex, storedDebit } from '../../test-kit/fixtures/stored-payment';
import { describeDialects, dialectStore } from '../../test-kit/store-dialects';

const DAY = Date.parse('2026-03-04T00:00:00.000Z');

describeDialects("%s settlement store, a day's payments in pages", (dialect) => {
  const store = dialectStore(dialect, 'gateway-day-payments-');
  const merchantId = hex();
  const channelId = hex();
  const payment = (createdAt: number, overrides: Partial<Payment> = {}): Payment =>
    storedDebit({ merchantId, channelId, createdAt: new Date(createdAt) }, overrides);

  it('reads the day in (createdAt, id) order, page after page, ties across pages included', async () => {
    const day = [
      payment(DAY),
      ...Array.from({ length: 5 }, () => payment(DAY + 1_000)), // one millisecond, five payments
      payment(DAY + 2_000, { paymentType: 'RF' }),
      payment(DAY + 86_399_999),
    ];
    const others = [
      payment(DAY - 1),
      payment(DAY + 86_400_000),
      payment(DAY + 3_000, { paymentType: 'PA' }),
      payment(DAY + 3_000, { channelId: hex() }),
      payment(DAY + 3_000, { merchantId: hex() }),
    ];
    for (const p of [...others, ...day].reverse()) await store.insertPayment(p);

    const query = {
      merchantId,
      channelId,
      from: new Date(DAY),
      until: new Date(DAY + 86_400_000),
      paymentTypes: ['DB', 'RF'],
      limit: 2,
    };
    const pages: Payment[][] = [];
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = await store.dayPaymentsPage({ ...query, ...(after === undefined ? {} : { after }) });
      pages.push(page);
      if (page.length < query.limit) break;
      after = { createdAt: page.at(-1)!.createdAt, id: page.at(-1)!.id };
    }
    const order = (a: Payment, b: Payment) =>
      a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2, 0]);
    expect(pages.flat().map((p) => p.id)).toEqual([...day].sort(order).map((p) => p.id));
    expect(pages.flat()[0]).toEqual(await store.getPayment(merchantId, pages.flat()[0]!.id));
    expect(await store.dayPaymentsPage({ ...query, paymentTypes: [] })).toEqual([]);
  });
});
