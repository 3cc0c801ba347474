/**
 * The widget's texts in the spec's 25 languages. English is built into paymentWidgets.js; every
 * other language is a JSON file the gateway serves (`/v1/widget/locales/<code>.json`), fetched only
 * when a page asks for it, so the core bundle does not carry them. Missing keys fall back to English,
 * and `wpwlOptions.labels` / `wpwlOptions.errorMessages` override any text.
 *
 * Each file has three groups: `labels` and `errorMessages` (the widget's), and `wallet`, the texts
 * of the simulated wallet sheet (a frame document of its own): the named imports keep that group
 * out of paymentWidgets.js.
 */
import { errorMessages as enErrorMessages, labels as enLabels, wallet as enWallet } from './locales/en.json';

export type Labels = typeof enLabels;
export type ErrorMessages = typeof enErrorMessages;
/** The wallet sheet's texts. */
export type WalletTexts = typeof enWallet;
export interface Strings {
  readonly labels: Labels;
  readonly errorMessages: ErrorMessages;
}

/** The spec's language codes, in its order. */
export const LOCALES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'dk',
  'fi',
  'se',
  'tr',
  'ja',
  'sl',
  'pt',
  'pl',
  'cz',
  'hu',
  'bg',
  'ro',
  'ru',
  'cn',
  'gr',
  'no',
  'sk',
  'ar',
  'ko',
] as const;
export type Locale = (typeof LOCALES)[number];

/** ISO 639-1 codes (what browsers and `de-AT`-style tags carry) for the spec's codes that differ. */
const ALIASES: Readonly<Record<string, Locale>> = {
  da: 'dk',
  sv: 'se',
  cs: 'cz',
  zh: 'cn',
  el: 'gr',
  nb: 'no',
  nn: 'no',
  sl: 'sl',
};

/** The BCP 47 tag of each code, for number and date formatting. */
const BCP47: Readonly<Partial<Record<Locale, string>>> = {
  dk: 'da',
  se: 'sv',
  cz: 'cs',
  cn: 'zh-CN',
  gr: 'el',
  no: 'nb',
};

export const EN: Strings = { labels: enLabels, errorMessages: enErrorMessages };
export const EN_WALLET: WalletTexts = enWallet;

/** `de`, `de-AT`, `de_AT`, `DE`, `sv-SE` → a supported code; anything else → `en`. */
export function resolveLocale(input: unknown): Locale {
  if (typeof input !== 'string') return 'en';
  const lower = input.trim().toLowerCase();
  if ((LOCALES as readonly string[]).includes(lower)) return lower as Locale;
  const primary = lower.split(/[-_]/)[0] ?? '';
  if ((LOCALES as readonly string[]).includes(primary)) return primary as Locale;
  return ALIASES[primary] ?? 'en';
}

export const bcp47 = (locale: Locale): string => BCP47[locale] ?? locale;
export const isRtl = (locale: Locale): boolean => locale === 'ar';

/** Where a language's file lives, relative to the gateway's `/v1/` address. */
export const localePath = (locale: Locale): string => `widget/locales/${locale}.json`;

export function pickStrings<T extends object>(base: T, extra: unknown): T {
  if (extra === null || typeof extra !== 'object') return base;
  const out: Record<string, string> = { ...(base as Record<string, string>) };
  for (const [key, value] of Object.entries(extra)) {
    if (typeof value === 'string' && Object.hasOwn(base, key)) out[key] = value;
  }
  return out as T;
}

/** English under the given texts: unknown keys and non-strings are ignored. */
export function mergeStrings(
  over: { labels?: unknown; errorMessages?: unknown } | undefined,
  base: Strings = EN,
): Strings {
  return {
    labels: pickStrings(base.labels, over?.labels),
    errorMessages: pickStrings(base.errorMessages, over?.errorMessages),
  };
}

/**
 * The texts for a language: English at once, any other fetched from the gateway (English when that
 * fails, so a missing file never blocks the payment).
 */
export async function loadStrings(locale: Locale, apiBase: string, fetchImpl = fetch): Promise<Strings> {
  if (locale === 'en') return EN;
  try {
    const res = await fetchImpl(new URL(localePath(locale), apiBase).href, { credentials: 'omit' });
    if (!res.ok) return EN;
    return mergeStrings((await res.json()) as { labels?: unknown; errorMessages?: unknown });
  } catch {
    return EN;
  }
}

/** `Pay {amount}` with {amount: '€92.00'} → `Pay €92.00`. */
export function fill(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** `92.00` EUR in de → `92,00 €`; unknown currencies fall back to `92.00 XYZ`. */
export function formatAmount(amount: string, currency: string | undefined, locale: Locale): string {
  if (!currency) return amount;
  try {
    return new Intl.NumberFormat(bcp47(locale), { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}
