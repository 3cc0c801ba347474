import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  EN,
  EN_WALLET,
  fill,
  formatAmount,
  LOCALES,
  loadStrings,
  localePath,
  mergeStrings,
  resolveLocale,
  type Strings,
} from '.';

const dir = new URL('./locales/', import.meta.url);
const read = (code: string): Strings & { wallet: Record<string, string> } =>
  JSON.parse(readFileSync(new URL(`${code}.json`, dir), 'utf8'));
const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();

describe('languages', () => {
  it('ships the spec’s 25 languages, one file each', () => {
    expect(LOCALES).toHaveLength(25);
    const files = readdirSync(dir).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s translates every text, keeping the placeholders', (code) => {
    const strings = read(code);
    const english: Record<string, Record<string, string>> = { ...EN, wallet: EN_WALLET };
    for (const group of ['labels', 'errorMessages', 'wallet'] as const) {
      expect(Object.keys(strings[group]).sort()).toEqual(Object.keys(english[group]!).sort());
      for (const [key, text] of Object.entries(strings[group])) {
        expect(typeof text, `${code}.${group}.${key}`).toBe('string');
        expect(text.length).toBeGreaterThan(0);
        expect(placeholders(text), `${code}.${group}.${key}`).toEqual(placeholders(english[group]![key]!));
      }
    }
  });

  it('resolves codes, regional tags and ISO 639-1 aliases, English otherwise', () => {
    expect(resolveLocale('de')).toBe('de');
    expect(resolveLocale('de-AT')).toBe('de');
    expect(resolveLocale('DE_ch')).toBe('de');
    expect(resolveLocale('sv-SE')).toBe('se');
    expect(resolveLocale('da')).toBe('dk');
    expect(resolveLocale('cs')).toBe('cz');
    expect(resolveLocale('zh-CN')).toBe('cn');
    expect(resolveLocale('el')).toBe('gr');
    expect(resolveLocale('nb')).toBe('no');
    expect(resolveLocale('xx')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
    expect(resolveLocale(42)).toBe('en');
  });

  it('fetches a language from the gateway, and falls back to English when it cannot', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(read('fr')), { status: 200 }));
    const fr = await loadStrings('fr', 'https://gw.test/v1/', fetch as unknown as typeof globalThis.fetch);
    expect(fetch).toHaveBeenCalledWith(`https://gw.test/v1/${localePath('fr')}`, { credentials: 'omit' });
    expect(fr.labels.cardNumber).toBe('Numéro de carte');
    const failing = vi.fn(async () => new Response('', { status: 404 }));
    expect(
      await loadStrings('fr', 'https://gw.test/v1/', failing as unknown as typeof globalThis.fetch),
    ).toBe(EN);
    const en = vi.fn();
    expect(await loadStrings('en', 'https://gw.test/v1/', en as unknown as typeof globalThis.fetch)).toBe(EN);
    expect(en).not.toHaveBeenCalled();
  });

  it('takes overrides for known keys only', () => {
    const merged = mergeStrings({ labels: { cvv: 'CVC', bogus: 'x', submit: 3 }, errorMessages: null });
    expect(merged.labels.cvv).toBe('CVC');
    expect(merged.labels.submit).toBe(EN.labels.submit);
    expect('bogus' in merged.labels).toBe(false);
  });

  it('formats amounts in the language, and unknown currencies plainly', () => {
    expect(formatAmount('92.00', 'EUR', 'de')).toMatch(/^92,00\s€$/);
    expect(formatAmount('92.00', undefined, 'de')).toBe('92.00');
    expect(formatAmount('92.00', 'XXXX', 'en')).toBe('92.00 XXXX');
  });

  it('fills placeholders', () => {
    expect(fill('Pay {amount}', { amount: '€1.00' })).toBe('Pay €1.00');
    expect(fill('Pay {amount}', {})).toBe('Pay {amount}');
  });
});
