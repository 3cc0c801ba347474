/**
 * The operator CLI's commands on merchants, channels (entityIds) and their settings, and access
 * tokens: thin translators over the back office (server/backoffice/: the procedures, their checks
 * and audit entries, the views every face prints). Each command takes the store and an output
 * writer, so tests call them directly; `run.ts` maps argv onto them. Secrets never leave here
 * except the new access token, printed once by `createToken`: the store keeps only its userId and
 * a hash.
 */
import type { Channel, ChannelMode, Environment, Merchant } from '../../shared/engine/core/model';
import { type Clock, type MerchantDirectory, type Store, systemClock } from '../../shared/engine/core/ports';
import { type Audit, cliActor, writeAudit } from '../backoffice/audit/audit';
import * as channels from '../backoffice/channels/channels';
import { connectorSetup } from '../backoffice/channels/connector';
import { type AcceptanceChange, type ChannelView, channelView } from '../backoffice/channels/settings';
import type { BackofficeContext } from '../backoffice/context';
import * as merchants from '../backoffice/merchants/merchants';
import type { IssuedToken } from '../backoffice/tokens/issue';
import * as tokens from '../backoffice/tokens/tokens';
import type { EgressPolicy } from '../security/egress';
import { checkId, checkThrottle, type FieldFlags, translated, usageError } from './args';
import { CONNECTOR_FLAGS } from './connector-flags';
import { routeFieldFlags } from './route-flags';

/** Where a command writes: `out` for results (stdout), `err` for notices and warnings (stderr). */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export interface CommandContext {
  readonly store: Store;
  readonly output: Output;
  /** Machine-readable output: one JSON document on `out`. */
  readonly json?: boolean;
  readonly clock?: Clock;
  /**
   * Where the gateway may call (server/security/egress.ts: NODE_ENV, GATEWAY_CALLBACK_ALLOW):
   * connector and webhook URLs it refuses are refused here. None: not checked.
   */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
  /**
   * The audit log, as `cli:<os user>` from `cli` (run.ts: backoffice/audit/audit.ts's writer, the admin API's
   * own): every change a command makes is written there. None: `cliActor()` on the store.
   */
  readonly audit?: Audit;
}

/**
 * The audit writer of a command: the context's (`run`: `cli:<os user>`), else, for a procedure
 * called in process (tests, the e2e kit), the same actor on the context's store when it keeps
 * an audit log.
 */
function auditOf(ctx: CommandContext): Audit {
  if (ctx.audit !== undefined) return ctx.audit;
  const store = ctx.store as Store & Partial<Parameters<typeof writeAudit>[0]>;
  const actor = cliActor();
  return store.appendAudit === undefined
    ? async () => {}
    : (action, target, merchantId) =>
        writeAudit({ appendAudit: store.appendAudit! }, clockOf(ctx), actor, action, target, merchantId);
}

/** One audit entry for a change the command made (backoffice/audit/audit.ts). */
export const audited = (
  ctx: CommandContext,
  action: string,
  target: string | null,
  merchantId: string | null,
): Promise<void> => auditOf(ctx)(action, target, merchantId);

/** The back office's context for a command: the CLI acts as operator. */
export const backoffice = (ctx: CommandContext): BackofficeContext => ({
  store: ctx.store,
  clock: clockOf(ctx),
  audit: auditOf(ctx),
});

export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.output.out(JSON.stringify(value, null, 2));
}

/** Left-aligned columns, two spaces apart; the last column is not padded. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => [...(row[i] ?? '')].length)));
  return all.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length)))
      .join('  '),
  );
}

export function printTable(
  ctx: CommandContext,
  header: readonly string[],
  rows: readonly (readonly string[])[],
) {
  for (const line of table(header, rows)) ctx.output.out(line);
}

/** A listing: the items (or their JSON views) with --json, else a table with a row per item. */
export function printList<T>(
  ctx: CommandContext,
  items: readonly T[],
  header: readonly string[],
  row: (item: T) => readonly string[],
  view: (item: T) => unknown = (item) => item,
): void {
  if (ctx.json) printJson(ctx, items.map(view));
  else printTable(ctx, header, items.map(row));
}

