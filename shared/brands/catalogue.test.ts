import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_NUMBER_SHAPES, testNumber, testNumberOf } from '../../server/test-kit/fixtures/card-numbers';
import { INSTRUMENT_GROUPS } from '../params/catalogue';
import { CARD_BRAND_SPECS, CARD_BRANDS, type CardBrand } from './card-brands';
import { validateCardNumber } from './card-checks';
import {
  ACCOUNT_DATA,
  type BrandDef,
  catalogueBrands,
  METHOD_CODES,
  METHODS,
  PAYMENT_BRANDS,
} from './catalogue';
import { detectBrand, detectBrands } from './detect';
import { renderPaymentMethodDocs } from './docs';
import { luhnValid } from './luhn';
import { brandAccountData, brandFlow, brandMethod, brandsOfMethods, listBrands } from './registry';

const entries = Object.entries(PAYMENT_BRANDS) as [string, BrandDef][];

describe('payment-method catalogue', () => {
  it.each(entries)('%s names a method, a flow and the account data of its kind', (brand, entry) => {
    expect(METHOD_CODES).toContain(entry.method);
    expect(['sync', 'redirect', 'later']).toContain(entry.flow);
    expect(brandMethod(brand)).toBe(entry.method);
    expect(brandFlow(brand)).toBe(entry.flow);
    expect(entry.card !== undefined).toBe(entry.kind === 'card');
    // Decided at once means account data to decide with; redirect and later flows take none. A
    // brand whose provider collects the account (PAYOLUTION_ELV) takes it, but needs none.
    expect(entry.group !== undefined).toBe(entry.flow === 'sync');
    expect(brandAccountData(brand).length > 0).toBe(
      entry.flow === 'sync' && !('providerCollectsAccount' in entry),
    );
    if (entry.kind === 'card') expect(['CC', 'DC']).toContain(entry.method);
  });

  it('defines every method code of the spec, and each brand belongs to one', () => {
    expect(Object.keys(METHODS)).toEqual([
      'DD',
      'CT',
      'CC',
      'WA',
      'VA',
      'UA',
      'OT',
      'DC',
      'ET',
      'NT',
      'IV',
      'PP',
      'OD',
      'RM',
    ]);
    const all = brandsOfMethods(new Set(METHOD_CODES));
    expect(all).toEqual(listBrands());
    expect(new Set(entries.map(([, e]) => e.method))).toEqual(
      new Set(['DD', 'CT', 'CC', 'WA', 'VA', 'OT', 'DC', 'IV', 'PP']),
    );
  });

  it('says what every instrument group of the parameter catalogue needs', () => {
    expect(Object.keys(ACCOUNT_DATA).sort()).toEqual([...INSTRUMENT_GROUPS].sort());
    for (const [group, data] of Object.entries(ACCOUNT_DATA))
      for (const [name] of data) expect(name.startsWith(`${group}.`), name).toBe(true);
  });

  it('lists only brands a simulator or connector can decide (unknown ones are 600.200.100)', () => {
    for (const unknown of ['APPLEPAY', 'GOOGLEPAY', 'INVOICE', 'VISADEBIT'])
      expect(Object.hasOwn(PAYMENT_BRANDS, unknown)).toBe(false);
  });

  it('keeps the card brands first, in detection order', () => {
    const cards = catalogueBrands('card');
    expect(Object.keys(PAYMENT_BRANDS).slice(0, cards.length)).toEqual(cards);
    expect(CARD_BRANDS.map((b) => b.brand)).toEqual(cards);
  });
});

describe('card brands: IIN ranges', () => {
  const ranges = CARD_BRANDS.flatMap((b) => b.iin.map(([low, high]) => ({ brand: b.brand, low, high })));
  const overlap = (a: { low: string; high: string }, b: { low: string; high: string }): boolean => {
    const n = Math.min(a.low.length, b.low.length);
    return a.low.slice(0, n) <= b.high.slice(0, n) && b.low.slice(0, n) <= a.high.slice(0, n);
  };

  it.each(CARD_BRANDS.map((b) => [b.brand, b] as const))('%s: well-formed ranges, lengths, CVV', (_, b) => {
    for (const [low, high] of b.iin) {
      expect(low).toMatch(/^\d{1,8}$/);
      expect(high.length).toBe(low.length);
      expect(low <= high).toBe(true);
    }
    expect(b.lengths.length).toBeGreaterThan(0);
    expect([...b.lengths].sort((x, y) => x - y)).toEqual(b.lengths);
    expect([3, 4]).toContain(b.cvvLength);
  });

  it('no brand lists a range twice or inside another of its own', () => {
    for (const a of ranges)
      for (const b of ranges)
        if (a !== b && a.brand === b.brand) expect(overlap(a, b), `${a.brand} ${a.low} ${b.low}`).toBe(false);
  });

  it('ranges of equal length overlap only for co-badged brands (the table order decides)', () => {
    const ties = new Set<string>();
    for (const a of ranges)
      for (const b of ranges)
        if (a.brand < b.brand && a.low.length === b.low.length && overlap(a, b))
          ties.add(`${a.brand}/${b.brand}`);
    // CARTEBANCAIRE cards are Visa or Mastercard cards; RuPay shares Discover's 65 (co-branded).
    expect([...ties].sort()).toEqual(['CARTEBANCAIRE/MASTER', 'CARTEBANCAIRE/VISA', 'DISCOVER/RUPAY']);
  });
});

