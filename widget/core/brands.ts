/**
 * Which forms a `data-brands` list asks for. All card brands share one card form; every other brand
 * gets its own, by its kind in the gateway's brand registry: wallets with a sheet (WALLETA, WALLETB,
 * WALLETC) a wallet button; brands whose method needs no account data (redirects such as online
 * transfers and WALLETD_CONTINUE, PREPAYMENT) a button that posts the brand. A brand the registry
 * does not know, or whose account data no form here collects, is not drawn (as the family's widget
 * does): a button that submits nothing would only be refused. Nor is a brand the checkout's channel
 * does not accept (the session's `brands`, when the channel restricts them).
 */
import {
  BANK_BRAND_SPECS,
  brandGroup,
  brandKind,
  CARD_BRAND_SPECS,
  type CardBrand,
  isBankBrand,
  isCardBrand,
} from '../../shared/brands';

export type Method =
  | { readonly kind: 'card'; readonly brands: readonly CardBrand[] }
  | {
      readonly kind: 'directDebit' | 'virtualAccount' | 'giftCard' | 'wallet' | 'onlineTransfer';
      readonly brand: string;
    };

/** The wallets whose sheet this widget has (components/Wallet); another wallet's data no form collects. */
const SHEET_GROUPS = /^wallet[ABC]$/;

const WALLET_NAME = /^WALLET([A-Z])(?:_CONTINUE)?$/;

/**
 * What the shopper reads for a brand: a card brand's name, `Wallet A` for WALLETA (and `Wallet D`
 * for WALLETD_CONTINUE), else the code with spaces (PAYPAL, KLARNA PAYMENTS PAYLATER).
 */
export const brandName = (brand: string): string =>
  isCardBrand(brand)
    ? CARD_BRAND_SPECS[brand].name
    : brand.replace(WALLET_NAME, 'Wallet $1').replace(/_/g, ' ');

const BRAND = /^[A-Z0-9_]{1,32}$/;

/**
 * The brands of a `form.paymentWidgets`: its `data-brands` (any whitespace between names), or on
 * legacy pages the form's text. Upper-cased, duplicates dropped, order kept.
 */
export function parseBrands(form: Element): string[] {
  const source = form.getAttribute('data-brands')?.trim() || form.textContent || '';
  const out: string[] = [];
  for (const word of source.split(/\s+/)) {
    const brand = word.trim().toUpperCase();
    if (BRAND.test(brand) && !out.includes(brand)) out.push(brand);
  }
  return out;
}

/**
 * The forms to render, in the order their first brand appears. `accepted`, the brands the
 * checkout's channel accepts (the session's `brands`; undefined: all), drops the others silently.
 */
export function planMethods(brands: readonly string[], accepted?: readonly string[]): Method[] {
  const out: Method[] = [];
  const cards: CardBrand[] = [];
  for (const brand of brands) {
    if (accepted !== undefined && !accepted.includes(brand)) continue;
    if (isCardBrand(brand)) {
      if (cards.length === 0) out.push({ kind: 'card', brands: cards });
      cards.push(brand);
      continue;
    }
    const kind = brandKind(brand);
    const group = brandGroup(brand);
    if (kind === 'bank' && isBankBrand(brand) && BANK_BRAND_SPECS[brand].requiresIban) {
      out.push({ kind: 'directDebit', brand });
    } else if (kind === 'virtualAccount') {
      out.push({ kind: 'virtualAccount', brand });
    } else if (kind === 'giftCard') {
      out.push({ kind: 'giftCard', brand });
    } else if (kind === 'wallet' && group !== undefined && SHEET_GROUPS.test(group)) {
      out.push({ kind: 'wallet', brand });
    } else if ((kind === 'redirect' || kind === 'bank') && group === undefined) {
      out.push({ kind: 'onlineTransfer', brand });
    }
  }
  return out;
}
