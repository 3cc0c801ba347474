/**
 * Test data: one Luhn-valid card number per card brand of the catalogue, inside the brand's own
 * IIN ranges and detected as that brand (CARTEBANCAIRE, which shares Visa's ranges, only when
 * offered without VISA). Used by the catalogue's tests and the HTTP payment-method table; not
 * exported by index.ts, so not in the widget's bundle.
 */
import type { CardBrand } from './card-brands';
import { luhnCheckDigit } from './luhn';

/** [the first digits, the length] of each brand's test number; the rest is 1s and a check digit. */
export const TEST_NUMBER_SHAPES: Readonly<Record<CardBrand, readonly [prefix: string, length: number]>> = {
  VISA: ['411111', 16],
  MASTER: ['555555', 16],
  AMEX: ['378282', 15],
  DINERS: ['305693', 14],
  DISCOVER: ['601111', 16],
  JCB: ['353011', 16],
  MAESTRO: ['675964', 16],
  UNIONPAY: ['620000', 16],
  MADA: ['446404', 16],
  VISAELECTRON: ['417500', 16],
  DANKORT: ['501912', 16],
  CARTEBANCAIRE: ['497010', 16],
  BCMC: ['670312', 17],
  ELO: ['636368', 16],
  HIPERCARD: ['606282', 16],
  MIR: ['220012', 16],
  RUPAY: ['817000', 16],
  TROY: ['979200', 16],
};

/** A Luhn-valid number of `length` digits starting with `prefix`. */
export function testNumber(prefix: string, length: number): string {
  const body = prefix.padEnd(length - 1, '1');
  return body + luhnCheckDigit(body)!;
}

/** The test number of a card brand. */
export function testNumberOf(brand: CardBrand): string {
  const [prefix, length] = TEST_NUMBER_SHAPES[brand];
  return testNumber(prefix, length);
}
