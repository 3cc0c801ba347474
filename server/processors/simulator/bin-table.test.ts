import { describe, expect, it } from 'vitest';
import { binInfo } from './bin-table';

describe('simulated BIN table', () => {
  it('knows the standard test card', () => {
    expect(binInfo('420000')).toEqual({
      type: 'CREDIT',
      level: 'CLASSIC',
      issuer: {
        bank: 'Simulator Bank',
        phone: '+1 555 0100',
        website: 'https://simulator-bank.example',
      },
      country: 'DE',
      regulated: false,
    });
  });

  it('has a debit card among its rows', () => {
    expect(binInfo('523210')?.type).toBe('DEBIT');
  });

  it('answers nothing for a BIN it does not list, nor for inherited names', () => {
    expect(binInfo('411111')).toBeUndefined();
    expect(binInfo('constructor')).toBeUndefined();
  });
});
