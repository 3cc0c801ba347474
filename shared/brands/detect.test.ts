import { describe, expect, it } from 'vitest';
import type { CardBrand } from './card-brands';
import { detectBrand, detectBrands, normalizeCardNumber } from './detect';

describe('detectBrands: full numbers', () => {
  it.each<[string, CardBrand[]]>([
    ['4200000000000000', ['VISA', 'CARTEBANCAIRE']],
    ['4444444444444444', ['VISA', 'CARTEBANCAIRE']],
    ['4012001037461114', ['VISA', 'CARTEBANCAIRE']],
    ['377777777777770', ['AMEX']],
    ['341111111111111', ['AMEX']],
    ['5232105022907162', ['MASTER', 'CARTEBANCAIRE']],
    ['5200000000000007', ['MASTER', 'CARTEBANCAIRE']],
    ['2221000000000009', ['MASTER', 'CARTEBANCAIRE']],
    ['2720990000000007', ['MASTER', 'CARTEBANCAIRE']],
    ['2220990000000000', []],
    ['2721000000000000', []],
    ['36000000000008', ['DINERS']],
    ['30500000000003', ['DINERS']],
    ['30950000000000', ['DINERS']],
    ['3096000000000000', []],
    ['6011000000000004', ['DISCOVER', 'RUPAY', 'MAESTRO']],
    ['6440000000000000', ['DISCOVER', 'MAESTRO']],
    ['6500000000000002', ['DISCOVER', 'RUPAY', 'MAESTRO']],
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
    ['4464040000000007', ['MADA', 'VISA', 'CARTEBANCAIRE']],
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
    ['4', ['VISA', 'CARTEBANCAIRE', 'MADA', 'VISAELECTRON', 'DANKORT', 'ELO']],
    ['42', ['MADA', 'VISA', 'CARTEBANCAIRE']],
    ['420', ['VISA', 'CARTEBANCAIRE']],
    ['2', ['MASTER', 'CARTEBANCAIRE', 'MIR']],
    ['22', ['MASTER', 'CARTEBANCAIRE', 'MIR']],
    ['222', ['MASTER', 'CARTEBANCAIRE']],
    ['2221', ['MASTER', 'CARTEBANCAIRE']],
    ['272', ['MASTER', 'CARTEBANCAIRE']],
    ['2721', []],
    ['21', []],
    ['5', ['MASTER', 'MAESTRO', 'MADA', 'DANKORT', 'CARTEBANCAIRE', 'ELO', 'RUPAY']],
    ['51', ['MASTER', 'CARTEBANCAIRE', 'MADA']],
    ['55', ['MASTER', 'CARTEBANCAIRE', 'MADA']],
    ['50', ['MAESTRO', 'MADA', 'DANKORT', 'ELO', 'RUPAY']],
    ['56', ['MAESTRO']],
    ['59', []],
    ['3', ['AMEX', 'DINERS', 'JCB', 'HIPERCARD']],
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
    ['6', ['MAESTRO', 'DISCOVER', 'UNIONPAY', 'MADA', 'BCMC', 'ELO', 'HIPERCARD', 'RUPAY']],
    // RUPAY's 60 is complete at two digits; DISCOVER's 6011 still possible.
    ['60', ['RUPAY', 'DISCOVER', 'MADA', 'HIPERCARD', 'MAESTRO']],
    ['601', ['DISCOVER', 'RUPAY', 'MAESTRO']],
    ['6011', ['DISCOVER', 'RUPAY', 'MAESTRO']],
    ['6012', ['RUPAY', 'MAESTRO']],
    ['62', ['UNIONPAY', 'DISCOVER', 'ELO', 'MAESTRO']],
    ['622', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['6221', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['62212', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['622125', ['UNIONPAY', 'MAESTRO']],
    ['622126', ['DISCOVER', 'UNIONPAY', 'MAESTRO']],
    ['6230', ['UNIONPAY', 'MAESTRO']],
    ['64', ['DISCOVER', 'MAESTRO']],
    ['643', ['MAESTRO']],
    ['65', ['DISCOVER', 'RUPAY', 'ELO', 'MAESTRO']],
    ['67', ['BCMC', 'MAESTRO']],
    ['1', []],
    ['9', ['MADA', 'TROY']],
    ['8', ['RUPAY']],
    ['7', []],
  ])('%j -> %j', (partial, expected) => {
    expect(detectBrands(partial)).toEqual(expected);
  });

  it.each([
    ['4200 0000', ['VISA', 'CARTEBANCAIRE']],
    ['4200-0000-0000-0000', ['VISA', 'CARTEBANCAIRE']],
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
    ['5', undefined, ['MAESTRO'], ['MAESTRO', 'MASTER', 'MADA', 'DANKORT', 'CARTEBANCAIRE', 'ELO', 'RUPAY']],
    [
      '5',
      undefined,
      ['MASTER', 'MAESTRO'],
      ['MASTER', 'MAESTRO', 'MADA', 'DANKORT', 'CARTEBANCAIRE', 'ELO', 'RUPAY'],
    ],
    [
      '6',
      undefined,
      ['UNIONPAY', 'DISCOVER'],
      ['UNIONPAY', 'DISCOVER', 'MAESTRO', 'MADA', 'BCMC', 'ELO', 'HIPERCARD', 'RUPAY'],
    ],
    ['3', undefined, ['JCB'], ['JCB', 'AMEX', 'DINERS', 'HIPERCARD']],
    // Priority only breaks ties: the more specific match still wins.
    ['6011', undefined, ['MAESTRO'], ['DISCOVER', 'RUPAY', 'MAESTRO']],
    ['62', undefined, ['DISCOVER'], ['DISCOVER', 'UNIONPAY', 'ELO', 'MAESTRO']],
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
    ['8', undefined, undefined, 'RUPAY'],
    ['7', undefined, undefined, undefined],
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
