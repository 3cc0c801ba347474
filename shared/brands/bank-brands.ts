/**
 * Bank payment brands: what account data each needs from the shopper, derived from the
 * payment-method catalogue (catalogue.ts).
 */
import { ACCOUNT_DATA, type BrandDef, type BrandOfKind, catalogueBrands, PAYMENT_BRANDS } from './catalogue';

export interface BankBrandSpec {
  readonly name: string;
  /** Whether bankAccount.iban is required (and must pass validateIban). */
  readonly requiresIban: boolean;
  /** Whether bankAccount.holder is required. */
  readonly requiresHolder: boolean;
}

export type BankBrand = BrandOfKind<'bank'>;

function needs(brand: BankBrand, name: string): boolean {
  const entry: BrandDef = PAYMENT_BRANDS[brand];
  return entry.group !== undefined && ACCOUNT_DATA[entry.group].some(([first]) => first === name);
}

export const BANK_BRAND_SPECS: { readonly [B in BankBrand]: BankBrandSpec } = Object.fromEntries(
  catalogueBrands('bank').map((brand) => [
    brand,
    {
      name: PAYMENT_BRANDS[brand].name,
      requiresIban: needs(brand, 'bankAccount.iban'),
      requiresHolder: needs(brand, 'bankAccount.holder'),
    },
  ]),
) as { readonly [B in BankBrand]: BankBrandSpec };

export function isBankBrand(value: string): value is BankBrand {
  return Object.hasOwn(BANK_BRAND_SPECS, value);
}
