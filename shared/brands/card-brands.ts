/**
 * Card brand data: IIN (BIN) ranges, PAN lengths and CVV rules, derived from the payment-method
 * catalogue (catalogue.ts), where they are written.
 *
 * Each IIN range is a pair of equal-length digit strings [low, high] compared as prefixes of the
 * card number: ['2221', '2720'] covers every number whose first four digits are 2221..2720.
 * Ranges of different brands may overlap (MAESTRO's '6' covers DISCOVER's and UNIONPAY's ranges;
 * MADA's BINs lie in VISA's and MASTER's); detection resolves overlaps by preferring the longest
 * matching prefix, then the catalogue's order.
 */
import { type BrandOfKind, type CardData, catalogueBrands, type IinRange, PAYMENT_BRANDS } from './catalogue';

export type { IinRange };

export interface CardBrandSpec extends CardData {
  /** Display name. */
  readonly name: string;
}

export type CardBrand = BrandOfKind<'card'>;

/** The card brands' data, keyed by brand, in default detection order. */
export const CARD_BRAND_SPECS = Object.fromEntries(
  catalogueBrands('card').map((brand): [CardBrand, CardBrandSpec] => {
    const { name, card } = PAYMENT_BRANDS[brand];
    return [brand, { name, ...card }];
  }),
) as Readonly<Record<CardBrand, CardBrandSpec>>;

export interface CardBrandInfo extends CardBrandSpec {
  readonly brand: CardBrand;
}

/** All card brands in default detection order. */
export const CARD_BRANDS: readonly CardBrandInfo[] = (Object.keys(CARD_BRAND_SPECS) as CardBrand[]).map(
  (brand) => ({ brand, ...CARD_BRAND_SPECS[brand] }),
);

export function isCardBrand(value: string): value is CardBrand {
  return Object.hasOwn(CARD_BRAND_SPECS, value);
}

export function cardBrandInfo(brand: CardBrand): CardBrandInfo {
  // CARD_BRANDS is built from CARD_BRAND_SPECS, so every CardBrand is present.
  return CARD_BRANDS.find((info) => info.brand === brand)!;
}
