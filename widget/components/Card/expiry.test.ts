import { describe, expect, it } from 'vitest';
import { checkExpiry, formatExpiry, parseExpiry } from './expiry';

describe('expiry field', () => {
  it('formats as the shopper types and as autofill gives it', () => {
    expect(formatExpiry('0')).toBe('0');
    expect(formatExpiry('5')).toBe('05');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12 / 3');
    expect(formatExpiry('05/34')).toBe('05 / 34');
    expect(formatExpiry('05/2034')).toBe('05 / 34');
    expect(formatExpiry('05 / 345')).toBe('05 / 34');
    expect(formatExpiry('ab')).toBe('');
  });

  it('sends month and four-digit year', () => {
    expect(parseExpiry('05 / 34')).toEqual({ month: '05', year: '2034' });
    expect(parseExpiry('05 / 3')).toBeUndefined();
  });

  it('rejects bad months, and expired cards unless told not to', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(checkExpiry('13 / 30', now, true)).toBe('format');
    expect(checkExpiry('10 / 26', now, true)).toBe('expired');
    expect(checkExpiry('10 / 26', now, false)).toBeUndefined();
    expect(checkExpiry('11 / 26', now, true)).toBeUndefined();
  });
});
