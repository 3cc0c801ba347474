/**
 * The payment-method catalogue: every brand the gateway can process, written once as data. Each
 * brand names its payment method (the spec's method codes, as the Query API's `paymentMethods`
 * filters them), how its outcome is reached (its flow), the account data its method needs, and
 * for card brands the IIN ranges, lengths, CVV and Luhn rules detection and validation use.
 *
 * Everything else is derived from here: the card and bank tables (card-brands.ts, bank-brands.ts),
 * the brand registry (registry.ts), the 400 naming missing account data (params/requests/account-data.ts), the
 * query's method of a payment (engine/query.ts) and docs/payment-methods.md (docs.ts).
 *
 * A brand is listed only when a payment of it can be decided: by the simulators in test mode, or
 * by a connector. A brand that is not here is refused with 600.200.100.
 *
 * Browser-safe and kept small: the widget bundles this file (shared/brands/bundle.test.ts). The
 * longer prose of the docs lives in docs.ts, which the widget does not import.
 */

/**
 * The spec's payment method codes (Query API `paymentMethods`: DD, CT, CC, WA, VA, UA, OT, DC, ET,
 * NT, IV, PP, OD, RM), with their names. The spec lists the codes without their meaning; the names
 * are the family's readings where they are known (docs.ts says which are ours).
 */
export const METHODS = {
  DD: 'Direct debit',
  CT: 'Credit transfer',
  CC: 'Credit card',
  WA: 'Wallet',
  VA: 'Virtual account',
  UA: 'User account',
  OT: 'Online transfer',
  DC: 'Debit card',
  ET: 'ET',
  NT: 'NT',
  IV: 'Invoice',
  PP: 'Prepayment',
  OD: 'OD',
  RM: 'Risk management',
} as const;

export type MethodCode = keyof typeof METHODS;

/** The method codes, in the spec's order. */
export const METHOD_CODES = Object.keys(METHODS) as MethodCode[];

/**
 * How a brand's outcome is reached: decided at once with the account data sent ("sync"), by the
 * shopper at a provider the payment redirects to ("redirect", pending until they come back), or
 * paid by the shopper later ("later"): a prepayment to the merchant's own account is accepted at
 * once (`toMerchantAccount`: the merchant books the money when it arrives); an invoice or
 * instalments of a pay-later provider are accepted by that provider later, after its own checks
 * (pending without a redirect until it answers).
 */
export type Flow = 'sync' | 'redirect' | 'later';

/** What the widget and the engine treat alike: a card form, a bank account form, … */
export type BrandKind = 'card' | 'bank' | 'virtualAccount' | 'wallet' | 'giftCard' | 'redirect';

/** Request parameter groups that carry account data, e.g. card.number, bankAccount.iban. */
export type AccountGroup =
  | 'card'
  | 'bankAccount'
  | 'virtualAccount'
  | 'tokenAccount'
  | 'walletA'
  | 'walletB'
  | 'walletC'
  | 'giftCard';

/** One piece of account data a method needs: a parameter, and the one that would do instead. */
export type AccountDatum = readonly [name: string, or?: string];

/**
 * The account data each group's method needs when none of it is sent, each named in the 400. A
 * card brand takes a network token (tokenAccount) instead of its card; a gift card is redeemed
 * with its number and PIN; a wallet takes its token, or the card the merchant decrypted.
 */
export const ACCOUNT_DATA: Readonly<Record<AccountGroup, readonly AccountDatum[]>> = {
  card: [['card.number'], ['card.expiryMonth'], ['card.expiryYear']],
  bankAccount: [
    ['bankAccount.holder'],
    ['bankAccount.iban', 'bankAccount.number'],
    ['bankAccount.bic', 'bankAccount.bankCode'],
  ],
  virtualAccount: [['virtualAccount.accountId']],
  tokenAccount: [['tokenAccount.number'], ['tokenAccount.type']],
  walletA: [['walletA.paymentToken', 'walletA.source with the decrypted card']],
  walletB: [['walletB.paymentToken', 'walletB.source with the decrypted card']],
  walletC: [['walletC.paymentToken', 'walletC.source with the decrypted card']],
  giftCard: [['giftCard.number'], ['giftCard.pin']],
};

/** An IIN (BIN) range: equal-length digit strings [low, high] compared as prefixes of the number. */
export type IinRange = readonly [low: string, high: string];

