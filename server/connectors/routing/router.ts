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
import type {
  Channel,
  ConnectorAttempt,
  ConnectorRoute,
  ConnectorSettings,
  Payment,
  Registration,
} from '../../../shared/engine/core/model';
import type {
  Decision,
  PayOrder,
  Processor,
  RegisterOrder,
  RegistrationPayOrder,
  Technical,
} from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import { type ConnectorContract, isNotSupported } from '../kit/contract';
import { connectorProcessor, type Environment } from '../kit/processor';
import type { Breaker } from './breaker';
import { heldBy, holding, type RouteRef, withTheirRegistration } from './held';
import { type BinLookup, factsOf, takes } from './rules';

/** Before the attempt log, a routed payment said the route that processed it here (resultDetails). */
const PROCESSED_BY = 'ConnectorRoute';

interface Candidate extends RouteRef {
  readonly route: ConnectorRoute;
  readonly processor: Processor;
  /** Through the connector, saying what its answer knew of a technical failure. */
  readonly pay: (order: PayOrder) => Promise<Watched>;
  readonly register: (order: RegisterOrder) => Promise<Watched>;
}

interface Watched {
  readonly decision: Decision;
  readonly technical?: Technical;
}

const WATCHED = ['authorize', 'debit', 'credit', 'register'] as const;

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

/** Where a routed payment's attempts are kept (the store's ConnectorAttemptStore). */
export interface AttemptLog {
  recordConnectorAttempts(paymentId: string, attempts: readonly ConnectorAttempt[]): Promise<void>;
  connectorAttemptsOf(paymentId: string): Promise<ConnectorAttempt[]>;
}

export interface RoutingDeps {
  /** A route's connector of its kind; undefined for a kind this gateway lacks. */
  readonly build: (connector: ConnectorSettings) => ConnectorContract | undefined;
  readonly breaker: Breaker;
  readonly binInfo?: BinLookup;
  /** The attempt log; without one nothing is recorded and what follows goes to the first route. */
  readonly attempts?: AttemptLog;
}

function candidatesOf(channel: Channel, environment: Environment, deps: RoutingDeps): Candidate[] {
  const candidates: Candidate[] = [];
  (channel.settings.routes ?? []).forEach((route, index) => {
    const contract = deps.build(route.connector);
    if (contract === undefined) return;
    // one watcher per attempt: concurrent payments never read each other's answer
    const through = async (call: (p: Processor) => Promise<Decision>): Promise<Watched> => {
      const watch = watched(contract);
      const decision = await call(connectorProcessor(watch.contract, environment));
      const technical = decision.technical ?? watch.technical();
      return technical === undefined ? { decision } : { decision, technical };
    };
    candidates.push({
      index,
      kind: route.connector.kind ?? 'opp',
      route,
      processor: connectorProcessor(contract, environment),
      pay: (order) => through((p) => p.pay(order)),
      register: (order) => through((p) => p.register(order)),
    });
  });
  return candidates;
}

/** The route a reference names: the same place and kind, else the first of its kind (routes were reordered). */
function find(candidates: readonly Candidate[], ref: RouteRef | undefined): Candidate | undefined {
  if (ref === undefined) return candidates[0];
  return (
    candidates.find((c) => c.index === ref.index && c.kind === ref.kind) ??
    candidates.find((c) => c.kind === ref.kind)
  );
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
  const processorOf = async (payment: Payment): Promise<Processor | undefined> =>
    find(candidates, await processedBy(payment, deps.attempts))?.processor;
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
    register: (order) => routed(order, (c) => c.register(order), ctx, undefined),
    payWithRegistration: (order) => payWithRegistration(order, ctx),
    inquire: async (payment, ch) => (await processorOf(payment))?.inquire?.(payment, ch) ?? unrouted(),
    finish: async (order) => (await processorOf(order.payment))?.finish?.(order) ?? unrouted(),
    authenticate: (order) => candidates[0]?.processor.authenticate?.(order) ?? unrouted(),
  };
}

interface RouteContext {
  readonly candidates: readonly Candidate[];
  readonly deps: RoutingDeps;
  readonly none: (code: string) => Decision;
  readonly record: (paymentId: string | undefined, attempts: readonly ConnectorAttempt[]) => Promise<void>;
}

/** The route that processed a payment: its last attempt that reached a processor. */
async function processedBy(payment: Payment, log: AttemptLog | undefined): Promise<RouteRef | undefined> {
  const attempts = log === undefined ? [] : await log.connectorAttemptsOf(payment.id);
  const reached = attempts.filter((a) => a.outcome === 'processed' || a.outcome === 'uncertain').at(-1);
  if (reached !== undefined) return { index: reached.route, kind: reached.kind };
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
  const attempts: ConnectorAttempt[] = [];
  const at = order.now.toISOString();
  const channel = order.channel.id;
  let last: Decision | undefined;
  for (const c of matching) {
    if (!deps.breaker.admits(channel, c.index, c.kind, order.now)) {
      attempts.push({ kind: c.kind, route: c.index, at, outcome: 'skipped' });
      continue;
    }
    const { decision, technical } = await attempt(c);
    if (technical === 'refused') {
      // nothing reached it: known, the next may be tried
      deps.breaker.failed(channel, c.index, c.kind, order.now);
      attempts.push({ kind: c.kind, route: c.index, at, outcome: 'refused', code: decision.code });
      last = decision;
      continue;
    }
    const outcome = technical === 'uncertain' ? 'uncertain' : 'processed';
    if (outcome === 'processed') deps.breaker.succeeded(channel, c.index, c.kind);
    attempts.push({ kind: c.kind, route: c.index, at, outcome, code: decision.code });
    await ctx.record(paymentId, attempts);
    return holding(decision, c);
  }
  // every route refused or skipped: the last failure (nothing was charged anywhere)
  await ctx.record(paymentId, attempts);
  return last ?? none(ResultCodes.UNDEFINED_CONNECTOR_ERROR);
}

/**
 * A payment with a registration goes to the route that holds it (no fallback: no other connector
 * has it); its one attempt recorded, so that what follows it goes there too.
 */
async function payWithRegistration(order: RegistrationPayOrder, ctx: RouteContext): Promise<Decision> {
  const held = heldBy(order.registration);
  const c = find(ctx.candidates, held?.route);
  if (c === undefined) return ctx.none(ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD);
  const registration: Registration = withTheirRegistration(order.registration, held?.theirId);
  const decision = await c.processor.payWithRegistration({ ...order, registration });
  const outcome = decision.technical === undefined ? 'processed' : decision.technical;
  await ctx.record(order.paymentId, [
    { kind: c.kind, route: c.index, at: order.now.toISOString(), outcome, code: decision.code },
  ]);
  return decision;
}
