import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, checkTotp, hotp, newTotpSecret, totpCode } from './totp';

describe('TOTP (RFC 6238, SHA-1, 6 digits)', () => {
  // RFC 6238 appendix B: the 8-digit values' last six digits
  const key = Buffer.from('12345678901234567890');
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('at %i s gives %s', (seconds, code) => {
    expect(hotp(key, Math.floor(seconds / 30))).toBe(code);
    expect(totpCode(base32Encode(key), new Date(seconds * 1000))).toBe(code);
  });

  it('round-trips base32 and accepts the neighbouring steps once', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
    const at = new Date('2026-11-24T10:00:15Z');
    const previous = totpCode(secret, new Date(at.getTime() - 30_000));
    const step = checkTotp(secret, previous, at);
    expect(step).toBeDefined();
    expect(checkTotp(secret, previous, at, step)).toBeUndefined();
    expect(checkTotp(secret, totpCode(secret, new Date(at.getTime() - 90_000)), at)).toBeUndefined();
    expect(checkTotp(secret, 'abcdef', at)).toBeUndefined();
  });
});
