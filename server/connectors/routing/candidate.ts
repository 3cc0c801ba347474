/**
 * What the routing works with (router.ts, with-registration.ts): a channel's routes as candidates
 * (each route's connector, through which an attempt says what its answer knew of a technical
 * failure), the routing's dependencies and the attempt log.
 */
import type { ConnectorAttempt, ConnectorRoute, ConnectorSettings } from '../../../shared/engine/core/model';
import type {
  Decision,
  PayOrder,
  Processor,
  RegisterOrder,
  RegistrationPayOrder,
  Technical,
} from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import type { ConnectorContract, InitialOrder } from '../kit/contract';
import type { Breaker } from './breaker';
import type { RouteRef } from './held';
import type { BinLookup } from './rules';

/** A decision with what the connector's answer knew of a technical failure. */
export interface Watched {
  readonly decision: Decision;
  readonly technical?: Technical;
}

/** One of a channel's routes with its connector. */
export interface Candidate extends RouteRef {
  readonly route: ConnectorRoute;
  readonly processor: Processor;
  /** The brands its connector processes; undefined: every brand. */
  readonly brands?: readonly string[];
  /** Its connector charges a card stored elsewhere as a card on file (ConnectorContract.takesCardOnFile). */
  readonly takesCardOnFile: boolean;
  /** Through the connector, saying what its answer knew of a technical failure. */
  readonly pay: (order: PayOrder) => Promise<Watched>;
  readonly register: (order: RegisterOrder) => Promise<Watched>;
  /** A payment with a registration stored at this connector (its id there in the order's registration). */
  readonly payStored: (order: RegistrationPayOrder) => Promise<Watched>;
  /** A merchant-initiated repeat of a card stored elsewhere, as a card on file (migrate.ts). */
  readonly cardOnFile: (order: InitialOrder) => Promise<Watched>;
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
  /**
   * Opens a stored card's sealed number (the vault), for a merchant-initiated repeat sent to
   * another connector as a card on file; without it registrations never leave their connector.
   */
  readonly openCard?: (sealed: string) => string;
}

export interface RouteContext {
  readonly candidates: readonly Candidate[];
  readonly deps: RoutingDeps;
  readonly none: (code: string) => Decision;
  readonly record: (paymentId: string | undefined, attempts: readonly ConnectorAttempt[]) => Promise<void>;
}

/** The route a reference names: the same place and kind, else the first of its kind (routes were reordered). */
export function find(candidates: readonly Candidate[], ref: RouteRef | undefined): Candidate | undefined {
  if (ref === undefined) return candidates[0];
  return (
    candidates.find((c) => c.index === ref.index && c.kind === ref.kind) ??
    candidates.find((c) => c.kind === ref.kind)
  );
}

/** One try of a payment: a route and what is sent there. */
export interface Try {
  readonly candidate: Candidate;
  readonly attempt: () => Promise<Watched>;
}

/**
 * The tries in turn: a route its circuit does not admit is skipped, one that refused the
 * connection (nothing reached it: known) lets the next be tried; the first that reached its
 * processor (any answer, or an uncertain one: never sent again elsewhere) decides, `by` it.
 * Without one, the last failure (nothing was charged anywhere). The attempts recorded under
 * `paymentId`.
 */
export async function inTurn(
  tries: readonly Try[],
  order: { readonly channel: { readonly id: string }; readonly now: Date },
  ctx: RouteContext,
  paymentId: string | undefined,
): Promise<{ readonly decision: Decision; readonly by?: Candidate }> {
  const { breaker } = ctx.deps;
  const attempts: ConnectorAttempt[] = [];
  const at = order.now.toISOString();
  const channel = order.channel.id;
  let last: Decision | undefined;
  for (const { candidate: c, attempt } of tries) {
    if (!breaker.admits(channel, c.index, c.kind, order.now)) {
      attempts.push({ kind: c.kind, route: c.index, at, outcome: 'skipped' });
      continue;
    }
    const { decision, technical } = await attempt();
    if (technical === 'refused') {
      breaker.failed(channel, c.index, c.kind, order.now);
      attempts.push({ kind: c.kind, route: c.index, at, outcome: 'refused', code: decision.code });
      last = decision;
      continue;
    }
    const outcome = technical === 'uncertain' ? 'uncertain' : 'processed';
    if (outcome === 'processed') breaker.succeeded(channel, c.index, c.kind);
    attempts.push({ kind: c.kind, route: c.index, at, outcome, code: decision.code });
    await ctx.record(paymentId, attempts);
    return { decision, by: c };
  }
  await ctx.record(paymentId, attempts);
  return { decision: last ?? ctx.none(ResultCodes.UNDEFINED_CONNECTOR_ERROR) };
}