/** The command's clock: the context's, else the system's. */
export const clockOf = (ctx: CommandContext): Clock => ctx.clock ?? systemClock;

// ---------------------------------------------------------------------------------------------
// Views: what is printed, the back office's own (no secret hashes, no connector tokens).

export { type ChannelView, channelView };
export const merchantView = merchants.merchantView;
export const tokenView = tokens.tokenView;
export type { MerchantView } from '../backoffice/merchants/merchants';
export type { TokenView } from '../backoffice/tokens/tokens';

// ---------------------------------------------------------------------------------------------
// Merchants

export async function requireMerchant(
  store: Pick<MerchantDirectory, 'getMerchant'>,
  merchantId: string,
): Promise<Merchant> {
  checkId(merchantId, 'merchant id');
  return translated(() => merchants.requireMerchant(store, merchantId));
}

/** The flags a merchant's fields come from. */
const MERCHANT_FLAGS: FieldFlags = { name: '--name', dispatching: '--dispatching' };

/** `--name` checked by the back office's one rule (usage errors name the flag). */
export const checkMerchantName = (name: string): merchants.NewMerchant =>
  translated(() => merchants.parseNewMerchant({ name }), MERCHANT_FLAGS);

export async function createMerchant(
  ctx: CommandContext,
  input: { readonly name: string },
): Promise<Merchant> {
  return addMerchant(ctx, checkMerchantName(input.name));
}

/** Creates a merchant checked by checkMerchantName and prints it. */
export async function addMerchant(ctx: CommandContext, checked: merchants.NewMerchant): Promise<Merchant> {
  const merchant = await translated(() => merchants.createMerchant(backoffice(ctx), checked));
  if (ctx.json) printJson(ctx, merchantView(merchant));
  else ctx.output.out(merchant.id);
  return merchant;
}

/** Turns a merchant's channel dispatching on or off (`gateway merchant set ID --dispatching on|off`). */
export async function setMerchant(
  ctx: CommandContext,
  input: { readonly merchantId: string; readonly dispatching?: boolean },
): Promise<Merchant> {
  checkId(input.merchantId, 'merchant id');
  const change = translated(
    () => merchants.parseMerchantUpdate({ dispatching: input.dispatching }),
    MERCHANT_FLAGS,
  );
  const updated = await translated(() => merchants.updateMerchant(backoffice(ctx), input.merchantId, change));
  if (ctx.json) printJson(ctx, merchantView(updated));
  else ctx.output.out(`merchant ${updated.id}: dispatching ${updated.dispatching === true ? 'on' : 'off'}`);
  return updated;
}

export async function listMerchants(ctx: CommandContext): Promise<Merchant[]> {
  const all = await merchants.listMerchants(ctx.store);
  printList(
    ctx,
    all,
    ['ID', 'CREATED', 'NAME'],
    (m) => [m.id, m.createdAt.toISOString(), `${m.name}${m.dispatching === true ? ' (dispatching)' : ''}`],
    merchantView,
  );
  return all;
}

// ---------------------------------------------------------------------------------------------
// Channels

export interface CreateChannelInput {
  readonly merchantId: string;
  readonly name: string;
  /** Default TEST. */
  readonly mode?: ChannelMode;
  readonly threeDSecure?: boolean;
  /** One-click payments with a stored card must carry its CVV (default off). */
  readonly registrationsRequireCvv?: boolean;
  readonly throttlePerMinute?: number;
  /** What the channel accepts (checked by the back office, channels/settings.ts); absent: everything. */
  readonly accepts?: AcceptanceChange;
}

