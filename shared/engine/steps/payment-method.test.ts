/**
 * The engine's own guard (payment-method.ts), with the parameter model out of the way: requests
 * built directly, as a caller that skipped validation would, and a registration stored before
 * brands were checked.
 */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../server/test-kit/engine/memory-store';
import { simulatedProcessors } from '../../../server/test-kit/engine/processors';
import { testChannel as channel } from '../../../server/test-kit/fixtures/channels';
import type { RequestOf } from '../../params/requests';
import { createPayment, type EngineDeps } from '../operations/initial-payment';
import { createRegistration, payWithRegistration } from '../operations/registrations';
import { checkPaymentMethod } from './payment-method';

const NOW = new Date('2026-11-21T12:00:00Z');
const caller = { merchantId: channel.merchantId, channel };
const deps = (): EngineDeps => ({
  store: memoryStore(),
  clock: { now: () => NOW },
  processors: simulatedProcessors,
  seal: (pan) => `sealed(${pan.length})`,
});
const PAY = { paymentType: 'DB', amount: '10.00', currency: 'EUR' } as const;
const CARD = { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' } as const;

describe('checkPaymentMethod', () => {
  it.each([undefined, 'FOOBAR', 'visa', 'toString', ''])('refuses the brand %j with 600.200.100', (brand) => {
    expect(checkPaymentMethod(brand, { card: CARD })).toEqual({ kind: 'refused', code: '600.200.100' });
  });

  it('names what a known brand lacks, unless the data is stored elsewhere', () => {
    const check = checkPaymentMethod('MADA', {});
    expect(check.kind).toBe('invalid');
    if (check.kind === 'invalid')
      expect(check.errors.map((e) => e.name)).toEqual(['card.number', 'card.expiryMonth', 'card.expiryYear']);
    expect(checkPaymentMethod('MADA', {}, true)).toEqual({ kind: 'ok' });
    expect(checkPaymentMethod('MADA', { card: CARD })).toEqual({ kind: 'ok' });
  });

  it('lets the brands whose method needs no account data through', () => {
    for (const brand of [
      'PAYPAL',
      'SOFORTUEBERWEISUNG',
      'KLARNA_PAYMENTS_PAYLATER',
      'WALLETD_CONTINUE',
      'PREPAYMENT',
    ])
      expect(checkPaymentMethod(brand, {})).toEqual({ kind: 'ok' });
  });
});

describe('the engine decides nothing without account data, validation or not', () => {
  it('createPayment records an unknown brand as refused (600.200.100), never as a success', async () => {
    const d = deps();
    const outcome = await createPayment(d, caller, {
      ...PAY,
      paymentBrand: 'FOOBAR',
    } as RequestOf<'payment'>);
    expect(outcome.kind).toBe('payment');
    if (outcome.kind !== 'payment') return;
    expect(outcome.payment.resultCode).toBe('600.200.100');
    expect(await d.store.getPayment(channel.merchantId, outcome.payment.id)).toEqual(outcome.payment);
  });

  it('createPayment answers a card brand without its card as invalid, recording nothing', async () => {
    const outcome = await createPayment(deps(), caller, {
      ...PAY,
      paymentBrand: 'VISA',
    } as RequestOf<'payment'>);
    expect(outcome.kind).toBe('invalid');
  });

  it('createRegistration refuses an unknown brand and a known one without data', async () => {
    const d = deps();
    const unknown = await createRegistration(d, caller, {
      paymentBrand: 'FOOBAR',
    } as RequestOf<'registration'>);
    expect(unknown).toEqual({ kind: 'refused', code: '600.200.100' });
    const bare = await createRegistration(d, caller, { paymentBrand: 'VISA' } as RequestOf<'registration'>);
    expect(bare.kind).toBe('invalid');
  });

  it('payWithRegistration refuses a stored registration whose brand the gateway does not know', async () => {
    const d = deps();
    const id = 'a'.repeat(32);
    await d.store.insertRegistration({
      id,
      merchantId: channel.merchantId,
      channelId: channel.id,
      paymentBrand: 'FOOBAR',
      details: {},
      deletedAt: null,
      createdAt: NOW,
    });
    const outcome = await payWithRegistration(d, caller, id, { ...PAY } as RequestOf<'registrationPayment'>);
    expect(outcome).toEqual({ kind: 'refused', code: '600.200.100' });
  });
});
