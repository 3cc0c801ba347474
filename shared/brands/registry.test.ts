import { describe, expect, it } from 'vitest';
import { BANK_BRAND_SPECS, isBankBrand } from './bank-brands';
import { CARD_BRANDS } from './card-brands';
import { catalogueBrands } from './catalogue';
import {
  type AccountGroup,
  BRANDS,
  type BrandKind,
  brandDisplayName,
  brandGroup,
  brandInfo,
  brandKind,
  isKnownBrand,
  listBrands,
  registerBrand,
} from './registry';

describe('BRANDS registry', () => {
  it.each<[string, BrandKind | undefined, AccountGroup | undefined]>([
    ['VISA', 'card', 'card'],
    ['AMEX', 'card', 'card'],
    ['UNIONPAY', 'card', 'card'],
    ['MADA', 'card', 'card'],
    ['DIRECTDEBIT_SEPA', 'bank', 'bankAccount'],
    ['SEPA', 'bank', 'bankAccount'],
    ['PREPAYMENT', 'bank', undefined],
    ['VIRTUAL_ACCOUNT', 'virtualAccount', 'virtualAccount'],
    ['WALLETA', 'wallet', 'walletA'],
    ['WALLETB', 'wallet', 'walletB'],
    ['WALLETC', 'wallet', 'walletC'],
    ['WALLETD_CONTINUE', 'redirect', undefined],
    ['GIFTCARD', 'giftCard', 'giftCard'],
    ['NOPE', undefined, undefined],
    ['visa', undefined, undefined],
    ['toString', undefined, undefined],
    ['__proto__', undefined, undefined],
    ['', undefined, undefined],
  ])('%s: kind %s, group %s', (brand, kind, group) => {
    expect(brandKind(brand)).toBe(kind);
    expect(brandGroup(brand)).toBe(group);
    expect(isKnownBrand(brand)).toBe(kind !== undefined);
  });

  it('lists every card brand as kind card and every bank brand as kind bank', () => {
    for (const { brand } of CARD_BRANDS)
      expect(brandInfo(brand)).toMatchObject({ kind: 'card', group: 'card' });
    for (const brand of Object.keys(BANK_BRAND_SPECS)) expect(brandKind(brand)).toBe('bank');
    expect(listBrands('card')).toEqual(CARD_BRANDS.map((b) => b.brand));
    expect(listBrands('bank')).toEqual(Object.keys(BANK_BRAND_SPECS));
    expect(listBrands()).toEqual(Object.keys(BRANDS));
  });

  it('bank brands say which need an IBAN', () => {
    expect(BANK_BRAND_SPECS.DIRECTDEBIT_SEPA.requiresIban).toBe(true);
    expect(BANK_BRAND_SPECS.PREPAYMENT.requiresIban).toBe(false);
    expect(isBankBrand('SEPA')).toBe(true);
    expect(isBankBrand('VISA')).toBe(false);
    expect(isBankBrand('hasOwnProperty')).toBe(false);
  });

  it('registerBrand adds brands, is idempotent and refuses redefinitions', () => {
    expect(brandKind('TEST_REDIRECT_X')).toBeUndefined();
    registerBrand('TEST_REDIRECT_X', { kind: 'redirect' });
    registerBrand('TEST_REDIRECT_X', { kind: 'redirect' });
    expect(brandKind('TEST_REDIRECT_X')).toBe('redirect');
    expect(brandGroup('TEST_REDIRECT_X')).toBeUndefined();
    expect(listBrands('redirect')).toEqual([...catalogueBrands('redirect'), 'TEST_REDIRECT_X']);
    expect(() => registerBrand('TEST_REDIRECT_X', { kind: 'wallet', group: 'walletA' })).toThrow();
    expect(() => registerBrand('VISA', { kind: 'wallet' })).toThrow();
    expect(() => registerBrand('VISA', { kind: 'card', group: 'card' })).not.toThrow();
    expect(() => registerBrand('bad-name', { kind: 'redirect' })).toThrow();
    expect(() => registerBrand('', { kind: 'redirect' })).toThrow();
  });
});

describe('display names', () => {
  it.each([
    ['KLARNA_PAYMENTS_PAYLATER', 'Klarna Pay Later'],
    ['SOFORTUEBERWEISUNG', 'Sofort'],
    ['PAYPAL', 'PayPal'],
    ['IDEAL', 'iDEAL'],
    ['WALLETA', 'Wallet A'],
    ['WALLETD_CONTINUE', 'Wallet D'],
    ['MASTER', 'Mastercard'],
    ['MADA', 'mada'],
  ])("%s is shown to the shopper as %s (the provider's own name, from the catalogue)", (brand, name) => {
    expect(brandDisplayName(brand)).toBe(name);
  });

  it('no catalogue brand shows its code with underscores (KLARNA_INVOICE, STC_PAY …)', () => {
    for (const brand of catalogueBrands()) expect(brandDisplayName(brand)).not.toMatch(/_/);
  });

  it('a brand registered at runtime shows its own name, else its code with spaces', () => {
    registerBrand('NAMED_PAY', { kind: 'redirect', name: 'Named Pay' });
    registerBrand('PLAIN_PAY', { kind: 'redirect' });
    expect(brandDisplayName('NAMED_PAY')).toBe('Named Pay');
    expect(brandDisplayName('PLAIN_PAY')).toBe('PLAIN PAY');
    expect(brandDisplayName('NOT_KNOWN')).toBe('NOT KNOWN');
  });
});
