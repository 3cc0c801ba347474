/**
 * A registration re-tagged to another route (the operator's move, server/backoffice/registrations/move.ts):
 * a compare-and-set on its connector id, its sealed account data kept sealed, never a deleted one.
 */
import { expect, it } from 'vitest';
import { newId } from '../../../shared/engine/core/ids';
import type { Registration } from '../../../shared/engine/core/model';
import { describeDialects, dialectStore } from '../../test-kit/store-dialects';

describeDialects('retagRegistration on %s', (dialect) => {
  const store = dialectStore(dialect, 'gateway-retag-');

  const registration = (details: Record<string, unknown>): Registration => ({
    id: newId(),
    merchantId: 'a'.repeat(32),
    channelId: 'b'.repeat(32),
    paymentBrand: 'VISA',
    details,
    deletedAt: null,
    createdAt: new Date('2026-12-01T10:00:00Z'),
  });

  it('moves it only while it is still where the move saw it', async () => {
    const r = registration({
      connectorRegistrationId: 'adyen@0~777:PSP:shopper',
      customer: { email: 'a@b.c' },
    });
    await store.insertRegistration(r);
    expect(await store.retagRegistration(r.merchantId, r.id, 'stripe@1~777:', 'opp@2~777:')).toBe(false);
    expect(
      await store.retagRegistration(r.merchantId, r.id, 'adyen@0~777:PSP:shopper', 'stripe@1~777:'),
    ).toBe(true);
    const moved = await store.getRegistration(r.merchantId, r.id);
    expect(moved?.details).toEqual({
      connectorRegistrationId: 'stripe@1~777:',
      customer: { email: 'a@b.c' },
    });
    // another merchant's, or a deleted one: nothing changes
    expect(await store.retagRegistration('c'.repeat(32), r.id, 'stripe@1~777:', 'opp@2~777:')).toBe(false);
    await store.deleteRegistration(r.merchantId, r.id, new Date('2026-12-01T11:00:00Z'));
    expect(await store.retagRegistration(r.merchantId, r.id, 'stripe@1~777:', 'opp@2~777:')).toBe(false);
  });
});
