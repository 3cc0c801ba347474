/**
 * Bank payment brands: what account data each needs from the shopper.
 */

export interface BankBrandSpec {
  readonly name: string;
  /** Whether bankAccount.iban is required (and must pass validateIban). */
  readonly requiresIban: boolean;
  /** Whether bankAccount.holder is required. */
  readonly requiresHolder: boolean;
}

export const BANK_BRAND_SPECS = {
  /** SEPA direct debit: the shopper's IBAN is debited under a mandate. */
  DIRECTDEBIT_SEPA: { name: 'SEPA Direct Debit', requiresIban: true, requiresHolder: true },
  /** SEPA bank transfer from the shopper's account. */
  SEPA: { name: 'SEPA', requiresIban: true, requiresHolder: true },
  /** Prepayment: the shopper transfers the amount themselves; no account data is collected. */
  PREPAYMENT: { name: 'Prepayment', requiresIban: false, requiresHolder: false },
} as const satisfies Record<string, BankBrandSpec>;

export type BankBrand = keyof typeof BANK_BRAND_SPECS;

export function isBankBrand(value: string): value is BankBrand {
  return Object.hasOwn(BANK_BRAND_SPECS, value);
}
