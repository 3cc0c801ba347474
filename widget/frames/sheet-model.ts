/**
 * The wallet sheet's state and rules, apart from its markup and its messages: the billing fields the
 * page's options ask for and their checks, the address handed to the page, the sheet's texts in its
 * language, and the simulator's test cards.
 */
import { isCountry2 } from '../../shared/geo';
import { EN_WALLET, type Locale, pickStrings, type WalletTexts } from '../language';
import type { BillingAddress, DisplayItem, SheetInit } from './wallet-protocol';

export interface SheetEnv {
  /** Where messages arrive (the frame's window). */
  readonly window: Window;
  /** The frame's own address (its fragment names the page's origin). */
  readonly href: string;
  /** `window.parent`: the shop page. */
  readonly parent: Pick<Window, 'postMessage'>;
  readonly fetch: typeof fetch;
  /** `location.ancestorOrigins[0]` where the browser offers it. */
  readonly ancestorOrigin?: string | undefined;
  readonly root: HTMLElement;
}

export interface WalletCard {
  readonly id: string;
  readonly label: string;
  readonly network: string;
  readonly type: string;
}

export type Field = 'name' | 'street' | 'city' | 'postcode' | 'country' | 'phone';

/** The billing fields the options ask for, in order. */
export function billingFields(init: Pick<SheetInit, 'options'>): Field[] {
  const o = init.options;
  if (o.billingAddressRequired !== true) return [];
  const full = o.billingAddressParameters?.format === 'FULL';
  const fields: Field[] = full
    ? ['name', 'street', 'city', 'postcode', 'country']
    : ['name', 'postcode', 'country'];
  if (o.billingAddressParameters?.phoneNumberRequired === true) fields.push('phone');
  return fields;
}

/** The message for a billing field's value, or undefined when it is fine. */
export function checkField(field: Field, raw: string, texts: WalletTexts): string | undefined {
  const value = raw.trim();
  switch (field) {
    case 'name':
      return /\S+\s+\S+/.test(value) && value.length <= 100
        ? undefined
        : value
          ? texts.nameError
          : texts.required;
    case 'postcode':
      return /^[A-Za-z0-9]{1,16}$/.test(value.replace(/[\s-]/g, '')) ? undefined : texts.postcodeError;
    case 'country':
      return isCountry2(value) ? undefined : texts.countryError;
    case 'phone':
      return /^[+0-9][0-9 .()/-]{4,24}$/.test(value) ? undefined : texts.phoneError;
    default:
      return value ? undefined : texts.required;
  }
}

export function toAddress(fields: readonly Field[], v: Readonly<Record<string, string>>): BillingAddress {
  const get = (f: Field) => (v[f] ?? '').trim();
  return {
    name: get('name').replace(/\s+/g, ' '),
    ...(fields.includes('street') ? { address1: get('street') } : {}),
    ...(fields.includes('city') ? { locality: get('city') } : {}),
    postalCode: get('postcode'),
    countryCode: get('country'),
    ...(fields.includes('phone') ? { phoneNumber: get('phone') } : {}),
  };
}

export const AUTOCOMPLETE: Readonly<Record<Field, string>> = {
  name: 'billing name',
  street: 'billing address-line1',
  city: 'billing address-level2',
  postcode: 'billing postal-code',
  country: 'billing country',
  phone: 'billing tel',
};
export const MAX: Readonly<Record<Field, number>> = {
  name: 100,
  street: 100,
  city: 80,
  postcode: 16,
  country: 2,
  phone: 25,
};

/** The wallet's texts in a language: English built in, any other fetched from the gateway. */
export async function loadTexts(locale: Locale, href: string, fetchImpl: typeof fetch): Promise<WalletTexts> {
  if (locale === 'en') return EN_WALLET;
  try {
    const res = await fetchImpl(new URL(`../locales/${locale}.json`, href).href, { credentials: 'omit' });
    if (!res.ok) return EN_WALLET;
    return pickStrings(EN_WALLET, ((await res.json()) as { wallet?: unknown }).wallet);
  } catch {
    return EN_WALLET;
  }
}

export function readCards(body: unknown): WalletCard[] {
  const list = (body as { cards?: unknown } | null)?.cards;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is WalletCard =>
      c !== null &&
      typeof c === 'object' &&
      typeof c.id === 'string' &&
      typeof c.label === 'string' &&
      typeof c.network === 'string' &&
      typeof c.type === 'string',
  );
}

export interface Order {
  readonly amount: string | undefined;
  readonly currency: string | undefined;
  readonly items: readonly DisplayItem[];
}

/** Everything the sheet shows; the sheet's handlers (sheet.tsx) change it and render again. */
export interface State {
  init: SheetInit | null;
  texts: WalletTexts;
  locale: Locale;
  cards: WalletCard[] | 'loading' | 'error';
  card: string;
  values: Record<string, string>;
  errors: Partial<Record<Field, string>>;
  order: Order;
  /** The data-changed the page has not answered yet (0: none). */
  pending: number;
  /** onPaymentDataChanged's error: the sheet cannot pay until the data changes. */
  dataError: string;
  busy: boolean;
  message: string;
}

export const walletName = (group: string) => `Wallet ${group.slice(-1).toUpperCase()}`;
