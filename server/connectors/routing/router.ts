/**
 * Routing with fallback (DECISIONS, "Connectors and processors"; issue 33 point 5): a channel's
 * routes as one Processor. An initial payment goes to the first route whose rules take it
 * (rules.ts) and whose circuit admits it (breaker.ts); it falls back to the next only after a
 * known technical failure (`technical: 'refused'`: nothing reached the processor), never after an
 * uncertain one (it may have been processed: the payment stays pending until asked), never after
 * the processor answered (a decline, or pending with its 3-D Secure challenge: the shopper
 * authenticates with that one). Every attempt is recorded with the payment
 * (`resultDetails.ConnectorAttempts`, JSON of ConnectorAttempt[]), and what follows the payment
 * (captures, refunds, reversals, its inquiry, the shopper's return) goes to the route that
 * processed it (`resultDetails.ConnectorRoute`).
 */
import type {
  Channel,
  ConnectorAttempt,
  ConnectorRoute,
  ConnectorSettings,
} from '../../../shared/engine/core/model';
import type { Decision, PayOrder, Processor, Technical } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import { type ConnectorContract, isNotSupported } from '../kit/contract';
import { connectorProcessor, type Environment } from '../kit/processor';
import type { Breaker } from './breaker';
import { type BinLookup, factsOf, takes } from './rules';

/** Where a routed payment keeps its attempts and the route that processed it (resultDetails). */
export const ATTEMPTS = 'ConnectorAttempts';
export const PROCESSED_BY = 'ConnectorRoute';

interface Candidate {
  readonly index: number;
  readonly kind: string;
  readonly route: ConnectorRoute;
  readonly processor: Processor;
  /** Pays through the connector and says what its answer knew of a technical failure. */
  readonly pay: (order: PayOrder) => Promise<{ readonly decision: Decision; readonly technical?: Technical }>;
}

/** The contract's answers watched for their `technical` marker (the kit keeps only `uncertain`). */
function watched(contract: ConnectorContract): {
  contract: ConnectorContract;
  technical: () => Technical | undefined;
} {
  let seen: Technical | undefined;
  const wrapped = { ...contract } as Record<string, unknown>;
  for (const operation of ['authorize', 'debit', 'credit'] as const)
    wrapped[operation] = async (order: never) => {
      const answer = await contract[operation](order);
      seen = isNotSupported(answer) ? undefined : answer.technical;
      return answer;
    };
  return { contract: wrapped as unknown as ConnectorContract, technical: () => seen };
}

export interface RoutingDeps {
  /** A route's connector of its kind; undefined for a kind this gateway lacks. */
  readonly build: (connector: ConnectorSettings) => ConnectorContract | undefined;
  readonly breaker: Breaker;
  readonly binInfo?: BinLookup;
}

/** The attempts a routed payment recorded (the admin API's payment view reads them). */
export function attemptsOf(details: Readonly<Record<string, unknown>>): ConnectorAttempt[] {
  const raw = (details.resultDetails as Record<string, string> | undefined)?.[ATTEMPTS];
  if (raw === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as ConnectorAttempt[]) : [];
  } catch {
    return [];
  }
}

/** The routes of `channel` as one Processor in `environment`. */
export function routedProcessor(channel: Channel, environment: Environment, deps: RoutingDeps): Processor {
  const candidates: Candidate[] = [];
  (channel.settings.routes ?? []).forEach((route, index) => {
    const contract = deps.build(route.connector);
    if (contract === undefined) return;
    candidates.push({
      index,
      kind: route.connector.kind ?? 'opp',
      route,
      processor: connectorProcessor(contract, environment),
      // one watcher per attempt: concurrent payments never read each other's answer
      pay: async (order) => {
        const watch = watched(contract);
        const decision = await connectorProcessor(watch.contract, environment).pay(order);
        const technical = decision.technical ?? watch.technical();
        return technical === undefined ? { decision } : { decision, technical };
      },
    });
  });
  const testMode = environment === 'EXTERNAL' ? 'EXTERNAL' : undefined;
  const none = (code: string): Decision => ({
    ...(testMode === undefined ? {} : { testMode }),
    code,
    result: {},
    resultDetails: {},
  });
  // what follows a payment goes to the route that processed it (the first, for one made before routes)
  const processorOf = (details: Readonly<Record<string, unknown>>): Processor | undefined => {
    const index = Number((details.resultDetails as Record<string, string> | undefined)?.[PROCESSED_BY] ?? 0);
    return (candidates.find((c) => c.index === index) ?? candidates[0])?.processor;
  };
  const first = (): Processor | undefined => candidates[0]?.processor;
  const unrouted = () => Promise.resolve(none(ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD));

  return {
    kind: 'connector',
    testMode,
    pay: (order) => payRouted(order, candidates, deps, none),
    reference: (order) => processorOf(order.referenced.details)?.reference(order) ?? unrouted(),
    register: (order) => first()?.register(order) ?? unrouted(),
    payWithRegistration: (order) => first()?.payWithRegistration(order) ?? unrouted(),
    inquire: (payment, ch) => processorOf(payment.details)?.inquire?.(payment, ch) ?? unrouted(),
    finish: (order) => processorOf(order.payment.details)?.finish?.(order) ?? unrouted(),
    authenticate: (order) => first()?.authenticate?.(order) ?? unrouted(),
  };
}

async function payRouted(
  order: PayOrder,
  candidates: readonly Candidate[],
  deps: RoutingDeps,
  none: (code: string) => Decision,
): Promise<Decision> {
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
    const { decision, technical } = await c.pay(order);
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
    return recorded(decision, attempts, c.index);
  }
  // every route refused or skipped: the last failure (nothing was charged anywhere)
  return recorded(last ?? none(ResultCodes.UNDEFINED_CONNECTOR_ERROR), attempts, undefined);
}

function recorded(
  decision: Decision,
  attempts: readonly ConnectorAttempt[],
  index: number | undefined,
): Decision {
  return {
    ...decision,
    resultDetails: {
      ...decision.resultDetails,
      [ATTEMPTS]: JSON.stringify(attempts),
      ...(index === undefined ? {} : { [PROCESSED_BY]: String(index) }),
    },
  };
}
