/**
 * A payment with a registration through a channel's routes. It goes to the route that holds the
 * registration (held.ts), its one attempt recorded so that what follows it goes there too; no
 * other connector has what that one stored.
 *
 * A merchant-initiated repeat of a card whose network transaction id was kept (migrate.ts) may go
 * elsewhere. The holder first: with the card stored there, or as a card on file where the
 * operator moved it (move.ts); then, when the holder is gone from the channel's routes, skipped by
 * its breaker or refused the connection, the other routes whose rules take the payment and whose
 * kind takes a card on file, in order, as a card on file with that id, falling back as an initial
 * payment does (after a refused connection only, never after an answer or an uncertain one). A cardholder's own use (a
 * one-click payment with its CVV) stays with the route holding the card stored, and is refused on
 * a registration moved where nothing of it is stored.
 */
import type { Decision, RegistrationPayOrder } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import { type Candidate, find, inTurn, type RouteContext, type Try } from './candidate';
import { heldBy, withTheirRegistration } from './held';
import { cardOnFileOrder } from './migrate';
import { factsOf, takes } from './rules';

export async function payWithRegistration(order: RegistrationPayOrder, ctx: RouteContext): Promise<Decision> {
  const held = heldBy(order.registration);
  const holder = find(ctx.candidates, held?.route);
  const stored = holder !== undefined && held?.theirId !== '' ? holder : undefined;
  // the kit hands the connector the order as given: the network id goes along (StoredRegistrationOrder)
  const there: RegistrationPayOrder & { networkTransactionId?: string } = {
    ...order,
    registration: withTheirRegistration(order.registration, held?.theirId),
    ...(held?.networkTransactionId === undefined ? {} : { networkTransactionId: held.networkTransactionId }),
  };
  const storedTry = (c: Candidate): Try => ({ candidate: c, attempt: () => c.payStored(there) });
  const onFile = cardOnFileOrder(order, ctx.deps.openCard);
  if (onFile === undefined) {
    // the holder only, as it always was (no breaker: nothing else could take it)
    if (stored === undefined) return ctx.none(ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD);
    const { decision, technical } = await storedTry(stored).attempt();
    const outcome = technical ?? 'processed';
    await ctx.record(order.paymentId, [
      { kind: stored.kind, route: stored.index, at: order.now.toISOString(), outcome, code: decision.code },
    ]);
    return decision;
  }
  const facts = factsOf(onFile, ctx.deps.binInfo);
  const brand = order.registration.paymentBrand;
  const takesIt = (c: Candidate) =>
    c.takesCardOnFile && takes(c.route, facts) && (c.brands === undefined || c.brands.includes(brand));
  const onFileTry = (c: Candidate): Try => ({ candidate: c, attempt: () => c.cardOnFile(onFile) });
  // the holder first: with the card stored there, or as a card on file where it was moved
  const first =
    stored !== undefined
      ? storedTry(stored)
      : holder !== undefined && takesIt(holder)
        ? onFileTry(holder)
        : undefined;
  const tries: Try[] = [
    ...(first === undefined ? [] : [first]),
    ...ctx.candidates.filter((c) => c !== holder && takesIt(c)).map(onFileTry),
  ];
  if (tries.length === 0) return ctx.none(ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD);
  return (await inTurn(tries, order, ctx, order.paymentId)).decision;
}
