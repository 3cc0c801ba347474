import { describe, expect, it } from 'vitest';
import type { CardBrand } from './card-brands';
import { detectBrand, detectBrands, normalizeCardNumber } from './detect';

describe('detectBrands: full numbers', () => {
  it.each<[string, CardBrand[]]>([
    ['4200000000000000', ['VISA']],
    ['4444444444444444', ['VISA']],
    ['4012001037461114', ['VISA']],
    ['377777777777770', ['AMEX']],
    ['341111111111111', ['AMEX']],
    ['5232105022907162', ['MASTER']],
    ['5200000000000007', ['MASTER']],
    ['2221000000000009', ['MASTER']],
    ['2720990000000007', ['MASTER']],
    ['2220990000000000', []],
    ['2721000000000000', []],
    ['36000000000008', ['DINERS']],
    ['30500000000003', ['DINERS']],
    ['30950000000000', ['DINERS']],
    ['3096000000000000', []],
    ['6011000000000004', ['DISCOVER', 'MAESTRO']],
    ['6440000000000000', ['DISCOVER', 'MAESTRO']],
    ['6500000000000002', ['DISCOVER', 'MAESTRO']],
    ['6221260000000000', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['6229250000000000', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['6229260000000000', ['UNIONPAY', 'MAESTRO']],
    ['6200000000000005', ['UNIONPAY', 'MAESTRO']],
    ['3528000000000007', ['JCB']],
    ['3589000000000000', ['JCB']],
    ['3590000000000000', []],
    ['5000000000000611', ['MAESTRO']],
    ['6759649826438453', ['MAESTRO']],
    ['1234567890123456', []],
    // mada BINs: more specific than the Visa or Mastercard they are co-badged with
    ['4464040000000007', ['MADA', 'VISA']],
    ['5888450000000003', ['MADA', 'MAESTRO']],
    ['9682080000000008', ['MADA']],
  ])('%s -> %j', (number, expected) => {
    expect(detectBrands(number)).toEqual(expected);
  });
});

describe('detectBrands: partial numbers', () => {
  it.each<[string, CardBrand[]]>([
    ['', []],
    // MADA's six-digit BINs (co-badged with Visa and Mastercard) are still possible while typing.
    ['4', ['VISA', 'MADA']],
    ['42', ['MADA', 'VISA']],
    ['420', ['VISA']],
    ['2', ['MASTER']],
    ['22', ['MASTER']],
    ['222', ['MASTER']],
    ['2221', ['MASTER']],
    ['272', ['MASTER']],
    ['2721', []],
    ['21', []],
    ['5', ['MASTER', 'MAESTRO', 'MADA']],
    ['51', ['MASTER', 'MADA']],
    ['55', ['MASTER', 'MADA']],
    ['50', ['MAESTRO', 'MADA']],
    ['56', ['MAESTRO']],
    ['59', []],
    ['3', ['AMEX', 'DINERS', 'JCB']],
    ['34', ['AMEX']],
    ['37', ['AMEX']],
    ['36', ['DINERS']],
    ['30', ['DINERS']],
    ['309', ['DINERS']],
    ['306', []],
    ['35', ['JCB']],
    ['3528', ['JCB']],
    ['352', ['JCB']],
    ['3527', []],
    ['6', ['MAESTRO', 'DISCOVER', 'UNIONPAY', 'MADA']],
    ['60', ['DISCOVER', 'MADA', 'MAESTRO']],
    ['601', ['DISCOVER', 'MAESTRO']],
    ['6011', ['DISCOVER', 'MAESTRO']],
    ['6012', ['MAESTRO']],
    ['62', ['UNIONPAY', 'DISCOVER', 'MAESTRO']],
    ['622', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['6221', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['62212', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['622125', ['UNIONPAY', 'MAESTRO']],
    ['622126', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['6230', ['UNIONPAY', 'MAESTRO']],
    ['64', ['DISCOVER', 'MAESTRO']],
    ['643', ['MAESTRO']],
    ['65', ['DISCOVER', 'MAESTRO']],
    ['67', ['MAESTRO']],
    ['1', []],
    ['9', ['MADA']],
    ['8', []],
  ])('%j -> %j', (partial, expected) => {
    expect(detectBrands(partial)).toEqual(expected);
  });

  it.each([
    ['4200 0000', ['VISA']],
    ['4200-0000-0000-0000', ['VISA']],
    [' 37 ', ['AMEX']],
    ['42x', []],
    ['4.2', []],
    ['  ', []],
  ])('normalises %j', (input, expected) => {
    expect(detectBrands(input)).toEqual(expected);
  });
});

describe('detectBrands: among and priority', () => {
  it.each<[string, CardBrand[] | undefined, CardBrand[] | undefined, CardBrand[]]>([
    ['5', ['MAESTRO'], undefined, ['MAESTRO']],
    ['5', ['VISA', 'AMEX'], undefined, []],
    ['4', ['MASTER'], undefined, []],
    ['6221260000000000', ['UNIONPAY', 'MAESTRO'], undefined, ['UNIONPAY', 'MAESTRO']],
    ['5', undefined, ['MAESTRO'], ['MAESTRO', 'MASTER', 'MADA']],
    ['5', undefined, ['MASTER', 'MAESTRO'], ['MASTER', 'MAESTRO', 'MADA']],
    ['6', undefined, ['UNIONPAY', 'DISCOVER'], ['UNIONPAY', 'DISCOVER', 'MAESTRO', 'MADA']],
    ['3', undefined, ['JCB'], ['JCB', 'AMEX', 'DINERS']],
    // Priority only breaks ties: the more specific match still wins.
    ['6011', undefined, ['MAESTRO'], ['DISCOVER', 'MAESTRO']],
    ['62', undefined, ['DISCOVER'], ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['6', ['DISCOVER', 'UNIONPAY'], ['UNIONPAY'], ['UNIONPAY', 'DISCOVER']],
    ['6', [], undefined, []],
  ])('%j among %j priority %j -> %j', (partial, among, priority, expected) => {
    expect(detectBrands(partial, among, priority)).toEqual(expected);
  });
});

describe('detectBrand', () => {
  it.each<[string, CardBrand[] | undefined, CardBrand[] | undefined, CardBrand | undefined]>([
    ['4', undefined, undefined, 'VISA'],
    ['5', undefined, undefined, 'MASTER'],
    ['5', undefined, ['MAESTRO'], 'MAESTRO'],
    ['6011000000000004', undefined, undefined, 'DISCOVER'],
    ['6011000000000004', ['MAESTRO'], undefined, 'MAESTRO'],
    ['62', undefined, undefined, 'UNIONPAY'],
    ['', undefined, undefined, undefined],
    ['8', undefined, undefined, undefined],
    ['4464040000000007', undefined, undefined, 'MADA'],
    ['4464040000000007', ['VISA', 'MASTER'], undefined, 'VISA'],
  ])('%j among %j priority %j -> %s', (input, among, priority, expected) => {
    expect(detectBrand(input, among, priority)).toBe(expected);
  });
});

it('normalizeCardNumber strips spaces and hyphens only', () => {
  expect(normalizeCardNumber(' 4200-0000 0000\t0000 ')).toBe('4200000000000000');
  expect(normalizeCardNumber('42.00')).toBe('42.00');
});
