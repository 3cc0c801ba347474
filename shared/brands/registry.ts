/**
 * The brand registry: every payment brand the gateway knows, its kind, the request parameter
 * group that carries its account data (none for redirect methods), its payment method code and
 * its flow. The built-in brands are the payment-method catalogue's (catalogue.ts), derived, never
 * copied; code loaded later (e.g. a connector's own brands) may call registerBrand.
 */
import {
  ACCOUNT_DATA,
  type AccountDatum,
  type AccountGroup,
  type BrandKind,
  type CatalogueBrand,
  catalogueEntry,
  type Flow,
  METHODS,
  type MethodCode,
  PAYMENT_BRANDS,
} from './catalogue';

export type { AccountGroup, BrandKind, Flow, MethodCode };

export interface BrandEntry {
  readonly kind: BrandKind;
  /** Parameter group with the shopper's account data; absent when none is sent (redirects, prepayment). */
  readonly group?: AccountGroup;
  /** Its payment method code; for registered brands, their kind's usual code when not given. */
  readonly method?: MethodCode;
  /** How its outcome is reached; for registered brands, `redirect` without a group, else `sync`. */
  readonly flow?: Flow;
  /** What a person reads for it (the catalogue's `name`: the provider's own public name). */
  readonly name?: string;
}

export type KnownBrand = CatalogueBrand;

/** The catalogue's brands with their kind and account group. */
export const BRANDS: { readonly [B in KnownBrand]: BrandEntry } = PAYMENT_BRANDS;

/** The method a registered brand of a kind takes when it names none. */
const METHOD_OF_KIND: Readonly<Record<BrandKind, MethodCode>> = {
  card: 'CC',
  bank: 'DD',
  virtualAccount: 'VA',
  wallet: 'WA',
  redirect: 'OT',
  giftCard: 'VA',
};

/** Brands added at runtime through registerBrand. */
const registered = new Map<string, BrandEntry>();

/** Brand names: letters, digits and underscores, up to 32 characters. */
const BRAND_NAME = /^[A-Z0-9_]{1,32}$/;

/** The registry entry for a brand, or undefined for unknown brands. Brand names are case-sensitive. */
export function brandInfo(brand: string): BrandEntry | undefined {
  return catalogueEntry(brand) ?? registered.get(brand);
}

/**
 * The brand as a person reads it, on the widget's buttons and labels and in the dashboard: the
 * catalogue's name ("Klarna Pay Later", "Sofort", "Wallet A"), a registered brand's own name, else
 * its code with spaces.
 */
export function brandDisplayName(brand: string): string {
  return brandInfo(brand)?.name ?? brand.replace(/_/g, ' ');
}

export function brandKind(brand: string): BrandKind | undefined {
  return brandInfo(brand)?.kind;
}

/** The parameter group carrying the brand's account data; undefined for unknown brands and redirects. */
export function brandGroup(brand: string): AccountGroup | undefined {
  return brandInfo(brand)?.group;
}

/** The brand's payment method code (CC, DC, DD, …); undefined for unknown brands. */
export function brandMethod(brand: string | undefined): MethodCode | undefined {
  const info = brand === undefined ? undefined : brandInfo(brand);
  return info === undefined ? undefined : (info.method ?? METHOD_OF_KIND[info.kind]);
}

/** How the brand's outcome is reached; undefined for unknown brands. */
export function brandFlow(brand: string): Flow | undefined {
  const info = brandInfo(brand);
  if (info === undefined) return undefined;
  return info.flow ?? (info.group === undefined ? 'redirect' : 'sync');
}

/**
 * The account data a brand's method needs when none of it is sent: [parameter, the alternative
 * that would do instead]. None for unknown brands, for methods that take none (redirects,
 * PREPAYMENT) and for brands whose provider collects it (PAYOLUTION_ELV).
 */
export function brandAccountData(brand: string): readonly AccountDatum[] {
  const group = brandGroup(brand);
  if (group === undefined || catalogueEntry(brand)?.providerCollectsAccount) return [];
  return ACCOUNT_DATA[group];
}

/**
 * Whether the shopper pays the brand by a transfer to the merchant's own account (the catalogue's
 * `toMerchantAccount`: PREPAYMENT, SEPA): its answers name that account, and a channel without
 * one cannot take it. Brands registered at runtime never do.
 */
export const paysToMerchantAccount = (brand: string | undefined): boolean =>
  !!brand && catalogueEntry(brand)?.toMerchantAccount === true;

export function isKnownBrand(brand: string): boolean {
  return brandInfo(brand) !== undefined;
}

/** Whether `code` is one of the spec's payment method codes. */
export function isMethodCode(code: string): code is MethodCode {
  return Object.hasOwn(METHODS, code);
}

/** All known brands (table order, then registration order), optionally only those of one kind. */
export function listBrands(kind?: BrandKind): string[] {
  const out: string[] = [];
  for (const [brand, entry] of [...Object.entries(BRANDS), ...registered]) {
    if (!kind || entry.kind === kind) out.push(brand);
  }
  return out;
}

/** Every known brand whose method is one of `methods`. */
export function brandsOfMethods(methods: ReadonlySet<string>): string[] {
  return listBrands().filter((brand) => methods.has(brandMethod(brand) ?? ''));
}

const sameEntry = (a: BrandEntry, b: BrandEntry): boolean =>
  a.kind === b.kind &&
  a.group === b.group &&
  (b.method === undefined || a.method === b.method) &&
  (b.flow === undefined || a.flow === b.flow);

/**
 * Adds a brand at runtime. Registering the same definition again is a no-op; redefining a known
 * brand differently, or an invalid brand name, throws.
 */
export function registerBrand(brand: string, entry: BrandEntry): void {
  if (!BRAND_NAME.test(brand)) throw new Error(`Invalid brand name: ${brand}`);
  const existing = brandInfo(brand);
  if (existing) {
    if (sameEntry(existing, entry)) return;
    throw new Error(`Brand ${brand} is already registered as ${existing.kind}`);
  }
  registered.set(brand, {
    kind: entry.kind,
    ...(entry.group ? { group: entry.group } : {}),
    ...(entry.method ? { method: entry.method } : {}),
    ...(entry.flow ? { flow: entry.flow } : {}),
    ...(entry.name ? { name: entry.name } : {}),
  });
}
