/**
 * Routing with fallback (DECISIONS, "Connectors and processors"; issue 33 point 5): a channel's
 * routes as one Processor. An initial payment, and a registration (POST /v1/registrations, or
 * made along with a payment), goes to the first route whose rules take it (rules.ts) and whose
 * circuit admits it (breaker.ts); it falls back to the next only after a known technical failure
 * (`technical: 'refused'`: nothing reached the processor), never after an uncertain one (it may
 * have been processed: the payment stays pending until asked), never after the processor answered
 * (a decline, or pending with its 3-D Secure challenge: the shopper authenticates with that one).
 *
 * Every attempt is recorded with the payment in the attempt log (server/storage/connector-attempts/),
 * never in its answer: the merchant is told the payment, the operator sees the attempts (the admin
 * API's payment view). What follows a payment (captures, refunds, reversals, its inquiry, the
 * shopper's return) goes to the route its attempts say processed it; a payment with a
 * registration goes to the route that holds the registration (held.ts).
 */
import type { Channel, ConnectorAttempt, Payment } from '../../../shared/engine/core/model';
import type { Decision, PayOrder, Processor, Technical } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import { type ConnectorContract, isNotSupported } from '../kit/contract';
import { connectorProcessor, type Environment } from '../kit/processor';
import {
  type AttemptLog,
  type Candidate,
  find,
  inTurn,
  type RouteContext,
  type RoutingDeps,
  type Watched,
} from './candidate';
import { holding, type RouteRef, reachedRoute } from './held';
import { chargeCardOnFile } from './migrate';
import { factsOf, takes } from './rules';
import { payWithRegistration } from './with-registration';

export type { AttemptLog, RoutingDeps } from './candidate';

/** Before the attempt log, a routed payment said the route that processed it here (resultDetails). */
const PROCESSED_BY = 'ConnectorRoute';

const WATCHED = ['authorize', 'debit', 'credit', 'register', 'payWithRegistration'] as const;

/** The contract's answers watched for their `technical` marker (the kit keeps only `uncertain`). */
function watched(contract: ConnectorContract): {
  contract: ConnectorContract;
  technical: () => Technical | undefined;
} {
  let seen: Technical | undefined;
  const wrapped = { ...contract } as Record<string, unknown>;
  for (const operation of WATCHED)
    wrapped[operation] = async (order: never) => {
      const answer = await (contract[operation] as (o: never) => ReturnType<ConnectorContract['debit']>)(
        order,
      );
      seen = isNotSupported(answer) ? undefined : answer.technical;
      return answer;
    };
  return { contract: wrapped as unknown as ConnectorContract, technical: () => seen };
}

function candidatesOf(channel: Channel, environment: Environment, deps: RoutingDeps): Candidate[] {
  const candidates: Candidate[] = [];
  (channel.settings.routes ?? []).forEach((route, index) => {
    const contract = deps.build(route.connector);
    if (contract === undefined) return;
    // one watcher per attempt: concurrent payments never read each other's answer
    const through = async (
      call: (p: Processor, c: ConnectorContract) => Promise<Decision>,
    ): Promise<Watched> => {
      const watch = watched(contract);
      const decision = await call(connectorProcessor(watch.contract, environment), watch.contract);
      const technical = decision.technical ?? watch.technical();
      return technical === undefined ? { decision } : { decision, technical };
    };
    candidates.push({
      index,
      kind: route.connector.kind ?? 'opp',
      route,
      processor: connectorProcessor(contract, environment),
      ...(contract.brands === undefined ? {} : { brands: contract.brands }),
      takesCardOnFile: contract.takesCardOnFile === true,
      pay: (order) => through((p) => p.pay(order)),
      register: (order) => through((p) => p.register(order)),
      payStored: (order) => through((p) => p.payWithRegistration(order)),
      cardOnFile: (order) => through((_, c) => chargeCardOnFile(c, order, environment)),
    });
  });
  return candidates;
}