export interface CardData {
  /** IIN prefix ranges, each [low, high] of equal digit length. */
  readonly iin: readonly IinRange[];
  /** Allowed PAN lengths, ascending. */
  readonly lengths: readonly number[];
  readonly cvvLength: 3 | 4;
  /** Whether a payment with the card itself must carry its CVV (the family: 100.100.600). */
  readonly cvvRequired: boolean;
  /** What the brand calls its card security code. */
  readonly cvvLabel: string;
  /** Whether the PAN carries a Luhn check digit. */
  readonly luhn: boolean;
}

export interface BrandDef {
  /** Display name. */
  readonly name: string;
  readonly method: MethodCode;
  readonly flow: Flow;
  readonly kind: BrandKind;
  /** Parameter group with the shopper's account data; absent when none is sent. */
  readonly group?: AccountGroup;
  /** Card brands only. */
  readonly card?: CardData;
  /**
   * The shopper transfers to the merchant's own account (the channel's `bankAccount`, answered
   * as `merchant.bankAccount`): a channel without one cannot take the brand (600.200.201).
   */
  readonly toMerchantAccount?: true;
  /**
   * A registration keeps the payer rather than account data: a boleto is issued to a payer (name,
   * CPF, address), so a registration of one lets later boletos be issued to the same payer
   * (the operator's registrationBRADESCO.sh sends no account).
   */
  readonly registersPayer?: true;
  /**
   * Its account data is optional: sent, it is checked whole; not sent, the provider collects it
   * from the shopper (the operator's initialpayment-PAYOLUTION_ELV.sh sends none).
   */
  readonly providerCollectsAccount?: true;
}

/** IIN ranges written compactly: prefixes and ranges `low-high`, separated by spaces. */
const iin = (list: string): IinRange[] =>
  list.split(' ').map((bin) => {
    const [low, high = low] = bin.split('-') as [string, string?];
    return [low, high];
  });

const span = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
};

const card = <M extends 'CC' | 'DC'>(
  name: string,
  method: M,
  ranges: string,
  lengths: readonly number[],
  cvvLabel = 'CVV',
  more: Partial<Omit<CardData, 'iin' | 'lengths' | 'cvvLabel'>> = {},
) =>
  ({
    name,
    method,
    flow: 'sync',
    kind: 'card',
    group: 'card',
    card: { iin: iin(ranges), lengths, cvvLength: 3, cvvRequired: true, luhn: true, cvvLabel, ...more },
  }) as const;

/** A brand the shopper finishes at its provider's pages (written once: the widget bundles this file). */
const redirect = <M extends MethodCode>(name: string, method: M) =>
  ({ name, method, flow: 'redirect', kind: 'redirect' }) as const;
const transfer = (name: string) => redirect(name, 'OT');
const invoice = (name: string) => ({ name, method: 'IV', flow: 'later', kind: 'redirect' }) as const;
/** A brand paid from (or to) the shopper's bank account, decided at once. */
const bank = <M extends MethodCode>(name: string, method: M) =>
  ({ name, method, flow: 'sync', kind: 'bank', group: 'bankAccount' }) as const;

/**
 * Every brand. Card brands come first; their order is the default detection order among equally
 * specific IIN matches (detect.ts), so a co-badged brand that shares its ranges (CARTEBANCAIRE)
 * comes after the scheme it shares them with. Sources of the IIN data: the schemes' published
 * ranges as collected in the public "payment card number" IIN tables; MADA: the mada BINs the
 * family's acquirers publish for their plugins (see MADA).
 */
