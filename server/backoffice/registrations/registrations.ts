/**
 * A merchant's saved cards and other stored payment details (registrations) in the back office:
 * listed newest first in keyset pages (storage/registrations/list.ts), the card as the API
 * answers it (bin and last four digits, never the number), the route holding it, deleted ones
 * included; and deleted with the family's DELETE /v1/registrations/{id} semantics (the engine's
 * `deregister`: nothing can pay with it any more, its REGISTRATION DELETED notification in the
 * same transaction),
 * audited `registration.delete`. Only registrations of the address's environment.
 */
import type { RegistrationRowView } from '../../../shared/contract';
import {
  type Channel,
  type Environment,
  environmentOf,
  type Registration,
} from '../../../shared/engine/core/model';
import { deregister } from '../../../shared/engine/operations/registrations';
import { heldBy } from '../../connectors/routing/held';
import type { GatewayStore } from '../../storage/kysely-store';
import type { BackofficeContext } from '../context';
import { type FieldError, invalid, notFound, refused } from '../errors';
import { requireMerchant } from '../merchants/merchants';

export type RegistrationContext = BackofficeContext<GatewayStore>;

export const MAX_REGISTRATION_PAGE = 100;
const ID = /^[0-9a-f]{32}$/;

/** The route holding it, as the routing reads its connector's id (held.ts); null where none is named. */
function routeOf(r: Registration): RegistrationRowView['route'] {
  const held = heldBy(r);
  return held === undefined ? null : { index: held.route.index, kind: held.route.kind };
}

export const registrationRow = (r: Registration): RegistrationRowView => ({
  id: r.id,
  entityId: r.channelId,
  paymentBrand: r.paymentBrand,
  bin: r.card?.bin ?? null,
  last4: r.card?.last4Digits ?? null,
  expiryMonth: r.card?.expiryMonth || null,
  expiryYear: r.card?.expiryYear || null,
  holder: r.card?.holder ?? null,
  route: routeOf(r),
  status: r.deletedAt === null ? 'active' : 'deleted',
  createdAt: r.createdAt.toISOString(),
  deletedAt: r.deletedAt?.toISOString() ?? null,
});

const encodeCursor = (r: Registration): string =>
  Buffer.from(`${r.createdAt.getTime()}.${r.id}`).toString('base64url');

function decodeCursor(text: string): { at: number; id: string } | undefined {
  const m = /^([0-9]{1,15})\.([0-9a-f]{32})$/.exec(Buffer.from(text, 'base64url').toString('latin1'));
  return m === null ? undefined : { at: Number(m[1]), id: m[2]! };
}

/** The list's query string: `limit` (1 to 100, 25 by default) and `after` (a previous page's `next`). */
export function readRegistrationQuery(q: (name: string) => string | undefined): {
  limit: number;
  before?: { at: number; id: string };
} {
  const errors: FieldError[] = [];
  const limitText = q('limit') ?? '25';
  const limit = Number(limitText);
  if (!/^[0-9]{1,3}$/.test(limitText) || limit < 1 || limit > MAX_REGISTRATION_PAGE)
    errors.push({ name: 'limit', value: limitText, message: `must be 1 to ${MAX_REGISTRATION_PAGE}` });
  const after = q('after');
  const before = after === undefined ? undefined : decodeCursor(after);
  if (after !== undefined && before === undefined)
    errors.push({ name: 'after', value: after, message: 'must be the `next` of a previous page' });
  if (errors.length > 0) throw invalid(errors);
  return before === undefined ? { limit } : { limit, before };
}

const ofEnvironment = (channels: readonly Channel[], environment: Environment) =>
  channels.filter((ch) => environmentOf(ch.mode) === environment).map((ch) => ch.id);

export async function listRegistrations(
  ctx: RegistrationContext,
  merchantId: string,
  environment: Environment,
  query: (name: string) => string | undefined,
): Promise<{ registrations: RegistrationRowView[]; next: string | null }> {
  const merchant = await requireMerchant(ctx.store, merchantId);
  const page = readRegistrationQuery(query);
  const channelIds = ofEnvironment(await ctx.store.listChannels(merchant.id), environment);
  const rows = await ctx.store.listRegistrationsPage({ ...page, merchantId: merchant.id, channelIds });
  const last = rows[rows.length - 1];
  return {
    registrations: rows.map(registrationRow),
    next: rows.length === page.limit && last !== undefined ? encodeCursor(last) : null,
  };
}

/**
 * Deletes a registration as DELETE /v1/registrations/{id} does: unknown (or of another merchant or
 * environment) is not found; deleted already is refused, as the family answers `100.150.202`.
 */
export async function deleteRegistration(
  ctx: RegistrationContext,
  merchantId: string,
  /** The admin API's address's; undefined: either (the CLI, on the store itself). */
  environment: Environment | undefined,
  id: string,
): Promise<RegistrationRowView> {
  const merchant = await requireMerchant(ctx.store, merchantId);
  const found = ID.test(id) ? await ctx.store.getRegistration(merchant.id, id) : undefined;
  const channel = found === undefined ? undefined : await ctx.store.getChannel(found.channelId);
  const elsewhere =
    environment !== undefined && channel !== undefined && environmentOf(channel.mode) !== environment;
  if (found === undefined || channel === undefined || elsewhere) throw notFound('registration', id);
  if (!(await deregister(ctx, merchant.id, id))) throw refused('the registration was deleted already');
  await ctx.audit('registration.delete', id, merchant.id);
  return registrationRow((await ctx.store.getRegistration(merchant.id, id)) ?? found);
}