/** The flags a channel's fields come from (the admin API's JSON names, checkChannelInput). */
export const CHANNEL_FLAGS: FieldFlags = {
  name: '--name',
  mode: '--mode',
  threeDSecure: '--3ds',
  registrationsRequireCvv: '--require-cvv',
  throttlePerMinute: '--throttle',
  brands: '--brands',
  currencies: '--currencies',
  'bankAccount.holder': '--bank-holder',
  'bankAccount.iban': '--bank-iban',
  'bankAccount.bic': '--bank-bic',
  'bankAccount.bankName': '--bank-name',
  'bankAccount.country': '--bank-country',
  ...CONNECTOR_FLAGS,
};

/** A connector as given: the admin API's `connector` object (kind, baseUrl, the kind's credentials). */
export type ConnectorBody = Readonly<Record<string, unknown>>;

/** What a channel accepts as given (checked or not): brands, currencies (null or "all": all), bankAccount. */
export interface AcceptsBody {
  readonly brands?: unknown;
  readonly currencies?: unknown;
  readonly bankAccount?: unknown;
}

/** A channel's settings as the admin API's JSON body: what the back office checks. */
export function channelBody(input: {
  readonly name?: string;
  readonly mode?: ChannelMode;
  readonly threeDSecure?: boolean;
  readonly registrationsRequireCvv?: boolean;
  readonly throttlePerMinute?: number | 'default';
  readonly accepts?: AcceptsBody;
  /** The admin API's `connector` object (null: remove it). */
  readonly connector?: ConnectorBody | null;
  /** The admin API's `routes` array (null: remove them). */
  readonly routes?: readonly ConnectorBody[] | null;
}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...input.accepts };
  if (input.connector !== undefined) body.connector = input.connector;
  if (input.routes !== undefined) body.routes = input.routes;
  if (input.name !== undefined) body.name = input.name;
  if (input.mode !== undefined) body.mode = input.mode;
  if (input.threeDSecure !== undefined) body.threeDSecure = input.threeDSecure;
  if (input.registrationsRequireCvv !== undefined)
    body.registrationsRequireCvv = input.registrationsRequireCvv;
  if (input.throttlePerMinute !== undefined)
    body.throttlePerMinute = input.throttlePerMinute === 'default' ? null : input.throttlePerMinute;
  return body;
}

/** A new channel's settings checked (usage errors name the flags). */
export const checkNewChannel = (body: Readonly<Record<string, unknown>>): channels.NewChannel =>
  translated(() => channels.parseNewChannel(body), CHANNEL_FLAGS);

/** Creates a checked channel (checkNewChannel) and prints it. */
export async function addChannel(
  ctx: CommandContext,
  merchantId: string,
  checked: channels.NewChannel,
): Promise<Channel> {
  checkId(merchantId, 'merchant id');
  const channel = await translated(() => channels.createChannel(backoffice(ctx), merchantId, checked));
  if (ctx.json) printJson(ctx, channelView(channel));
  else ctx.output.out(channel.id);
  return channel;
}

export async function createChannel(ctx: CommandContext, input: CreateChannelInput): Promise<Channel> {
  const { merchantId, ...settings } = input;
  return addChannel(ctx, merchantId, checkNewChannel(channelBody(settings)));
}

/** What a channel accepts, as columns: only when a listed channel restricts it or has a bank account. */
const ACCEPTS_HEADER = ['BRANDS', 'CURRENCIES', 'BANK ACCOUNT'];
const restricts = (c: Channel): boolean =>
  c.settings.brands !== undefined ||
  c.settings.currencies !== undefined ||
  c.settings.bankAccount !== undefined;

function channelRow(c: Channel, accepts: boolean): string[] {
  const v = channelView(c);
  return [
    v.entityId,
    v.mode,
    v.threeDSecure ? 'on' : 'off',
    v.throttlePerMinute === null ? 'default' : `${v.throttlePerMinute}/min`,
    v.connector === null
      ? '-'
      : `${v.connector.baseUrl} (${v.connector.kind === undefined ? v.connector.entityId : v.connector.kind})`,
    ...(accepts
      ? [
          v.brands === null ? 'all' : v.brands.join(' '),
          v.currencies === null ? 'all' : v.currencies.join(' '),
          v.bankAccount === null ? '-' : `${v.bankAccount.iban} (${v.bankAccount.holder})`,
        ]
      : []),
    v.name,
  ];
}

