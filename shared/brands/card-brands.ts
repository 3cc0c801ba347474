/**
 * Card brand data: IIN (BIN) ranges, PAN lengths and CVV rules.
 *
 * Each IIN range is a pair of equal-length digit strings [low, high] compared as prefixes of the
 * card number: ['2221', '2720'] covers every number whose first four digits are 2221..2720.
 * Ranges of different brands may overlap (MAESTRO's '6' covers DISCOVER's and UNIONPAY's ranges);
 * detection resolves overlaps by preferring the longest matching prefix.
 */

export type IinRange = readonly [low: string, high: string];

export interface CardBrandSpec {
  /** Display name. */
  readonly name: string;
  /** IIN prefix ranges, each [low, high] of equal digit length. */
  readonly iin: readonly IinRange[];
  /** Allowed PAN lengths, ascending. */
  readonly lengths: readonly number[];
  readonly cvvLength: 3 | 4;
  /** Whether the PAN carries a Luhn check digit. */
  readonly luhn: boolean;
  /** What the brand calls its card security code. */
  readonly cvvLabel: string;
}

const range = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
};

/** IIN ranges written compactly: six-digit BINs and ranges `low-high`, separated by spaces. */
const bins = (list: string): IinRange[] =>
  list.split(' ').map((bin) => {
    const [low, high = low] = bin.split('-') as [string, string?];
    return [low, high];
  });

/** The brand table. Key order is the default detection order among equally specific matches. */
export const CARD_BRAND_SPECS = {
  VISA: {
    name: 'Visa',
    iin: [['4', '4']],
    lengths: [13, 16, 19],
    cvvLength: 3,
    luhn: true,
    cvvLabel: 'CVV2',
  },
  MASTER: {
    name: 'Mastercard',
    iin: [
      ['51', '55'],
      ['2221', '2720'],
    ],
    lengths: [16],
    cvvLength: 3,
    luhn: true,
    cvvLabel: 'CVC2',
  },
  AMEX: {
    name: 'American Express',
    iin: [
      ['34', '34'],
      ['37', '37'],
    ],
    lengths: [15],
    cvvLength: 4,
    luhn: true,
    cvvLabel: 'CID',
  },
  DINERS: {
    name: 'Diners Club',
    iin: [
      ['36', '36'],
      ['300', '305'],
      ['3095', '3095'],
      ['38', '39'],
    ],
    lengths: range(14, 19),
    cvvLength: 3,
    luhn: true,
    cvvLabel: 'CVV',
  },
  DISCOVER: {
    name: 'Discover',
    iin: [
      ['6011', '6011'],
      ['644', '649'],
      ['65', '65'],
      ['622126', '622925'],
    ],
    lengths: range(16, 19),
    cvvLength: 3,
    luhn: true,
    cvvLabel: 'CID',
  },
  JCB: {
    name: 'JCB',
    iin: [['3528', '3589']],
    lengths: range(16, 19),
    cvvLength: 3,
    luhn: true,
    cvvLabel: 'CAV2',
  },
  MAESTRO: {
    name: 'Maestro',
    iin: [
      ['50', '50'],
      ['56', '58'],
      ['6', '6'],
    ],
    lengths: range(12, 19),
    cvvLength: 3,
    luhn: true,
    cvvLabel: 'CVC',
  },
  UNIONPAY: {
    name: 'UnionPay',
    iin: [['62', '62']],
    lengths: range(16, 19),
    cvvLength: 3,
    luhn: false,
    cvvLabel: 'CVN2',
  },
  /**
   * mada, the Saudi domestic debit scheme. Its cards are co-badged with Visa or Mastercard (or
   * mada only, 9682xx); these BINs are mada's, so a number among them is detected as MADA, more
   * specific than the co-badge's one-digit range. A payment with paymentBrand MADA takes a card
   * number of these ranges; the full catalogue of payment methods comes later.
   */
  MADA: {
    name: 'mada',
    iin: bins(
      '400861 401757 407197 407395 409201 410685 417633 419593 422817-422819 428331 ' +
        '428671-428673 431361 432328 434107 439954 440533 440647 440795 445564 446393 446404 ' +
        '446672 455036 455708 457865 458456 462220 468540-468543 483010-483012 484783 ' +
        '486094-486096 489317-489319 493428 504300 508160 513213 521076 524130 524514 529415 ' +
        '529741 530060 530906 531095 531196 532013 535825 535989 536023 537767 539931 543085 ' +
        '543357 549760 554180 557606 558848 585265 588845-588851 588982-588983 589005 589206 ' +
        '604906 605141 636120 968201-968211',
    ),
    lengths: [16],
    cvvLength: 3,
    luhn: true,
    cvvLabel: 'CVV',
  },
} as const satisfies Record<string, CardBrandSpec>;

export type CardBrand = keyof typeof CARD_BRAND_SPECS;

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
