/** The checkout pipeline on the in-memory store: merging, the checkout's life, what it stores. */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../server/test-kit/engine/memory-store';
import { simulatedProcessors } from '../../../server/test-kit/engine/processors';
import { parsed } from '../../../server/test-kit/engine/requests';
import { testChannel } from '../../../server/test-kit/fixtures/channels';
import {
  CHECKOUT_VALIDITY_MS,
  checkoutStatus,
  createCheckout,
  mergeTrees,
  NOTIFY_AFTER_MS,
  stateOf,
  submitCheckout,
} from './checkout';

const channel = testChannel;
const caller = { merchantId: channel.merchantId, channel };
const CARD = 'card.number=4200000000000000&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123';

function setup() {
  let now = Date.UTC(2026, 10, 21, 12, 0, 0);
  const deps = {
    store: memoryStore(),
    clock: { now: () => new Date(now) },
    processors: simulatedProcessors,
    seal: (plain: string) => `sealed:${plain.length}`,
    nodeName: 'unit',
  };
  return { deps, advance: (ms: number) => (now += ms) };
}

describe('mergeTrees', () => {
  it('lays the submission over the checkout group by group, the submission winning on a leaf', () => {
    expect(
      mergeTrees(
        { amount: '1.00', customer: { givenName: 'Jane', email: 'a@b.cd' }, customParameters: { a: '1' } },
        {
          customer: { email: 'jane@shop.example' },
          customParameters: { SHOPPER_b: '2' },
          card: { cvv: '1' },
        },
      ),
    ).toEqual({
      amount: '1.00',
      customer: { givenName: 'Jane', email: 'jane@shop.example' },
      customParameters: { a: '1', SHOPPER_b: '2' },
      card: { cvv: '1' },
    });
  });
});

describe('the checkout pipeline', () => {
  it('keeps no credentials, pays once, and records the submission for the notification', async () => {
    const { deps, advance } = setup();
    const created = await createCheckout(
      deps,
      caller,
      parsed(
        'checkout',
        `entityId=${channel.id}&authentication.userId=u&authentication.password=secret-pw&amount=92.00&currency=EUR&paymentType=DB`,
      ),
    );
    if (created.kind !== 'checkout') throw new Error(created.kind);
    const { checkout } = created;
    expect(checkout.id).toMatch(/^[0-9A-F]{32}\.unit$/);
    expect(JSON.stringify(checkout.parameters)).not.toContain('secret-pw');
    expect(checkout.parameters).not.toHaveProperty('entityId');
    expect(checkout.expiresAt.getTime() - checkout.createdAt.getTime()).toBe(CHECKOUT_VALIDITY_MS);
    expect(stateOf(checkout, deps.clock.now())).toBe('open');
    expect(await checkoutStatus(deps, checkout)).toEqual({ kind: 'open' });

    advance(60_000);
    const paid = await submitCheckout(deps, caller, checkout.id, 'payment', parsed('checkoutPayment', CARD));
    if (paid.kind !== 'payment') throw new Error(paid.kind);
    expect(paid.payment.resultCode).toBe('000.100.110');
    expect(paid.payment.card?.encryptedNumber).toBe('sealed:16');
    const stored = await deps.store.getCheckout(checkout.id);
    expect(stored).toMatchObject({ paymentId: paid.payment.id, resultCode: '000.100.110' });
    expect(stored?.notifyDueAt?.getTime()).toBe(deps.clock.now().getTime() + NOTIFY_AFTER_MS);
    expect(stateOf(stored!, deps.clock.now())).toBe('completed');

    const again = await submitCheckout(deps, caller, checkout.id, 'payment', parsed('checkoutPayment', CARD));
    expect(again).toMatchObject({ kind: 'refused', code: '100.350.101' });
    // Another merchant's caller does not find it.
    const foreign = { merchantId: 'f'.repeat(32), channel };
    expect(
      await submitCheckout(deps, foreign, checkout.id, 'payment', parsed('checkoutPayment', CARD)),
    ).toEqual({
      kind: 'not-found',
    });
  });
});
