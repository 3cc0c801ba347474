/**
 * What a channel accepts, as the admin API's fields take it (the contract's, shared/contract/
 * admin-inputs.ts): `brands` (known brands of shared/brands), `currencies` (ISO 4217) and, for
 * bank-transfer methods (PREPAYMENT), the merchant's `bankAccount` the shopper transfers to. The
 * contract says their shape; these schemas check them against the gateway's catalogues (every
 * fault named by its field) and give them as stored: each item once, in the order given, an IBAN
 * normalized, a BIC and a country in capitals.
 */
import * as z from 'zod';
import { isKnownBrand, listBrands, validateBic, validateIban } from '../../../shared/brands';
import { bankAccountInput } from '../../../shared/contract/admin-inputs';
import type { MerchantBankAccount } from '../../../shared/engine/core/model';
import { isCountry2 } from '../../../shared/geo';
import { isCurrency } from '../../../shared/money';

/** A change of what the channel accepts: undefined keeps the value, null removes it (brands, currencies: all). */
export interface AcceptanceChange {
  readonly brands?: readonly string[] | null;
  readonly currencies?: readonly string[] | null;
  readonly bankAccount?: MerchantBankAccount | null;
}

/** A catalogue a list's items are checked against, and what a fault says. */
interface Catalogue {
  readonly known: (item: string) => boolean;
  /** Not a list, or an empty one. */
  readonly empty: string;
  readonly unknown: (items: readonly string[]) => string;
}

/** The items of a list: an array of text, or (`text`) one text separated by spaces or commas. */
function itemsOf(value: unknown, text: boolean): string[] | undefined {
  if (text && typeof value === 'string') return value.split(/[\s,]+/).filter((item) => item !== '');
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return undefined;
}

/** A list of the catalogue's items (an array; `text`: or one text of them), each once, in order. */
export const catalogued = (catalogue: Catalogue, text = false) =>
  z.unknown().transform((value, ctx): string[] => {
    const items = itemsOf(value, text);
    const unknown = items?.filter((item) => !catalogue.known(item)) ?? [];
    if (items === undefined || items.length === 0 || unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: items === undefined || items.length === 0 ? catalogue.empty : catalogue.unknown(unknown),
      });
      return z.NEVER;
    }
    return [...new Set(items)];
  });

const BRANDS: Catalogue = {
  known: isKnownBrand,
  empty: 'must name at least one brand (or "all" to accept every brand)',
  unknown: (items) => `unknown brand ${items.join(', ')}; known brands: ${listBrands().join(' ')}`,
};
const CURRENCIES: Catalogue = {
  known: isCurrency,
  empty: 'must name at least one currency (or "all" to accept any)',
  unknown: (items) => `not an ISO 4217 currency code: ${items.join(', ')}`,
};

/** A route's lists: arrays, as the contract's `connectorRouteInput` says. */
export const brandList = catalogued(BRANDS);
export const currencyList = catalogued(CURRENCIES);

/** A channel's list: an array or one text of them; null and "all" accept every one (null). Optional where used. */
const channelList = (catalogue: Catalogue) => {
  const list = catalogued(catalogue, true);
  return z.unknown().transform((value, ctx): string[] | null => {
    if (value === null || value === 'all') return null;
    const parsed = list.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });
};

export const channelBrands = channelList(BRANDS);
export const channelCurrencies = channelList(CURRENCIES);

/** A bank account's text: trimmed; not text at all is said so, absent is `missing`. */
const trimmedText = (missing: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? missing : 'must be a string') }).trim();

/**
 * The merchant's account (spec: merchant.bankAccount holder AN 4-128, number = IBAN, bic,
 * country): the contract's fields, no other.
 */
export const bankAccount = z
  .strictObject(
    bankAccountInput.extend({
      holder: trimmedText('is required: 4 to 128 characters')
        .min(4, 'is required: 4 to 128 characters')
        .max(128, 'is required: 4 to 128 characters'),
      iban: trimmedText('is required').transform((iban, ctx) => {
        const checked = validateIban(iban);
        if (checked.ok) return checked.normalized;
        ctx.addIssue({ code: 'custom', message: `is not a valid IBAN (${checked.reason})` });
        return z.NEVER;
      }),
      bic: trimmedText('is required: 8 or 11 letters and digits')
        .refine(validateBic, 'is required: 8 or 11 letters and digits')
        .transform((bic) => bic.toUpperCase()),
      bankName: trimmedText('must be 1 to 128 characters')
        .min(1, 'must be 1 to 128 characters')
        .max(128, 'must be 1 to 128 characters')
        .optional(),
      country: trimmedText('must be an ISO 3166-1 alpha-2 country code')
        .transform((country) => country.toUpperCase())
        .refine(isCountry2, 'must be an ISO 3166-1 alpha-2 country code')
        .optional(),
    }).shape,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'is not a bank account field'
          : 'must be an object with holder, iban and bic',
    },
  )
  .transform(
    (account): MerchantBankAccount => ({
      holder: account.holder,
      iban: account.iban,
      bic: account.bic,
      ...(account.bankName === undefined ? {} : { bankName: account.bankName }),
      ...(account.country === undefined ? {} : { country: account.country }),
    }),
  );