/** The routes of `channel` as one Processor in `environment`. */
export function routedProcessor(channel: Channel, environment: Environment, deps: RoutingDeps): Processor {
  const candidates = candidatesOf(channel, environment, deps);
  const testMode = environment === 'EXTERNAL' ? 'EXTERNAL' : undefined;
  const none = (code: string): Decision => ({
    ...(testMode === undefined ? {} : { testMode }),
    code,
    result: {},
    resultDetails: {},
  });
  const unrouted = () => Promise.resolve(none(ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD));
  // what follows a payment goes to the route that processed it (the first, for one made before routes)
  const routeOf = async (payment: Payment): Promise<Candidate | undefined> =>
    find(candidates, await processedBy(payment, deps.attempts));
  const processorOf = async (payment: Payment): Promise<Processor | undefined> =>
    (await routeOf(payment))?.processor;
  // an end read from the route (the inquiry's, the shopper's return): a card it stored along for a
  // createRegistration=true payment is held by that route, as when the payment's answer said so
  const endedBy = async (
    payment: Payment,
    read: (p: Processor) => Promise<Decision> | undefined,
  ): Promise<Decision> => {
    const c = await routeOf(payment);
    const decision = c === undefined ? undefined : await read(c.processor);
    return decision === undefined || c === undefined ? unrouted() : holding(decision, c);
  };
  const record = (paymentId: string | undefined, attempts: readonly ConnectorAttempt[]) =>
    paymentId === undefined || deps.attempts === undefined
      ? Promise.resolve()
      : deps.attempts.recordConnectorAttempts(paymentId, attempts);
  const ctx: RouteContext = { candidates, deps, none, record };

  return {
    kind: 'connector',
    testMode,
    pay: (order) => routed(order, (c) => c.pay(order), ctx, order.paymentId),
    reference: async (order) => (await processorOf(order.referenced))?.reference(order) ?? unrouted(),
    // a registration's attempts too, under its id: an uncertain one is asked of the route it reached
    register: (order) => routed(order, (c) => c.register(order), ctx, order.paymentId),
    payWithRegistration: (order) => payWithRegistration(order, ctx),
    inquire: (payment, ch) => endedBy(payment, (p) => p.inquire?.(payment, ch)),
    inquireRegistration: async (registration, ch) => {
      const attempts = (await deps.attempts?.connectorAttemptsOf(registration.id)) ?? [];
      const c = find(candidates, reachedRoute(attempts));
      const decision = await c?.processor.inquireRegistration?.(registration, ch);
      return decision === undefined || c === undefined ? unrouted() : holding(decision, c);
    },
    finish: (order) => endedBy(order.payment, (p) => p.finish?.(order)),
    authenticate: (order) => candidates[0]?.processor.authenticate?.(order) ?? unrouted(),
  };
}

/** The route that processed a payment: its last attempt that reached a processor. */
async function processedBy(payment: Payment, log: AttemptLog | undefined): Promise<RouteRef | undefined> {
  const reached = reachedRoute(log === undefined ? [] : await log.connectorAttemptsOf(payment.id));
  if (reached !== undefined) return reached;
  const before = (payment.details.resultDetails as Record<string, string> | undefined)?.[PROCESSED_BY];
  return before === undefined ? undefined : { index: Number(before), kind: '' };
}

/**
 * An initial payment or a registration through the routes that take it, falling back after a
 * refused connection; its attempts recorded under `paymentId`. A registration the processor made
 * (ConnectorRegistrationID) is kept with the route that holds it (held.ts).
 */
async function routed(
  order: Pick<PayOrder, 'request' | 'decide' | 'channel' | 'now'>,
  attempt: (c: Candidate) => Promise<Watched>,
  ctx: RouteContext,
  paymentId: string | undefined,
): Promise<Decision> {
  const { candidates, deps, none } = ctx;
  const facts = factsOf(order, deps.binInfo);
  const matching = candidates.filter((c) => takes(c.route, facts));
  if (matching.length === 0) return none(ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD);
  const tries = matching.map((c) => ({ candidate: c, attempt: () => attempt(c) }));
  const { decision, by } = await inTurn(tries, order, ctx, paymentId);
  return by === undefined ? decision : holding(decision, by);
}
