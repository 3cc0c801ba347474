/**
 * Registrations moved to another of their channel's routes (issue 33 point 6): the operator's
 * `gateway registration move` and the admin API's POST …/registrations/moves, one procedure. A
 * card registered at one connector by a cardholder-initiated payment whose network transaction
 * id was kept is re-tagged to the route (server/connectors/routing/move.ts): the merchant's
 * repeats go there as a card on file with that id. Named registrations move all or none (an
 * unknown one is not found, one that cannot move refuses the whole with its reason); `all` moves
 * every active registration of the merchant that can and lists the others with their reason.
 * Each move is audited `registration.move`. Only registrations of the address's environment.
 */
import { type AdminInput, registrationMoveInput } from '../../../shared/contract';
import { type Environment, environmentOf, type Registration } from '../../../shared/engine/core/model';
import { type MovePlan, planMove } from '../../connectors/routing/move';
import { checked, invalid, notFound, refused } from '../errors';
import { requireMerchant } from '../merchants/merchants';
import type { RegistrationContext } from './registrations';

export interface RegistrationMoves {
  readonly moved: { readonly id: string; readonly route: number; readonly kind: string }[];
  readonly refused: { readonly id: string; readonly reason: string }[];
}

const PAGE = 100;

/** Every active registration of the merchant's channels of `environment` (keyset pages). */
async function allOf(ctx: RegistrationContext, merchantId: string, channelIds: string[]) {
  const found: Registration[] = [];
  let before: { at: number; id: string } | undefined;
  for (;;) {
    const page = await ctx.store.listRegistrationsPage({
      merchantId,
      channelIds,
      limit: PAGE,
      ...(before === undefined ? {} : { before }),
    });
    found.push(...page.filter((r) => r.deletedAt === null));
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return found;
    before = { at: last.createdAt.getTime(), id: last.id };
  }
}

/** The input checked: exactly one of registrationIds and all, and the route. */
function inputOf(input: unknown): AdminInput<'AdminRegistrationMoveInput'> {
  const parsed = checked(registrationMoveInput, input);
  if (!parsed.ok) throw invalid(parsed.errors);
  const { registrationIds, all } = parsed.value;
  if ((registrationIds === undefined) === (all === undefined))
    throw invalid([
      { name: 'registrationIds', value: null, message: 'give either registrationIds or all, not both' },
    ]);
  return parsed.value;
}

export async function moveRegistrations(
  ctx: RegistrationContext,
  merchantId: string,
  /** The admin API's address's; undefined: either (the CLI, on the store itself). */
  environment: Environment | undefined,
  input: unknown,
): Promise<RegistrationMoves> {
  const { registrationIds, route } = inputOf(input);
  const merchant = await requireMerchant(ctx.store, merchantId);
  const channels = (await ctx.store.listChannels(merchant.id)).filter(
    (ch) => environment === undefined || environmentOf(ch.mode) === environment,
  );
  const channelOf = new Map(channels.map((ch) => [ch.id, ch]));
  const named = registrationIds !== undefined;
  const registrations: Registration[] = [];
  if (named)
    for (const id of new Set(registrationIds)) {
      const found = await ctx.store.getRegistration(merchant.id, id);
      if (found === undefined || !channelOf.has(found.channelId)) throw notFound('registration', id);
      registrations.push(found);
    }
  else registrations.push(...(await allOf(ctx, merchant.id, [...channelOf.keys()])));
  const plans = registrations.map((r) => ({ r, plan: planMove(r, channelOf.get(r.channelId)!, route) }));
  const refusals = plans.flatMap(({ r, plan }) =>
    plan.kind === 'refused' ? [{ id: r.id, reason: plan.reason }] : [],
  );
  const first = refusals[0];
  if (named && first !== undefined)
    throw refused(`registration ${first.id} cannot move to route ${route}: ${first.reason}`, [
      { name: 'route', value: String(route), message: first.reason },
    ]);
  const moves: RegistrationMoves = { moved: [], refused: refusals };
  for (const { r, plan } of plans) {
    if (plan.kind !== 'move') continue;
    await moveOne(ctx, merchant.id, r, plan, route, moves);
  }
  return moves;
}

async function moveOne(
  ctx: RegistrationContext,
  merchantId: string,
  r: Registration,
  plan: Extract<MovePlan, { kind: 'move' }>,
  route: number,
  into: RegistrationMoves,
): Promise<void> {
  if (!(await ctx.store.retagRegistration(merchantId, r.id, plan.from, plan.to))) {
    into.refused.push({ id: r.id, reason: 'it was changed or deleted meanwhile' });
    return;
  }
  await ctx.audit('registration.move', r.id, merchantId);
  into.moved.push({ id: r.id, route, kind: plan.toKind });
}
