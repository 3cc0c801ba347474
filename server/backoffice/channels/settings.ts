/**
 * A channel's settings as an operator changes them, one check for the CLI (`gateway channel
 * create|set|list`) and the admin API (`/admin/v1/merchants/{m}/channels`, `/admin/v1/channels/{id}`):
 * the body parsed with the contract's schemas (shared/contract/admin-inputs.ts: `newChannelInput`,
 * `channelChangeInput`), their lists, bank account, connector and routes checked against the
 * gateway's catalogues (accepts.ts, connector.ts, routes.ts), every fault named by its field;
 * applied to the stored settings, and viewed without secrets (no connector token, the merchant's
 * IBAN masked).
 */
import * as z from 'zod';
import { maskIban } from '../../../shared/brands';
import { channelChangeInput, newChannelInput } from '../../../shared/contract/admin-inputs';
import type {
  Channel,
  ChannelMode,
  ChannelSettings,
  ConnectorSettings,
  MerchantBankAccount,
} from '../../../shared/engine/core/model';
import { checked, type FieldError, invalid } from '../errors';
import { type AcceptanceChange, bankAccount, channelBrands, channelCurrencies } from './accepts';
import { type ConnectorChange, connectorChange, SHOWN_CONNECTOR_FIELDS } from './connector';
import { ROUTE_FIELDS, type RouteChange, routeChanges } from './routes';

export type { AcceptanceChange, FieldError };

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

/** A creation: its name by the one rule of names (names.ts), every setting a change takes but routes. */
export interface NewChannel extends ChannelInput {
  readonly name: string;
}

/** A channel change with its routes (null: removed). */
export type ChannelUpdate = ChannelInput & { readonly routes?: readonly RouteChange[] | null };

/** The fields the gateway's catalogues check, in place of the contract's shapes of them. */
const CHECKED = {
  brands: channelBrands.optional(),
  currencies: channelCurrencies.optional(),
  bankAccount: bankAccount.nullable().optional(),
  connector: connectorChange.nullable().optional(),
};

/** An object of `shape`'s fields and no other (`unknown` says why a field is refused). */
const only = <Shape extends z.ZodRawShape>(shape: Shape, unknown: string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknown : 'must be a JSON object'),
  });

const CHANGEABLE = Object.keys(channelChangeInput.shape);

/** A creation's body (the contract's `newChannelInput`). */
export const newChannelBody = only(newChannelInput.extend(CHECKED).shape, 'is not a channel field');

/** A change's body (the contract's `channelChangeInput`: the settings and the routes, not the name or mode). */
export const channelChangeBody = only(
  channelChangeInput.extend({ ...CHECKED, routes: routeChanges }).shape,
  `cannot be changed here (only ${CHANGEABLE.join(', ')})`,
);

/** What an error may show of a field's value: never a credential, an unknown connector or route field, or a full IBAN. */
function shownSafely(error: FieldError): FieldError {
  const path = error.name.split('.');
  const field = path.at(-1) ?? '';
  const parent = path.at(-2);
  const inRoute = path.length === 3 && path[0] === 'routes';
  if (
    (parent === 'connector' && !SHOWN_CONNECTOR_FIELDS.has(field)) ||
    (inRoute && !ROUTE_FIELDS.includes(field))
  )
    return { ...error, value: null };
  if (parent === 'bankAccount' && field === 'iban' && error.value !== null)
    return { ...error, value: maskIban(error.value.trim()) };
  return error;
}

/** The body parsed, or `invalid` naming every faulty field (values shown safely). */
function parsedBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const verdict = checked(schema, body);
  if (verdict.ok) return verdict.value;
  throw invalid(verdict.errors.map(shownSafely));
}

type Parsed = z.output<typeof channelChangeBody> & { readonly name?: string; readonly mode?: ChannelMode };

/** The parsed body as the procedures take it: what the channel accepts apart, only what was given. */
function channelInput(parsed: Parsed): ChannelInput {
  const { brands, currencies, bankAccount: account, routes: _routes, ...rest } = parsed;
  const accepts: { -readonly [K in keyof AcceptanceChange]: AcceptanceChange[K] } = {};
  if (brands !== undefined) accepts.brands = brands;
  if (currencies !== undefined) accepts.currencies = currencies;
  if (account !== undefined) accepts.bankAccount = account;
  const given = Object.entries(rest).filter(([, value]) => value !== undefined);
  return { ...(Object.fromEntries(given) as Omit<ChannelInput, 'accepts'>), accepts };
}

/** A creation's body checked: every field's error at once, the name by the one rule (names.ts). */
export function parseNewChannel(body: unknown): NewChannel {
  const parsed = parsedBody(newChannelBody, body);
  return { ...channelInput(parsed), name: parsed.name };
}

/** An update's body checked (settings only: name and mode do not change), its routes among them. */
export function parseChannelUpdate(body: unknown): ChannelUpdate {
  const parsed = parsedBody(channelChangeBody, body);
  return parsed.routes === undefined
    ? channelInput(parsed)
    : { ...channelInput(parsed), routes: parsed.routes };
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
