import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../server/test-kit/engine/memory-store';
import { simulatedProcessors } from '../../../server/test-kit/engine/processors';
import { parsed } from '../../../server/test-kit/engine/requests';
import { testChannel } from '../../../server/test-kit/fixtures/channels';
import { createPayment, type EngineDeps } from './initial-payment';
import { referencePayment } from './referencing';

const channel = testChannel;
const caller = { merchantId: channel.merchantId, channel };
let tick = 0;
const deps: EngineDeps = {
  store: memoryStore(),
  clock: { now: () => new Date(Date.UTC(2026, 10, 21, 12, 0, tick++)) },
  processors: simulatedProcessors,
  seal: () => 'sealed',
};

const ref = async (id: string, body: string) => {
  const outcome = await referencePayment(deps, caller, id, parsed('referencing', body));
  if (outcome.kind !== 'payment') throw new Error(outcome.kind);
  return outcome.payment;
};

describe('referencePayment', () => {
  it('runs PA, two partial captures, a refund, and refuses what the workflow forbids', async () => {
    const pa = await createPayment(
      deps,
      caller,
      parsed(
        'payment',
        'amount=100.00&currency=EUR&paymentBrand=VISA&paymentType=PA&card.number=4200000000000000&card.expiryMonth=05&card.expiryYear=2034',
      ),
    );
    if (pa.kind !== 'payment') throw new Error('no PA');
    const cp1 = await ref(pa.payment.id, 'paymentType=CP&amount=60.00&currency=EUR');
    const cp2 = await ref(pa.payment.id, 'paymentType=CP&amount=40.00&currency=EUR');
    const cp3 = await ref(pa.payment.id, 'paymentType=CP&amount=0.01&currency=EUR');
    expect([cp1.resultCode, cp2.resultCode, cp3.resultCode]).toEqual([
      '000.100.110',
      '000.100.110',
      '700.400.100',
    ]);
    expect(cp1.referencedId).toBe(pa.payment.id);
    expect(cp1.card?.last4Digits).toBe('0000');

    const rf = await ref(cp1.id, 'paymentType=RF&amount=60.00&currency=EUR');
    const rf2 = await ref(cp1.id, 'paymentType=RF&amount=0.01&currency=EUR');
    expect([rf.resultCode, rf2.resultCode]).toEqual(['000.100.110', '700.400.200']);
    const rv = await ref(pa.payment.id, 'paymentType=RV');
    expect(rv.resultCode).toBe('700.400.300');
  });

  it('answers an unknown or foreign id with the code of the family for the type', async () => {
    const outcome = await referencePayment(
      deps,
      caller,
      'f'.repeat(32),
      parsed('referencing', 'paymentType=RV'),
    );
    expect(outcome).toEqual({ kind: 'unknown', code: '700.400.530' });
  });
});
