/**
 * queryRegistrations, the Query API's search among registrations (0021: merchant_transaction_id),
 * the same on SQLite and PostgreSQL: by merchantTransactionId or a time frame, within the channels
 * given, of the brands given, oldest first (created_at, id), at most `limit`, deregistered ones too.
 */
import { expect, it } from 'vitest';
import { newId } from '../../../shared/engine/core/ids';
import type { Registration } from '../../../shared/engine/core/model';
import { describeDialects, dialectStore } from '../../test-kit/store-dialects';

describeDialects('queryRegistrations on %s', (dialect) => {
  const store = dialectStore(dialect, 'gateway-registration-query-');
  const merchantId = 'a'.repeat(32);
  const [one, two] = ['b'.repeat(32), 'c'.repeat(32)];

  const registration = (o: Partial<Registration>): Registration => ({
    id: newId(),
    merchantId,
    channelId: one,
    paymentBrand: 'VISA',
    details: {},
    deletedAt: null,
    createdAt: new Date('2026-12-01T10:00:00Z'),
    ...o,
  });

  it('finds by merchantTransactionId or a time frame, in scope, oldest first', async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute));
    const first = registration({ merchantTransactionId: 'order-1', createdAt: at(1) });
    const later = registration({
      merchantTransactionId: 'order-1',
      createdAt: at(2),
      paymentBrand: 'DIRECTDEBIT_SEPA',
    });
    const elsewhere = registration({ merchantTransactionId: 'order-1', createdAt: at(3), channelId: two });
    const foreign = registration({ merchantTransactionId: 'order-1', merchantId: 'd'.repeat(32) });
    const without = registration({ createdAt: at(4) });
    for (const r of [later, first, elsewhere, foreign, without]) await store.insertRegistration(r);
    await store.deleteRegistration(merchantId, later.id, at(5));

    const ids = async (q: Partial<Parameters<typeof store.queryRegistrations>[0]>) =>
      (await store.queryRegistrations({ merchantId, limit: 100, ...q })).map((r) => r.id);
    expect(await ids({ merchantTransactionId: 'order-1' })).toEqual([first.id, later.id, elsewhere.id]);
    expect(await ids({ merchantTransactionId: 'order-1', channelIds: [one] })).toEqual([first.id, later.id]);
    expect(await ids({ merchantTransactionId: 'order-1', channelIds: [] })).toEqual([]);
    expect(await ids({ merchantTransactionId: 'order-1', paymentBrands: ['DIRECTDEBIT_SEPA'] })).toEqual([
      later.id,
    ]);
    expect(await ids({ merchantTransactionId: 'order-1', limit: 1 })).toEqual([first.id]);
    expect(await ids({ from: at(2), until: at(4) })).toEqual([later.id, elsewhere.id]);
    const [found] = await store.queryRegistrations({
      merchantId,
      merchantTransactionId: 'order-1',
      limit: 1,
    });
    expect(found?.merchantTransactionId).toBe('order-1');
    expect((await store.getRegistration(merchantId, without.id))?.merchantTransactionId).toBeUndefined();
  });
});
