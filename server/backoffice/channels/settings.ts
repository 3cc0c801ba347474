/**
 * A channel's settings as an operator changes them, one check for the CLI (`gateway channel
 * create|set|list`) and the admin API (`/admin/v1/merchants/{m}/channels`, `/admin/v1/channels/{id}`):
 * checked field by field (errors name the field), applied to the stored settings, and viewed
 * without secrets (no connector token, the merchant's IBAN masked).
 *
 * What a channel accepts: `brands` (known brands of shared/brands; absent: every brand the gateway
 * supports), `currencies` (ISO 4217; absent: any) and, for bank-transfer methods (PREPAYMENT), the
 * merchant's `bankAccount` the shopper transfers to.
 */
import { isKnownBrand, listBrands, maskIban, validateBic, validateIban } from '../../../shared/brands';
import {
  bankAccountInput,
  channelSettingsInput,
  newChannelInput,
} from '../../../shared/contract/admin-inputs';
import type {
  Channel,
  ChannelMode,
  ChannelSettings,
  ConnectorSettings,
  MerchantBankAccount,
} from '../../../shared/engine/core/model';
import { isCountry2 } from '../../../shared/geo';
import { isCurrency } from '../../../shared/money';
import { type FieldError, shown } from '../errors';
import { displayName } from '../names';
import { type ConnectorChange, parseConnector } from './connector';

export type { FieldError };

/** A change of what the channel accepts: undefined keeps the value, null removes it (brands, currencies: all). */
export interface AcceptanceChange {
  readonly brands?: readonly string[] | null;
  readonly currencies?: readonly string[] | null;
  readonly bankAccount?: MerchantBankAccount | null;
}

/** A list of brands or currencies: an array of strings, or one string separated by spaces or commas. */
function listOf(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((item) => item !== '');
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return undefined;
}

/** Known brands, each once, in the order given. */
export function checkBrands(value: unknown, name = 'brands'): string[] | FieldError {
  const brands = listOf(value);
  if (brands === undefined || brands.length === 0)
    return {
      name,
      value: shown(value),
      message: 'must name at least one brand (or "all" to accept every brand)',
    };
  const unknown = brands.filter((brand) => !isKnownBrand(brand));
  if (unknown.length > 0)
    return {
      name,
      value: shown(value),
      message: `unknown brand ${unknown.join(', ')}; known brands: ${listBrands().join(' ')}`,
    };
  return [...new Set(brands)];
}

/** ISO 4217 codes, each once, in the order given. */
export function checkCurrencies(value: unknown, name = 'currencies'): string[] | FieldError {
  const codes = listOf(value);
  if (codes === undefined || codes.length === 0)
    return { name, value: shown(value), message: 'must name at least one currency (or "all" to accept any)' };
  const unknown = codes.filter((code) => !isCurrency(code));
  if (unknown.length > 0)
    return { name, value: shown(value), message: `not an ISO 4217 currency code: ${unknown.join(', ')}` };
  return [...new Set(codes)];
}

/** The merchant's account (spec: merchant.bankAccount holder AN 4-128, number = IBAN, bic, country). */
export function checkBankAccount(value: unknown, name = 'bankAccount'): MerchantBankAccount | FieldError[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [{ name, value: shown(value), message: 'must be an object with holder, iban and bic' }];
  const input = value as Record<string, unknown>;
  const errors: FieldError[] = [];
  const text = (field: string): string | undefined => {
    const v = input[field];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v.trim();
    errors.push({ name: `${name}.${field}`, value: shown(v), message: 'must be a string' });
    return undefined;
  };
  const holder = text('holder');
  const iban = text('iban');
  const bic = text('bic');
  const bankName = text('bankName');
  const country = text('country');
  if (holder === undefined || holder.length < 4 || holder.length > 128)
    errors.push({
      name: `${name}.holder`,
      value: holder ?? null,
      message: 'is required: 4 to 128 characters',
    });
  const checkedIban = iban === undefined ? undefined : validateIban(iban);
  if (checkedIban === undefined || !checkedIban.ok)
    errors.push({
      name: `${name}.iban`,
      // never echoed in full: an account number
      value: iban === undefined ? null : maskIban(iban),
      message: checkedIban === undefined ? 'is required' : `is not a valid IBAN (${checkedIban.reason})`,
    });
  if (bic === undefined || !validateBic(bic))
    errors.push({
      name: `${name}.bic`,
      value: bic ?? null,
      message: 'is required: 8 or 11 letters and digits',
    });
  if (bankName !== undefined && (bankName.length < 1 || bankName.length > 128))
    errors.push({ name: `${name}.bankName`, value: bankName, message: 'must be 1 to 128 characters' });
  if (country !== undefined && !isCountry2(country.toUpperCase()))
    errors.push({
      name: `${name}.country`,
      value: country,
      message: 'must be an ISO 3166-1 alpha-2 country code',
    });
  for (const field of Object.keys(input))
    if (!(field in bankAccountInput.shape))
      errors.push({
        name: `${name}.${field}`,
        value: shown(input[field]),
        message: 'is not a bank account field',
      });
  if (errors.length > 0 || holder === undefined || bic === undefined || !checkedIban?.ok) return errors;
  return {
    holder,
    iban: checkedIban.normalized,
    bic: bic.toUpperCase(),
    ...(bankName === undefined ? {} : { bankName }),
    ...(country === undefined ? {} : { country: country.toUpperCase() }),
  };
}

