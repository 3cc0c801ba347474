/**
 * The engine's guard with a channel's settings (checkPaymentMethod): unknown brand (600.200.100)
 * → a brand the channel does not accept (600.200.201) → a currency it does not accept
 * (600.200.500) → missing account data (400). Channels without brands or currencies accept all.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelSettings } from '../core/model';
import { channelRefusal, checkPaymentMethod } from './payment-method';

const channel = (settings: ChannelSettings) => ({ settings });
const restricted = channel({ brands: ['VISA', 'MASTER', 'MADA'], currencies: ['EUR', 'SAR'] });
const card = { card: { number: '4200000000000000' } };

describe('checkPaymentMethod with a channel', () => {
  it('checks in order: unknown, not accepted, currency, account data', () => {
    expect(checkPaymentMethod('NOPE_PAY', { currency: 'USD' }, false, restricted)).toEqual({
      kind: 'refused',
      code: '600.200.100',
    });
    // not accepted comes before the missing card and before the currency
    expect(checkPaymentMethod('AMEX', { currency: 'USD' }, false, restricted)).toEqual({
      kind: 'refused',
      code: '600.200.201',
    });
    expect(checkPaymentMethod('VISA', { currency: 'USD' }, false, restricted)).toEqual({
      kind: 'refused',
      code: '600.200.500',
    });
    expect(checkPaymentMethod('VISA', { currency: 'EUR' }, false, restricted).kind).toBe('invalid');
    expect(checkPaymentMethod('VISA', { currency: 'EUR', ...card }, false, restricted)).toEqual({
      kind: 'ok',
    });
    // stored account data (a registration): only brand and currency
    expect(checkPaymentMethod('MADA', { currency: 'SAR' }, true, restricted)).toEqual({ kind: 'ok' });
  });

  it('accepts every brand and currency when the channel names none, as before', () => {
    expect(checkPaymentMethod('AMEX', { currency: 'USD', ...card }, false, channel({}))).toEqual({
      kind: 'ok',
    });
    expect(checkPaymentMethod('AMEX', { currency: 'USD', ...card })).toEqual({ kind: 'ok' });
    expect(channelRefusal({ brands: ['VISA'] }, 'VISA', 'JPY')).toBeUndefined();
    expect(channelRefusal({ currencies: ['EUR'] }, 'AMEX', undefined)).toBeUndefined();
  });
});
