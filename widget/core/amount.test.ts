import { describe, expect, it } from 'vitest';
import { charges, shownMoney } from './amount';

describe('the amount shown', () => {
  it('is the checkout’s once there is one, wpwlOptions.checkout before', () => {
    const settings = { checkoutAmount: '10.00', checkoutCurrency: 'USD' };
    expect(shownMoney(settings, { amount: '92.00', currency: 'EUR' })).toEqual({
      amount: '92.00',
      currency: 'EUR',
    });
    expect(shownMoney(settings, undefined)).toEqual({ amount: '10.00', currency: 'USD' });
  });

  it.each([
    [{ amount: '92.00', currency: 'EUR' }, { amount: '92.00', currency: 'EUR' }, true],
    [{ amount: '92', currency: 'eur' }, { amount: '92.00', currency: 'EUR' }, true],
    [{ amount: '092.50', currency: undefined }, { amount: '92.5', currency: 'EUR' }, true],
    [{ amount: undefined, currency: 'EUR' }, { amount: '1.00', currency: 'USD' }, true],
    [{ amount: '92.00', currency: 'EUR' }, { amount: '92.01', currency: 'EUR' }, false],
    [{ amount: '92.00', currency: 'EUR' }, { amount: '92.00', currency: 'GBP' }, false],
    [{ amount: '92.00', currency: 'EUR' }, { amount: undefined, currency: 'EUR' }, false],
    [{ amount: 'abc', currency: 'EUR' }, { amount: '92.00', currency: 'EUR' }, false],
  ])('%j charged as %j: %s', (shown, checkout, expected) => {
    expect(charges(shown, checkout)).toBe(expected);
  });
});