/** The settings with the change applied; the others keep their values. */
export function applyAcceptance(settings: ChannelSettings, change: AcceptanceChange): ChannelSettings {
  const { brands, currencies, bankAccount, ...rest } = settings;
  const next = <T>(old: T | undefined, given: T | null | undefined): T | undefined =>
    given === undefined ? old : (given ?? undefined);
  const nextBrands = next(brands, change.brands);
  const nextCurrencies = next(currencies, change.currencies);
  const nextAccount = next(bankAccount, change.bankAccount);
  return {
    ...rest,
    ...(nextBrands === undefined ? {} : { brands: nextBrands }),
    ...(nextCurrencies === undefined ? {} : { currencies: nextCurrencies }),
    ...(nextAccount === undefined ? {} : { bankAccount: nextAccount }),
  };
}

// ---- the admin API's JSON ----------------------------------------------------------------------

/** A channel's fields as the admin API takes them (create: name required; update: settings only). */
export interface ChannelInput {
  readonly name?: string;
  readonly mode?: ChannelMode;
  readonly threeDSecure?: boolean;
  /** One-click payments with a stored card must carry its CVV. */
  readonly registrationsRequireCvv?: boolean;
  /** null: the gateway default. */
  readonly throttlePerMinute?: number | null;
  readonly accepts: AcceptanceChange;
  /** The connector (connector.ts: its kind and credentials, the URL resolved by the mode); null removes it. */
  readonly connector?: ConnectorChange | null;
}

const MAX_THROTTLE = 1_000_000;

/**
 * The admin API's body checked field by field: `name` and `mode` (creation only), `threeDSecure`,
 * `registrationsRequireCvv`, `throttlePerMinute` (null: the default), `brands` and `currencies`
 * (arrays or space-separated strings; null or "all": all), `bankAccount` ({holder, iban, bic,
 * bankName?, country?}; null: none), `connector` ({kind, baseUrl, and the kind's credentials}:
 * connector.ts; null: none).
 */
export function checkChannelInput(
  body: Readonly<Record<string, unknown>>,
  creating: boolean,
): ChannelInput | FieldError[] {
  const errors: FieldError[] = [];
  // the fields are the contract's (shared/contract/admin-inputs.ts), in its order
  const allowed = Object.keys(channelSettingsInput.shape);
  if (creating)
    allowed.push(...Object.keys(newChannelInput.shape).filter((field) => !allowed.includes(field)));
  for (const field of Object.keys(body))
    if (!allowed.includes(field))
      errors.push({
        name: field,
        value: shown(body[field]),
        message: creating ? 'is not a channel field' : `cannot be changed here (only ${allowed.join(', ')})`,
      });
  let name: string | undefined;
  if (creating) {
    // the one rule of merchant and channel names (backoffice/names.ts)
    const checked = displayName.safeParse(body.name);
    if (checked.success) name = checked.data;
    else
      errors.push({
        name: 'name',
        value: shown(body.name),
        message: checked.error.issues[0]?.message ?? 'is required',
      });
  }
  const mode = body.mode;
  if (mode !== undefined && mode !== 'TEST' && mode !== 'LIVE')
    errors.push({ name: 'mode', value: shown(mode), message: 'must be TEST or LIVE' });
  const threeDSecure = body.threeDSecure;
  const requireCvv = body.registrationsRequireCvv;
  for (const [field, v] of [
    ['threeDSecure', threeDSecure],
    ['registrationsRequireCvv', requireCvv],
  ] as const)
    if (v !== undefined && typeof v !== 'boolean')
      errors.push({ name: field, value: shown(v), message: 'must be true or false' });
  const throttle = body.throttlePerMinute;
  if (
    throttle !== undefined &&
    throttle !== null &&
    !(typeof throttle === 'number' && Number.isInteger(throttle) && throttle >= 1 && throttle <= MAX_THROTTLE)
  )
    errors.push({
      name: 'throttlePerMinute',
      value: shown(throttle),
      message: `must be a whole number from 1 to ${MAX_THROTTLE}, or null for the gateway default`,
    });
  const accepts: { -readonly [K in keyof AcceptanceChange]: AcceptanceChange[K] } = {};
  const all = (v: unknown) => v === null || v === 'all';
  if (body.brands !== undefined) {
    const checked = all(body.brands) ? null : checkBrands(body.brands);
    if (checked !== null && !Array.isArray(checked)) errors.push(checked);
    else accepts.brands = checked;
  }
  if (body.currencies !== undefined) {
    const checked = all(body.currencies) ? null : checkCurrencies(body.currencies);
    if (checked !== null && !Array.isArray(checked)) errors.push(checked);
    else accepts.currencies = checked;
  }
  if (body.bankAccount !== undefined) {
    const checked = body.bankAccount === null ? null : checkBankAccount(body.bankAccount);
    if (Array.isArray(checked)) errors.push(...checked);
    else accepts.bankAccount = checked;
  }
  let connector: ConnectorChange | null | undefined;
  if (body.connector !== undefined) {
    const checked = body.connector === null ? null : parseConnector(body.connector);
    if (Array.isArray(checked)) errors.push(...checked);
    else connector = checked;
  }
  if (errors.length > 0) return errors;
  return {
    ...(connector === undefined ? {} : { connector }),
    ...(name === undefined ? {} : { name }),
    ...(mode === undefined ? {} : { mode: mode as ChannelMode }),
    ...(threeDSecure === undefined ? {} : { threeDSecure: threeDSecure as boolean }),
    ...(requireCvv === undefined ? {} : { registrationsRequireCvv: requireCvv as boolean }),
    ...(throttle === undefined ? {} : { throttlePerMinute: throttle as number | null }),
    accepts,
  };
}