describe("card brands: detection of each brand's test number", () => {
  it.each(CARD_BRANDS.map((b) => [b.brand] as const))('%s', (brand) => {
    const number = testNumberOf(brand);
    expect(luhnValid(number)).toBe(true);
    expect(validateCardNumber(number, brand)).toEqual({ ok: true, brand });
    if (brand === 'CARTEBANCAIRE') {
      // Co-badged with Visa: VISA unless CB is offered without it.
      expect(detectBrand(number)).toBe('VISA');
      expect(detectBrands(number)).toEqual(['VISA', 'CARTEBANCAIRE']);
      expect(detectBrand(number, ['CARTEBANCAIRE', 'MASTER'])).toBe('CARTEBANCAIRE');
    } else {
      expect(detectBrand(number)).toBe(brand);
      expect(validateCardNumber(number)).toEqual({ ok: true, brand });
    }
  });

  it('has a test number for every card brand', () => {
    expect(Object.keys(TEST_NUMBER_SHAPES).sort()).toEqual(Object.keys(CARD_BRAND_SPECS).sort());
  });

  it('refuses a number of another brand', () => {
    for (const brand of catalogueBrands('card')) {
      const other: CardBrand = brand === 'AMEX' ? 'TROY' : 'AMEX';
      expect(validateCardNumber(testNumberOf(other), brand)).toEqual({ ok: false, reason: 'brand' });
    }
  });
});

describe('MADA: co-badged with Visa and Mastercard, preferred when offered', () => {
  const visaMada = testNumber('446404', 16);
  const masterMada = testNumber('529415', 16);
  const madaOnly = testNumber('968208', 16);

  it('detects MADA when it is offered, or when nothing restricts the brands', () => {
    expect(detectBrand(visaMada)).toBe('MADA');
    expect(detectBrand(visaMada, ['VISA', 'MASTER', 'MADA'])).toBe('MADA');
    expect(detectBrand(masterMada, ['MADA', 'MASTER'])).toBe('MADA');
    expect(detectBrand(madaOnly, ['VISA', 'MADA'])).toBe('MADA');
    // The merchant's priority only breaks ties: the mada BIN is more specific than Visa's 4.
    expect(detectBrand(visaMada, ['VISA', 'MADA'], ['VISA'])).toBe('MADA');
  });

  it('falls back to the co-badge when MADA is not offered', () => {
    expect(detectBrand(visaMada, ['VISA', 'MASTER'])).toBe('VISA');
    expect(detectBrand(masterMada, ['VISA', 'MASTER'])).toBe('MASTER');
    expect(detectBrand(madaOnly, ['VISA', 'MASTER'])).toBeUndefined();
  });

  it('pays as VISA or MASTER too: the named brand only needs the number in its ranges', () => {
    expect(validateCardNumber(visaMada, 'VISA')).toEqual({ ok: true, brand: 'VISA' });
    expect(validateCardNumber(masterMada, 'MASTER')).toEqual({ ok: true, brand: 'MASTER' });
    expect(validateCardNumber(testNumberOf('VISA'), 'MADA')).toEqual({ ok: false, reason: 'brand' });
  });
});

describe('docs/payment-methods.md', () => {
  const docs = renderPaymentMethodDocs();

  it('is derived from the catalogue and checked in up to date (run npm run docs)', () => {
    expect(readFileSync(new URL('../../docs/payment-methods.md', import.meta.url), 'utf8')).toBe(docs);
  });

  it('lists every method code and every brand', () => {
    for (const code of METHOD_CODES) expect(docs).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    for (const brand of listBrands()) expect(docs).toMatch(new RegExp(`^\\| ${brand} \\|`, 'm'));
  });
});
