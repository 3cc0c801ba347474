/**
 * The operator CLI's commands: merchants, channels (entityIds) and their settings, and access
 * tokens, in the store the server uses. Each command takes the store and an output writer, so
 * tests call them directly; `run.ts` maps argv onto them. Secrets never leave here except the
 * new access token, printed once by `createToken`: the store keeps only its userId and a hash.
 */
import { newId } from '../../shared/engine/core/ids';
import {
  type AccessToken,
  type Channel,
  type ChannelMode,
  type ChannelSettings,
  type Environment,
  environmentOf,
  type Merchant,
  tokenEnvironment,
} from '../../shared/engine/core/model';
import {
  type ChannelStore,
  type Clock,
  type MerchantDirectory,
  type Store,
  systemClock,
} from '../../shared/engine/core/ports';
import type { Audit } from '../admin/audit';
import { type IssuedToken, issueToken } from '../admin/tokens';
import { type AcceptanceChange, applyAcceptance, type ChannelView, channelView } from '../channels/settings';
import type { EgressPolicy } from '../security/egress';
import {
  checkBaseUrl,
  checkConnectorToken,
  checkId,
  checkName,
  checkThrottle,
  failure,
  usageError,
} from './args';

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
   * The audit log, as `cli:<os user>` from `cli` (run.ts: admin/audit.ts's writer, the admin API's
   * own): every change a command makes is written there. None: a procedure called by a test.
   */
  readonly audit?: Audit;
}

/** One audit entry for a change the command made (admin/audit.ts). */
export const audited = (
  ctx: CommandContext,
  action: string,
  target: string | null,
  merchantId: string | null,
): Promise<void> => ctx.audit?.(action, target, merchantId) ?? Promise.resolve();

// ---------------------------------------------------------------------------------------------
// Views: what is printed. No secret hashes, no connector tokens.

export interface MerchantView {
  readonly id: string;
  readonly name: string;
  /** Channel dispatching (entityId may be the merchant's id): shown when on. */
  readonly dispatching?: true;
  readonly createdAt: string;
}

export interface TokenView {
  readonly id: string;
  readonly merchantId: string;
  readonly userId: string;
  /** Empty: all of the merchant's channels of the token's environment. */
  readonly channelIds: readonly string[];
  readonly environment: Environment;
  readonly revoked: boolean;
  readonly revokedAt: string | null;
  readonly createdAt: string;
}

export const merchantView = (m: Merchant): MerchantView => ({
  id: m.id,
  name: m.name,
  ...(m.dispatching === true ? { dispatching: true as const } : {}),
  createdAt: m.createdAt.toISOString(),
});

export { type ChannelView, channelView };