/**
 * A connector as the back office shows it: its kind and address, never its credentials. An opp
 * connector is shown as it was before kinds existed (address and entity, no kind).
 */
export type ConnectorView =
  | { readonly kind?: undefined; readonly baseUrl: string; readonly entityId: string }
  | { readonly kind: 'adyen'; readonly baseUrl: string; readonly merchantAccount: string }
  | { readonly kind: 'stripe'; readonly baseUrl: string };

export function connectorView(connector: ConnectorSettings): ConnectorView {
  switch (connector.kind) {
    case undefined:
    case 'opp':
      return { baseUrl: connector.baseUrl, entityId: connector.entityId };
    case 'adyen':
      return { kind: 'adyen', baseUrl: connector.baseUrl, merchantAccount: connector.merchantAccount };
    case 'stripe':
      return { kind: 'stripe', baseUrl: connector.baseUrl };
  }
}

/** The settings with an admin API change applied; those not given keep their values. */
export function applyChannelInput(settings: ChannelSettings, input: ChannelInput): ChannelSettings {
  const { throttlePerMinute: oldThrottle, ...rest } = settings;
  const throttle =
    input.throttlePerMinute === undefined ? oldThrottle : (input.throttlePerMinute ?? undefined);
  return applyAcceptance(
    {
      ...rest,
      ...(input.threeDSecure === undefined ? {} : { threeDSecure: input.threeDSecure }),
      ...(input.registrationsRequireCvv === undefined
        ? {}
        : { registrationsRequireCvv: input.registrationsRequireCvv }),
      ...(throttle === undefined ? {} : { throttlePerMinute: throttle }),
    },
    input.accepts,
  );
}

// ---- what is shown ------------------------------------------------------------------------------

export interface ChannelView {
  readonly entityId: string;
  readonly merchantId: string;
  readonly name: string;
  readonly mode: ChannelMode;
  readonly threeDSecure: boolean;
  readonly registrationsRequireCvv: boolean;
  /** null: the gateway default. */
  readonly throttlePerMinute: number | null;
  /** The connector without its credentials; null when none. */
  readonly connector: ConnectorView | null;
  /** The routes (several connectors in order, routes.ts) without credentials; null when none. */
  readonly routes:
    | readonly (Omit<NonNullable<ChannelSettings['routes']>[number], 'connector'> & {
        readonly connector: ConnectorView;
      })[]
    | null;
  /** null: every brand the gateway supports. */
  readonly brands: readonly string[] | null;
  /** null: any currency. */
  readonly currencies: readonly string[] | null;
  /** The merchant's account for bank transfers, the IBAN masked; null when none. */
  readonly bankAccount: (Omit<MerchantBankAccount, 'iban'> & { readonly iban: string }) | null;
  readonly createdAt: string;
}

export const channelView = (c: Channel): ChannelView => ({
  entityId: c.id,
  merchantId: c.merchantId,
  name: c.name,
  mode: c.mode,
  threeDSecure: c.settings.threeDSecure ?? false,
  registrationsRequireCvv: c.settings.registrationsRequireCvv ?? false,
  throttlePerMinute: c.settings.throttlePerMinute ?? null,
  connector: c.settings.connector === undefined ? null : connectorView(c.settings.connector),
  routes:
    c.settings.routes === undefined
      ? null
      : c.settings.routes.map((route) => ({ ...route, connector: connectorView(route.connector) })),
  brands: c.settings.brands === undefined ? null : [...c.settings.brands],
  currencies: c.settings.currencies === undefined ? null : [...c.settings.currencies],
  bankAccount:
    c.settings.bankAccount === undefined
      ? null
      : { ...c.settings.bankAccount, iban: maskIban(c.settings.bankAccount.iban) },
  createdAt: c.createdAt.toISOString(),
});