export const PAYMENT_BRANDS = {
  VISA: card('Visa', 'CC', '4', [13, 16, 19], 'CVV2'),
  MASTER: card('Mastercard', 'CC', '51-55 2221-2720', [16], 'CVC2'),
  AMEX: card('American Express', 'CC', '34 37', [15], 'CID', { cvvLength: 4 }),
  DINERS: card('Diners Club', 'CC', '36 300-305 3095 38-39', span(14, 19)),
  DISCOVER: card('Discover', 'CC', '6011 644-649 65 622126-622925', span(16, 19), 'CID'),
  JCB: card('JCB', 'CC', '3528-3589', span(16, 19), 'CAV2'),
  /** Maestro cards may have no CVV; the family's widget asks for it only optionally. */
  MAESTRO: card('Maestro', 'DC', '50 56-58 6', span(12, 19), 'CVC', { cvvRequired: false }),
  /** UnionPay numbers carry no Luhn check digit. */
  UNIONPAY: card('UnionPay', 'CC', '62', span(16, 19), 'CVN2', { luhn: false }),
  /**
   * mada, the Saudi domestic debit scheme. Its cards are co-badged with Visa or Mastercard (or
   * mada only, 9682xx); these BINs are mada's, so a number among them is detected as MADA, more
   * specific than the co-badge's one-digit range, unless MADA is not offered (detectBrand's
   * `among`). The list is the mada BIN list the family's acquirers publish for their shop
   * plugins, checked against two further public copies: 403024, 410621, 412565, 457997, 474491,
   * 520058 and 968212 were added from them.
   */
  MADA: card(
    'mada',
    'DC',
    '400861 401757 403024 407197 407395 409201 410621 410685 412565 417633 419593 422817-422819 ' +
      '428331 428671-428673 431361 432328 434107 439954 440533 440647 440795 445564 446393 446404 ' +
      '446672 455036 455708 457865 457997 458456 462220 468540-468543 474491 483010-483012 484783 ' +
      '486094-486096 489317-489319 493428 504300 508160 513213 520058 521076 524130 524514 ' +
      '529415 529741 530060 530906 531095 531196 532013 535825 535989 536023 537767 539931 ' +
      '543085 543357 549760 554180 557606 558848 585265 588845-588851 588982-588983 589005 ' +
      '589206 604906 605141 636120 968201-968212',
    [16],
  ),
  /** Visa Electron, Visa's debit card with online authorisation only. */
  VISAELECTRON: card('Visa Electron', 'DC', '4026 417500 4405 4508 4844 4913 4917', [16], 'CVV2'),
  /** Dankort, Denmark's debit scheme; 4571 is Visa/Dankort, the co-badged card. */
  DANKORT: card('Dankort', 'DC', '5019 4571', [16]),
  /**
   * Cartes Bancaires: every CB card is co-badged with Visa or Mastercard and carries their number,
   * so it shares their ranges and is detected only when offered without them (or given priority).
   */
  CARTEBANCAIRE: card('Cartes Bancaires', 'CC', '4 51-55 2221-2720', [16]),
  /** Bancontact (BCMC): Belgian debit cards without a CVV. */
  BCMC: card('Bancontact', 'DC', '6703', span(16, 19), 'CVV', { cvvRequired: false }),
  ELO: card(
    'Elo',
    'CC',
    '401178-401179 431274 438935 451416 457393 457631-457632 504175 506699-506778 509000-509999 ' +
      '627780 636297 636368 650031-650033 650035-650051 650405-650439 650485-650538 ' +
      '650541-650598 650700-650718 650720-650727 650901-650978 651652-651679 655000-655019 ' +
      '655021-655058',
    [16],
  ),
  HIPERCARD: card('Hipercard', 'CC', '606282 3841', [16, 19]),
  MIR: card('Mir', 'CC', '2200-2204', span(16, 19)),
  RUPAY: card('RuPay', 'CC', '60 65 81-82 508', [16]),
  TROY: card('Troy', 'CC', '9792', [16]),

  DIRECTDEBIT_SEPA: bank('SEPA Direct Debit', 'DD'),
  /**
   * A SEPA transfer from the shopper's account, the shopper's IBAN given: a credit transfer to the
   * merchant's account, which the answer names and a channel without one cannot take.
   */
  SEPA: { ...bank('SEPA credit transfer', 'CT'), toMerchantAccount: true },
  /** The shopper transfers the amount to the merchant's account; no account data is collected. */
  PREPAYMENT: { name: 'Prepayment', method: 'PP', flow: 'later', kind: 'bank', toMerchantAccount: true },
  VIRTUAL_ACCOUNT: {
    name: 'Virtual account',
    method: 'VA',
    flow: 'sync',
    kind: 'virtualAccount',
    group: 'virtualAccount',
  },
  WALLETA: { name: 'Wallet A', method: 'WA', flow: 'sync', kind: 'wallet', group: 'walletA' },
  WALLETB: { name: 'Wallet B', method: 'WA', flow: 'sync', kind: 'wallet', group: 'walletB' },
  WALLETC: { name: 'Wallet C', method: 'WA', flow: 'sync', kind: 'wallet', group: 'walletC' },
  WALLETD_CONTINUE: redirect('Wallet D', 'WA'),
  /**
   * Online transfers (OT): the shopper confirms the transfer in their online banking, at the
   * provider the payment redirects to. They take no account data, only the optional bank hints
   * (bankAccount.country, bankName, iban, bic; params/requests/account-data.ts) passed on.
   */
  SOFORTUEBERWEISUNG: transfer('Sofort'),
  EPS: transfer('eps-Überweisung'),
  GIROPAY: transfer('giropay'),
  IDEAL: transfer('iDEAL'),
  TRUSTLY: transfer('Trustly'),
  PRZELEWY: transfer('Przelewy24'),
  INTERAC_ONLINE: transfer('Interac Online'),
  EFT: transfer('Instant EFT'),
  POLI: transfer('POLi'),
  BLIK: transfer('BLIK'),
  PAYPAL: redirect('PayPal', 'WA'),
  /** Accounts held with a provider (VA), which the shopper logs in to there. */
  ALIPAY: redirect('Alipay', 'VA'),
  PAYSAFECARD: redirect('paysafecard', 'VA'),
  /**
   * TrustPay's virtual account and Yandex.Money (now YooMoney)'s wallet: the operator's samples
   * (initialpayment-TRUSTPAY_VA.sh, initialpayment-YANDEX.sh) send no account data, only the
   * shopperResultUrl the provider sends the shopper back to.
   */
  TRUSTPAY_VA: redirect('TrustPay', 'VA'),
  YANDEX: redirect('Yandex.Money', 'VA'),
  /** The family's widget draws STC Pay as a virtual-account form (`wpwl-form-virtualAccount-STC_PAY`). */
  STC_PAY: { name: 'STC Pay', method: 'VA', flow: 'sync', kind: 'virtualAccount', group: 'virtualAccount' },
  /** Buy now, pay later: the provider sends the shopper an invoice. */
  KLARNA_PAYMENTS_PAYLATER: redirect('Klarna Pay Later', 'IV'),
  /** Invoices and instalments (IV): accepted now, the shopper pays the provider later. */
  KLARNA_INVOICE: invoice('Klarna Invoice'),
  KLARNA_INSTALLMENTS: invoice('Klarna Instalments'),
  PAYOLUTION_INVOICE: invoice('Payolution Invoice'),
  PAYOLUTION_INS: invoice('Payolution Instalments'),
  /**
   * Payolution's direct debit (ELV, the German "elektronisches Lastschriftverfahren"): the
   * operator's sample is complete without a bank account (the shopper, address and cart only), so
   * Payolution collects the account when the merchant sends none.
   */
  PAYOLUTION_ELV: { ...bank('Payolution Direct Debit', 'DD'), providerCollectsAccount: true },
  /**
   * Boleto bancário: a voucher the shopper pays at a bank, a lottery agency or in online banking
   * before delivery (PP), shown by the provider the payment redirects to; pending until paid.
   */
  BOLETO: redirect('Boleto Bancário', 'PP'),
  /**
   * A boleto issued by Banco Bradesco: the operator's samples send the payer (`sacado`) as the
   * boleto needs them (name, billing address, CPF as customParameters[BRADESCO_cpfsacado]) and no
   * account; a registration keeps that payer for later boletos.
   */
  BRADESCO: { ...redirect('Boleto Bradesco', 'PP'), registersPayer: true },
  /** A gift card is an account held with its issuer, redeemed with its number and PIN. */
  GIFTCARD: { name: 'Gift card', method: 'VA', flow: 'sync', kind: 'giftCard', group: 'giftCard' },
} as const satisfies Record<string, BrandDef>;

type Catalogue = typeof PAYMENT_BRANDS;

/** Every brand of the catalogue. */
export type CatalogueBrand = keyof Catalogue;

/** The catalogue's brands of one kind. */
export type BrandOfKind<K extends BrandKind> = {
  [B in CatalogueBrand]: Catalogue[B]['kind'] extends K ? B : never;
}[CatalogueBrand];

/** The catalogue's entry for a brand, or undefined. Brand names are case-sensitive. */
export function catalogueEntry(brand: string): BrandDef | undefined {
  return Object.hasOwn(PAYMENT_BRANDS, brand) ? PAYMENT_BRANDS[brand as CatalogueBrand] : undefined;
}

/** The catalogue's brands, in table order, optionally only those of one kind. */
export function catalogueBrands<K extends BrandKind>(kind?: K): BrandOfKind<K>[] {
  return (Object.keys(PAYMENT_BRANDS) as CatalogueBrand[]).filter(
    (brand) => kind === undefined || PAYMENT_BRANDS[brand].kind === kind,
  ) as BrandOfKind<K>[];
}
