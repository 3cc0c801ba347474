import { describe, expect, it } from 'vitest';
import type { CardBrand } from './card-brands';
import {
  binOf,
  type CardNumberCheck,
  cvvLengthOf,
  last4Of,
  maskPan,
  validateCardNumber,
  validateCvv,
  validateExpiry,
} from './card-checks';

describe('validateCardNumber', () => {
  it.each<[string, CardBrand | undefined, CardNumberCheck]>([
    // Documented test data.
    ['4200000000000000', undefined, { ok: true, brand: 'VISA' }],
    ['4200000000000000', 'VISA', { ok: true, brand: 'VISA' }],
    ['4444444444444444', 'VISA', { ok: false, reason: 'luhn' }],
    ['4444444444444444', undefined, { ok: false, reason: 'luhn' }],
    ['377777777777770', 'AMEX', { ok: true, brand: 'AMEX' }],
    ['377777777777770', undefined, { ok: true, brand: 'AMEX' }],
    ['5232105022907162', 'MASTER', { ok: true, brand: 'MASTER' }],
    ['5200000000000007', undefined, { ok: true, brand: 'MASTER' }],
    ['4012001037461114', 'VISA', { ok: true, brand: 'VISA' }],
    // Format: N 8-32, digits only.
    ['', undefined, { ok: false, reason: 'format' }],
    ['4200000', undefined, { ok: false, reason: 'format' }],
    ['4200 0000 0000 0000', 'VISA', { ok: false, reason: 'format' }],
    ['4200-0000-0000-0000', undefined, { ok: false, reason: 'format' }],
    ['42000000000000000000000000000000X', undefined, { ok: false, reason: 'format' }],
    ['4'.repeat(33), undefined, { ok: false, reason: 'format' }],
    // Brand mismatch.
    ['4200000000000000', 'MASTER', { ok: false, reason: 'brand' }],
    ['5200000000000007', 'VISA', { ok: false, reason: 'brand' }],
    ['377777777777770', 'DINERS', { ok: false, reason: 'brand' }],
    ['1234567890123452', undefined, { ok: false, reason: 'brand' }],
    // Length.
    ['42000000', 'VISA', { ok: false, reason: 'length' }],
    ['42000000000000', 'VISA', { ok: false, reason: 'length' }],
    ['4222222222222', 'VISA', { ok: true, brand: 'VISA' }],
    ['4000000000000000006', 'VISA', { ok: true, brand: 'VISA' }],
    ['5555555555554444', undefined, { ok: true, brand: 'MASTER' }],
    ['55555555555544440', 'MASTER', { ok: false, reason: 'length' }],
    ['3777777777777', 'AMEX', { ok: false, reason: 'length' }],
    ['4'.repeat(32), undefined, { ok: false, reason: 'length' }],
    ['36000000000008', 'DINERS', { ok: true, brand: 'DINERS' }],
    ['6011000000000004', undefined, { ok: true, brand: 'DISCOVER' }],
    ['3528000000000007', 'JCB', { ok: true, brand: 'JCB' }],
    ['2221000000000009', 'MASTER', { ok: true, brand: 'MASTER' }],
    // MAESTRO 12-19; a 13-digit 65.. number is too short for DISCOVER, so it falls back to MAESTRO.
    ['500000000009', 'MAESTRO', { ok: true, brand: 'MAESTRO' }],
    ['6500000000003', undefined, { ok: true, brand: 'MAESTRO' }],
    ['6500000000003', 'DISCOVER', { ok: false, reason: 'length' }],
    ['6759649826438453', undefined, { ok: true, brand: 'MAESTRO' }],
    // UNIONPAY numbers have no Luhn check digit.
    ['6200000000000001', 'UNIONPAY', { ok: true, brand: 'UNIONPAY' }],
    ['6200000000000001', undefined, { ok: true, brand: 'UNIONPAY' }],
    ['620000000000000', 'UNIONPAY', { ok: false, reason: 'length' }],
    // Luhn failures.
    ['4200000000000001', undefined, { ok: false, reason: 'luhn' }],
    ['377777777777771', 'AMEX', { ok: false, reason: 'luhn' }],
    ['6011000000000005', 'DISCOVER', { ok: false, reason: 'luhn' }],
  ])('%s as %s', (number, brand, expected) => {
    expect(validateCardNumber(number, brand)).toEqual(expected);
  });
});