function printChannels(ctx: CommandContext, channels: readonly Channel[]): void {
  const accepts = channels.some(restricts);
  const header = [
    'ENTITY ID',
    'MODE',
    '3DS',
    'THROTTLE',
    'CONNECTOR',
    ...(accepts ? ACCEPTS_HEADER : []),
    'NAME',
  ];
  printTable(
    ctx,
    header,
    channels.map((c) => channelRow(c, accepts)),
  );
}

export async function listChannels(
  ctx: CommandContext,
  input: { readonly merchantId: string },
): Promise<Channel[]> {
  const merchant = await requireMerchant(ctx.store, input.merchantId);
  const all = await ctx.store.listChannels(merchant.id);
  if (ctx.json) printJson(ctx, all.map(channelView));
  else printChannels(ctx, all);
  return all;
}

export interface SetChannelInput {
  readonly entityId: string;
  readonly threeDSecure?: boolean;
  readonly registrationsRequireCvv?: boolean;
  /** `default`: remove the channel's own limit. */
  readonly throttlePerMinute?: number | 'default';
  /** The connector as the admin API's `connector` object (a stored opp one has its shape); null: remove it. */
  readonly connector?: ConnectorBody | null;
  /** The routes as the admin API's `routes` array (route-flags.ts); null: remove them. */
  readonly routes?: readonly ConnectorBody[] | null;
  /** What the channel accepts: brands, currencies (null or "all": all), the bank account (null: none). */
  readonly accepts?: AcceptsBody;
}

/** The input checked (usage errors); the connector is checked by the back office with the rest. */
export function checkSetChannel(input: SetChannelInput): SetChannelInput {
  if (
    input.threeDSecure === undefined &&
    input.registrationsRequireCvv === undefined &&
    input.throttlePerMinute === undefined &&
    input.connector === undefined &&
    input.routes === undefined &&
    Object.keys(input.accepts ?? {}).length === 0
  )
    throw usageError(
      'nothing to change: give --3ds, --require-cvv, --throttle, --brands, --currencies, the bank account, the connector options or --route',
    );
  checkId(input.entityId, 'channel id');
  if (typeof input.throttlePerMinute === 'number') checkThrottle(input.throttlePerMinute);
  return input;
}

/** A change of a channel, checked: the settings (the connector among them) as the back office took them. */
export interface ChannelChange {
  readonly entityId: string;
  readonly change: ReturnType<typeof channels.parseChannelUpdate>;
}

/** The change checked before the store is opened (usage errors name the flags). */
export function checkChannelChange(request: SetChannelInput): ChannelChange {
  const { entityId, ...settings } = checkSetChannel(request);
  const flags = { ...CHANNEL_FLAGS, ...routeFieldFlags(settings.routes) };
  const change = translated(() => channels.parseChannelUpdate(channelBody(settings)), flags);
  return { entityId, change };
}

/**
 * Applies a checked change: only the settings given change, the others keep their values. A
 * connector set is answered once with what to give the processor (`connectorSetup`).
 */
export async function changeChannel(ctx: CommandContext, checked: ChannelChange): Promise<Channel> {
  const given = checked.change.connector?.baseUrl;
  const refused = given === undefined ? undefined : ctx.egress?.checkUrl(given);
  if (refused !== undefined) throw usageError(`connector URL ${refused}`);
  const updated = await translated(
    async () =>
      channels.updateChannel(
        backoffice(ctx),
        await channels.requireChannel(ctx.store, checked.entityId),
        checked.change,
        ctx.egress,
      ),
    { ...CHANNEL_FLAGS, ...routeFieldFlags(checked.change.routes) },
  );
  const connector = updated.settings.connector;
  const setup =
    checked.change.connector == null || connector === undefined
      ? {}
      : { connectorSetup: connectorSetup(connector, updated.id) };
  if (ctx.json) printJson(ctx, { ...channelView(updated), ...setup });
  else printChannels(ctx, [updated]);
  return updated;
}

