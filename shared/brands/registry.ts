/**
 * Central brand registry: every payment brand the gateway knows, its kind, and the request
 * parameter group that carries its account data (none for redirect methods).
 *
 * To add brands, add rows to BRANDS; code that is loaded later (e.g. optional payment-method
 * modules) may call registerBrand instead.
 */

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

export interface BrandEntry {
  readonly kind: BrandKind;
  /** Parameter group with the shopper's account data; absent when none is sent (redirects, prepayment). */
  readonly group?: AccountGroup;
}

const CARD = { kind: 'card', group: 'card' } as const;

export const BRANDS = {
  VISA: CARD,
  MASTER: CARD,
  AMEX: CARD,
  DINERS: CARD,
  DISCOVER: CARD,
  JCB: CARD,
  MAESTRO: CARD,
  UNIONPAY: CARD,
  MADA: CARD,
  DIRECTDEBIT_SEPA: { kind: 'bank', group: 'bankAccount' },
  SEPA: { kind: 'bank', group: 'bankAccount' },
  PREPAYMENT: { kind: 'bank' },
  VIRTUAL_ACCOUNT: { kind: 'virtualAccount', group: 'virtualAccount' },
  WALLETA: { kind: 'wallet', group: 'walletA' },
  WALLETB: { kind: 'wallet', group: 'walletB' },
  WALLETC: { kind: 'wallet', group: 'walletC' },
  WALLETD_CONTINUE: { kind: 'redirect' },
  SOFORTUEBERWEISUNG: { kind: 'redirect' },
  PAYPAL: { kind: 'redirect' },
  KLARNA_PAYMENTS_PAYLATER: { kind: 'redirect' },
  GIFTCARD: { kind: 'giftCard', group: 'giftCard' },
} as const satisfies Record<string, BrandEntry>;

export type KnownBrand = keyof typeof BRANDS;

/** Brands added at runtime through registerBrand. */
const registered = new Map<string, BrandEntry>();

/** Brand names: letters, digits and underscores, up to 32 characters. */
const BRAND_NAME = /^[A-Z0-9_]{1,32}$/;

function builtIn(brand: string): BrandEntry | undefined {
  return Object.hasOwn(BRANDS, brand) ? BRANDS[brand as KnownBrand] : undefined;
}

/** The registry entry for a brand, or undefined for unknown brands. Brand names are case-sensitive. */
export function brandInfo(brand: string): BrandEntry | undefined {
  return builtIn(brand) ?? registered.get(brand);
}

export function brandKind(brand: string): BrandKind | undefined {
  return brandInfo(brand)?.kind;
}

/** The parameter group carrying the brand's account data; undefined for unknown brands and redirects. */
export function brandGroup(brand: string): AccountGroup | undefined {
  return brandInfo(brand)?.group;
}

export function isKnownBrand(brand: string): boolean {
  return brandInfo(brand) !== undefined;
}

/** All known brands (table order, then registration order), optionally only those of one kind. */
export function listBrands(kind?: BrandKind): string[] {
  const out: string[] = [];
  for (const [brand, entry] of [...Object.entries(BRANDS), ...registered]) {
    if (!kind || entry.kind === kind) out.push(brand);
  }
  return out;
}

/**
 * Adds a brand at runtime. Registering the same definition again is a no-op; redefining a known
 * brand differently, or an invalid brand name, throws.
 */
export function registerBrand(brand: string, entry: BrandEntry): void {
  if (!BRAND_NAME.test(brand)) throw new Error(`Invalid brand name: ${brand}`);
  const existing = brandInfo(brand);
  if (existing) {
    if (existing.kind === entry.kind && existing.group === entry.group) return;
    throw new Error(`Brand ${brand} is already registered as ${existing.kind}`);
  }
  registered.set(brand, { kind: entry.kind, ...(entry.group ? { group: entry.group } : {}) });
}