describe('CVV', () => {
  it.each<[CardBrand, number]>([
    ['VISA', 3],
    ['MASTER', 3],
    ['AMEX', 4],
    ['DINERS', 3],
    ['DISCOVER', 3],
    ['JCB', 3],
    ['MAESTRO', 3],
    ['UNIONPAY', 3],
  ])('%s uses %i digits', (brand, length) => {
    expect(cvvLengthOf(brand)).toBe(length);
  });

  it.each<[string, CardBrand, boolean]>([
    ['123', 'VISA', true],
    ['000', 'MASTER', true],
    ['1234', 'VISA', false],
    ['12', 'VISA', false],
    ['1234', 'AMEX', true],
    ['123', 'AMEX', false],
    ['12a', 'VISA', false],
    ['12 3', 'VISA', false],
    ['', 'VISA', false],
    ['１２３', 'VISA', false],
  ])('%j for %s -> %s', (cvv, brand, expected) => {
    expect(validateCvv(cvv, brand)).toBe(expected);
  });
});

describe('validateExpiry', () => {
  const now = new Date('2025-06-15T12:00:00Z');

  it.each([
    ['06', '2025', 'ok'],
    ['07', '2025', 'ok'],
    ['01', '2026', 'ok'],
    ['12', '2099', 'ok'],
    ['05', '2025', 'expired'],
    ['12', '2024', 'expired'],
    ['12', '1999', 'expired'],
    ['00', '2026', 'format'],
    ['13', '2026', 'format'],
    ['6', '2026', 'format'],
    ['006', '2026', 'format'],
    ['06', '26', 'format'],
    ['06', '2126', 'format'],
    ['06', '1899', 'format'],
    ['06', '20265', 'format'],
    ['', '', 'format'],
  ])('%s/%s -> %s', (month, year, expected) => {
    expect(validateExpiry(month, year, now)).toBe(expected);
  });

  it('is valid through the last instant of the expiry month, in UTC', () => {
    expect(validateExpiry('06', '2025', new Date('2025-06-30T23:59:59.999Z'))).toBe('ok');
    expect(validateExpiry('06', '2025', new Date('2025-07-01T00:00:00.000Z'))).toBe('expired');
    expect(validateExpiry('12', '2025', new Date('2026-01-01T00:00:00Z'))).toBe('expired');
    expect(validateExpiry('12', '2025', new Date('2025-12-31T23:59:59Z'))).toBe('ok');
  });
});

describe('masking and extraction', () => {
  it.each([
    ['4200000000000000', '420000******0000'],
    ['377777777777770', '377777*****7770'],
    ['4000000000000000006', '400000*********0006'],
    ['4200 0000 0000 1234', '420000******1234'],
    ['500000000009', '500000**0009'],
    ['12345678901', '*******8901'],
    ['12345678', '****5678'],
    ['12345', '*2345'],
    ['1234', '****'],
    ['', ''],
  ])('maskPan(%j) -> %s', (number, expected) => {
    expect(maskPan(number)).toBe(expected);
  });

  it('binOf and last4Of', () => {
    expect(binOf('4200000000001234')).toBe('420000');
    expect(binOf('4200 0000 0000 1234', 8)).toBe('42000000');
    expect(last4Of('4200000000001234')).toBe('1234');
    expect(last4Of('4200-0000-0000-1234')).toBe('1234');
    expect(binOf('42')).toBe('42');
    expect(last4Of('42')).toBe('42');
  });
});
