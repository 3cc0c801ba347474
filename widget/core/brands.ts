/**
 * Which forms a `data-brands` list asks for. The registered methods (`core/registry.ts`) decide:
 * all card brands share one card form; every other brand gets its own, by its kind in the gateway's
 * brand catalogue: wallets with a sheet (WALLETA, WALLETB, WALLETC) a wallet button; brands whose
 * method needs no account data (redirects such as online transfers and WALLETD_CONTINUE,
 * PREPAYMENT) a button that posts the brand. A brand the catalogue does not know, or whose account
 * data no form here collects, is not drawn (as the family's widget does): a button that submits
 * nothing would only be refused. Nor is a brand the checkout's channel does not accept (the
 * session's `brands`, when the channel restricts them).
 */
import { brandDisplayName } from '../../shared/brands';
import { type PlannedMethod, type Registry, registry } from './registry';

export type Method = PlannedMethod;

/** What the shopper reads for a brand: the catalogue's display name (Visa, Klarna Pay Later, Sofort, Wallet A). */
export const brandName = (brand: string): string => brandDisplayName(brand);

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
 * The forms to render, in the order their first brand appears (which method draws a brand: the
 * registry's descriptors, `components/<Method>/index.ts`). `accepted`, the brands the checkout's
 * channel accepts (the session's `brands`; undefined: all), drops the others silently.
 */
export function planMethods(
  brands: readonly string[],
  accepted?: readonly string[],
  methods: Registry = registry,
): Method[] {
  return methods.plan(brands, accepted);
}