export async function setChannel(ctx: CommandContext, request: SetChannelInput): Promise<Channel> {
  return changeChannel(ctx, checkChannelChange(request));
}

// ---------------------------------------------------------------------------------------------
// Access tokens

export const TOKEN_WARNING =
  'This access token is shown only once: the gateway stores only a hash of its secret and cannot show it again. Keep it secret.';

const TOKEN_FLAGS: FieldFlags = { environment: '--environment', channels: '--channel' };

export interface CreateTokenInput {
  readonly merchantId: string;
  readonly channelIds?: readonly string[];
  /** Else the channels', else test; must match the channels' when both are given. */
  readonly environment?: Environment | string;
}

/** A new token's input checked (usage errors name the flags). */
export function checkNewToken(input: CreateTokenInput): tokens.NewToken {
  checkId(input.merchantId, 'merchant id');
  for (const id of input.channelIds ?? []) checkId(id, 'channel id');
  return translated(
    () =>
      tokens.parseNewToken({
        ...(input.environment === undefined ? {} : { environment: input.environment }),
        ...(input.channelIds === undefined ? {} : { channels: [...input.channelIds] }),
      }),
    TOKEN_FLAGS,
  );
}

export async function createToken(ctx: CommandContext, input: CreateTokenInput): Promise<IssuedToken> {
  return addToken(ctx, input.merchantId, checkNewToken(input));
}

/** Issues a token checked by checkNewToken and prints it once. */
export async function addToken(
  ctx: CommandContext,
  merchantId: string,
  checked: tokens.NewToken,
): Promise<IssuedToken> {
  const issued = await translated(
    () => tokens.createToken(backoffice(ctx), merchantId, checked),
    TOKEN_FLAGS,
  );
  const { token, accessToken } = issued;
  if (ctx.json) printJson(ctx, { ...tokenView(token), accessToken });
  else {
    const scope =
      token.channelIds.length === 0
        ? `all ${token.environment} channels`
        : `${token.environment} channels ${token.channelIds.join(', ')}`;
    ctx.output.err(
      `Access token ${token.id} for merchant ${token.merchantId} (userId ${token.userId}, ${scope}):`,
    );
    ctx.output.out(accessToken);
  }
  ctx.output.err(`WARNING: ${TOKEN_WARNING}`);
  return issued;
}

export async function listTokens(
  ctx: CommandContext,
  input: { readonly merchantId: string },
): Promise<tokens.TokenView[]> {
  checkId(input.merchantId, 'merchant id');
  const views = await translated(() => tokens.listTokens(ctx, input.merchantId));
  printList(ctx, views, ['ID', 'USER ID', 'ENVIRONMENT', 'CREATED', 'REVOKED', 'CHANNELS'], (t) => [
    t.id,
    t.userId,
    t.environment,
    t.createdAt,
    t.revokedAt ?? 'no',
    t.channels.length === 0 ? 'all' : t.channels.join(','),
  ]);
  return views;
}

/** Revokes an active token; a server refuses it within a few seconds (its token cache). */
export async function revokeToken(ctx: CommandContext, input: { readonly tokenId: string }): Promise<void> {
  checkId(input.tokenId, 'token id');
  const revoked = await translated(() => tokens.revokeToken(backoffice(ctx), input.tokenId, null));
  if (ctx.json)
    printJson(ctx, { id: revoked.tokenId, revoked: true, revokedAt: revoked.revokedAt.toISOString() });
  else ctx.output.out(`revoked token ${input.tokenId}`);
}