export const tokenView = (t: AccessToken): TokenView => ({
  id: t.id,
  merchantId: t.merchantId,
  userId: t.userId,
  channelIds: [...t.channelIds],
  environment: tokenEnvironment(t),
  revoked: t.revokedAt !== null,
  revokedAt: t.revokedAt?.toISOString() ?? null,
  createdAt: t.createdAt.toISOString(),
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
const now = (ctx: CommandContext): Date => clockOf(ctx).now();

export async function requireMerchant(
  store: Pick<MerchantDirectory, 'getMerchant'>,
  merchantId: string,
): Promise<Merchant> {
  checkId(merchantId, 'merchant id');
  const merchant = await store.getMerchant(merchantId);
  if (merchant === undefined) throw failure(`unknown merchant ${merchantId}`);
  return merchant;
}

async function requireChannel(store: Pick<ChannelStore, 'getChannel'>, entityId: string): Promise<Channel> {
  checkId(entityId, 'channel id');
  const channel = await store.getChannel(entityId);
  if (channel === undefined) throw failure(`unknown channel ${entityId}`);
  return channel;
}

// ---------------------------------------------------------------------------------------------
// Merchants

export async function createMerchant(
  ctx: CommandContext,
  input: { readonly name: string },
): Promise<Merchant> {
  const merchant: Merchant = {
    id: newId(),
    name: checkName(input.name, 'merchant name'),
    createdAt: now(ctx),
  };
  await ctx.store.insertMerchant(merchant);
  await audited(ctx, 'merchant.create', merchant.id, merchant.id);
  if (ctx.json) printJson(ctx, merchantView(merchant));
  else ctx.output.out(merchant.id);
  return merchant;
}

/** Turns a merchant's channel dispatching on or off (`gateway merchant set ID --dispatching on|off`). */
export async function setMerchant(
  ctx: CommandContext,
  input: { readonly merchantId: string; readonly dispatching?: boolean },
): Promise<Merchant> {
  const merchant = await requireMerchant(ctx.store, input.merchantId);
  if (input.dispatching !== undefined) await ctx.store.setMerchantDispatching(merchant.id, input.dispatching);
  await audited(ctx, 'merchant.update', merchant.id, merchant.id);
  const updated = (await ctx.store.getMerchant(merchant.id)) ?? merchant;
  if (ctx.json) printJson(ctx, merchantView(updated));
  else ctx.output.out(`merchant ${updated.id}: dispatching ${updated.dispatching === true ? 'on' : 'off'}`);
  return updated;
}

export async function listMerchants(ctx: CommandContext): Promise<Merchant[]> {
  const merchants = await ctx.store.listMerchants();
  printList(
    ctx,
    merchants,
    ['ID', 'CREATED', 'NAME'],
    (m) => [m.id, m.createdAt.toISOString(), `${m.name}${m.dispatching === true ? ' (dispatching)' : ''}`],
    merchantView,
  );
  return merchants;
}

// ---------------------------------------------------------------------------------------------
// Channels

export interface CreateChannelInput {
  readonly merchantId: string;
  readonly name: string;
  /** Default TEST. */
  readonly mode?: ChannelMode;
  readonly threeDSecure?: boolean;
  readonly throttlePerMinute?: number;
  /** What the channel accepts (checked by server/channels/settings.ts); absent: everything. */
  readonly accepts?: AcceptanceChange;
}

export async function createChannel(ctx: CommandContext, input: CreateChannelInput): Promise<Channel> {
  const name = checkName(input.name, 'channel name');
  const settings: ChannelSettings = applyAcceptance(
    {
      ...(input.threeDSecure === undefined ? {} : { threeDSecure: input.threeDSecure }),
      ...(input.throttlePerMinute === undefined
        ? {}
        : { throttlePerMinute: checkThrottle(input.throttlePerMinute) }),
    },
    input.accepts ?? {},
  );
  const merchant = await requireMerchant(ctx.store, input.merchantId);
  const channel: Channel = {
    id: newId(),
    merchantId: merchant.id,
    name,
    mode: input.mode ?? 'TEST',
    settings,
    createdAt: now(ctx),
  };
  await ctx.store.insertChannel(channel);
  await audited(ctx, 'channel.create', channel.id, merchant.id);
  if (ctx.json) printJson(ctx, channelView(channel));
  else ctx.output.out(channel.id);
  return channel;
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
    v.connector === null ? '-' : `${v.connector.baseUrl} (${v.connector.entityId})`,
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
  const channels = await ctx.store.listChannels(merchant.id);
  if (ctx.json) printJson(ctx, channels.map(channelView));
  else printChannels(ctx, channels);
  return channels;
}

export interface SetChannelInput {
  readonly entityId: string;
  readonly threeDSecure?: boolean;
  /** `default`: remove the channel's own limit. */
  readonly throttlePerMinute?: number | 'default';
  /** null: remove the connector. */
  readonly connector?: {
    readonly baseUrl: string;
    readonly entityId: string;
    readonly accessToken: string;
  } | null;
  /** What the channel accepts: brands, currencies (null: all), the merchant's bank account (null: none). */
  readonly accepts?: AcceptanceChange;
}

/** The input checked (usage errors) and normalized: the connector URL without a trailing slash. */
export function checkSetChannel(input: SetChannelInput): SetChannelInput {
  if (
    input.threeDSecure === undefined &&
    input.throttlePerMinute === undefined &&
    input.connector === undefined &&
    Object.keys(input.accepts ?? {}).length === 0
  )
    throw usageError(
      'nothing to change: give --3ds, --throttle, --brands, --currencies, the bank account or the connector options',
    );
  checkId(input.entityId, 'channel id');
  if (typeof input.throttlePerMinute === 'number') checkThrottle(input.throttlePerMinute);
  if (input.connector == null) return input;
  return {
    ...input,
    connector: {
      baseUrl: checkBaseUrl(input.connector.baseUrl),
      entityId: checkId(input.connector.entityId, 'connector entity id'),
      accessToken: checkConnectorToken(input.connector.accessToken),
    },
  };
}

/** Changes only the settings given; the others keep their values. */
export async function setChannel(ctx: CommandContext, request: SetChannelInput): Promise<Channel> {
  const input = checkSetChannel(request);
  const throttle = input.throttlePerMinute;
  const connector = input.connector;
  const refused = connector == null ? undefined : ctx.egress?.checkUrl(connector.baseUrl);
  if (refused !== undefined) throw usageError(`connector URL ${refused}`);
  const channel = await requireChannel(ctx.store, input.entityId);
  const { throttlePerMinute: oldThrottle, connector: oldConnector, ...rest } = channel.settings;
  const nextThrottle = throttle === undefined ? oldThrottle : throttle === 'default' ? undefined : throttle;
  const nextConnector = connector === undefined ? oldConnector : (connector ?? undefined);
  const settings: ChannelSettings = applyAcceptance(
    {
      ...rest,
      ...(input.threeDSecure === undefined ? {} : { threeDSecure: input.threeDSecure }),
      ...(nextThrottle === undefined ? {} : { throttlePerMinute: nextThrottle }),
      ...(nextConnector === undefined ? {} : { connector: nextConnector }),
    },
    input.accepts ?? {},
  );
  await ctx.store.updateChannelSettings(channel.id, settings);
  await audited(ctx, 'channel.update', channel.id, channel.merchantId);
  const updated: Channel = { ...channel, settings };
  if (ctx.json) printJson(ctx, channelView(updated));
  else printChannels(ctx, [updated]);
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Access tokens

export const TOKEN_WARNING =
  'This access token is shown only once: the gateway stores only a hash of its secret and cannot show it again. Keep it secret.';

export async function createToken(
  ctx: CommandContext,
  input: {
    readonly merchantId: string;
    readonly channelIds?: readonly string[];
    /** Required for a token without channels (else test); must match the channels' when both are given. */
    readonly environment?: Environment;
  },
): Promise<IssuedToken> {
  const channelIds = [...new Set(input.channelIds ?? [])];
  for (const id of channelIds) checkId(id, 'channel id');
  const merchant = await requireMerchant(ctx.store, input.merchantId);
  const environments = new Set<Environment>();
  for (const id of channelIds) {
    const channel = await requireChannel(ctx.store, id);
    if (channel.merchantId !== merchant.id)
      throw failure(`channel ${id} belongs to another merchant, not to ${merchant.id}`);
    environments.add(environmentOf(channel.mode));
  }
  // A token belongs to one environment: test channels and live channels never share one.
  if (environments.size > 1)
    throw failure('a token may not mix test and live channels: create one token for each environment');
  const fromChannels = [...environments][0];
  if (fromChannels !== undefined && input.environment !== undefined && input.environment !== fromChannels)
    throw failure(
      `--environment ${input.environment} does not match the channels, which are ${fromChannels}`,
    );
  const environment = fromChannels ?? input.environment ?? 'test';
  const issued = await issueToken(ctx.store, {
    merchantId: merchant.id,
    channelIds,
    environment,
    now: now(ctx),
  });
  const { token, accessToken } = issued;
  await audited(ctx, 'token.create', token.id, merchant.id);
  if (ctx.json) {
    printJson(ctx, { ...tokenView(token), accessToken, warning: TOKEN_WARNING });
  } else {
    const scope =
      channelIds.length === 0
        ? `all ${environment} channels`
        : `${environment} channels ${channelIds.join(', ')}`;
    ctx.output.err(
      `Access token ${token.id} for merchant ${merchant.id} (userId ${token.userId}, ${scope}):`,
    );
    ctx.output.out(accessToken);
  }
  ctx.output.err(`WARNING: ${TOKEN_WARNING}`);
  return issued;
}

export async function listTokens(
  ctx: CommandContext,
  input: { readonly merchantId: string },
): Promise<AccessToken[]> {
  const merchant = await requireMerchant(ctx.store, input.merchantId);
  const tokens = await ctx.store.listTokens(merchant.id);
  printList(
    ctx,
    tokens,
    ['ID', 'USER ID', 'ENVIRONMENT', 'CREATED', 'REVOKED', 'CHANNELS'],
    (t) => [
      t.id,
      t.userId,
      tokenEnvironment(t),
      t.createdAt.toISOString(),
      t.revokedAt === null ? 'no' : t.revokedAt.toISOString(),
      t.channelIds.length === 0 ? 'all' : t.channelIds.join(','),
    ],
    tokenView,
  );
  return tokens;
}

/** Revokes an active token; a server refuses it within a few seconds (its token cache). */
export async function revokeToken(ctx: CommandContext, input: { readonly tokenId: string }): Promise<void> {
  checkId(input.tokenId, 'token id');
  const at = now(ctx);
  if (!(await ctx.store.revokeToken(input.tokenId, at)))
    throw failure(`no active token ${input.tokenId} (unknown or already revoked)`);
  // the CLI names the token alone; its merchant is not looked up (operators read every entry)
  await audited(ctx, 'token.revoke', input.tokenId, null);
  if (ctx.json) printJson(ctx, { id: input.tokenId, revoked: true, revokedAt: at.toISOString() });
  else ctx.output.out(`revoked token ${input.tokenId}`);
}
