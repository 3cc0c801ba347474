import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhnCheckDigit, luhnValid } from './luhn';

/** Independent reference implementation, written differently on purpose. */
function referenceLuhn(digits: string): boolean {
  const sum = [...digits]
    .reverse()
    .map(Number)
    .map((d, i) => (i % 2 === 1 ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][d]! : d))
    .reduce((a, b) => a + b, 0);
  return digits.length > 0 && sum % 10 === 0;
}

describe('luhnValid', () => {
  it.each([
    ['4200000000000000'],
    ['377777777777770'],
    ['5232105022907162'],
    ['5200000000000007'],
    ['4012001037461114'],
    ['4111111111111111'],
    ['79927398713'],
    ['0'],
    ['00000000'],
  ])('accepts %s', (digits) => {
    expect(luhnValid(digits)).toBe(true);
  });

  it.each([
    ['4444444444444444'],
    ['4200000000000001'],
    ['377777777777771'],
    ['79927398710'],
    ['1'],
    [''],
    ['4200 0000 0000 0000'],
    ['420000000000000a'],
    ['-4200000000000000'],
  ])('rejects %j', (digits) => {
    expect(luhnValid(digits)).toBe(false);
  });
});

describe('luhnCheckDigit', () => {
  it.each([
    ['420000000000000', '0'],
    ['7992739871', '3'],
    ['', '0'],
  ])('%j -> %s', (payload, digit) => {
    expect(luhnCheckDigit(payload)).toBe(digit);
  });

  it('rejects non-digits', () => {
    expect(luhnCheckDigit('12a')).toBeUndefined();
  });
});

describe('Luhn properties', () => {
  const digitString = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 40 });

  it('agrees with the reference implementation', () => {
    fc.assert(fc.property(digitString, (s) => luhnValid(s) === referenceLuhn(s)));
  });

  it('validates any digit string with its check digit appended', () => {
    fc.assert(
      fc.property(digitString, (payload) => {
        const check = luhnCheckDigit(payload)!;
        // The check digit is the only one that works, per the reference.
        const valid = [...'0123456789'].filter((d) => referenceLuhn(payload + d));
        return valid.length === 1 && valid[0] === check && luhnValid(payload + check);
      }),
    );
  });

  it('fails when any single digit is altered', () => {
    fc.assert(
      fc.property(digitString, fc.nat(), fc.integer({ min: 1, max: 9 }), (payload, at, delta) => {
        const valid = payload + luhnCheckDigit(payload)!;
        const i = at % valid.length;
        const altered = valid.slice(0, i) + String((Number(valid[i]) + delta) % 10) + valid.slice(i + 1);
        return !luhnValid(altered);
      }),
    );
  });
});
