import { describe, expect, it } from 'vitest';
import { isKnownCode, isSuccess } from '../../../shared/result-codes';
import { DECLINED_UNKNOWN, declineCodeOf, STRIPE_DECLINES } from './declines';

describe('Stripe’s decline codes onto the family’s', () => {
  it('maps every listed code onto a code of the catalogue, never a success', () => {
    for (const [theirs, ours] of Object.entries(STRIPE_DECLINES)) {
      expect(isKnownCode(ours), theirs).toBe(true);
      expect(isSuccess(ours), theirs).toBe(false);
    }
  });

  it('prefers the decline code to the error code, and an unknown one is a decline for an unknown reason', () => {
    expect(declineCodeOf('insufficient_funds', 'card_declined')).toBe('800.100.155');
    expect(declineCodeOf(undefined, 'incorrect_cvc')).toBe('800.100.153');
    expect(declineCodeOf('something_new', 'card_declined')).toBe('800.100.100');
    expect(declineCodeOf(undefined, undefined)).toBe(DECLINED_UNKNOWN);
  });
});
