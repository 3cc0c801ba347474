/**
 * The work budget (issue 30, the noisy neighbour): what a sender's bodies cost to decode and
 * validate is charged to that sender (budget.ts), after its credentials are checked and before its
 * body is parsed. A merchant sending heavy bodies faster than its budget refills waits, its
 * connection held (backpressure), instead of taking the time of every other merchant's requests;
 * one that would wait longer than the budget's longest wait is answered 429 with the family's
 * throttling code (800.120.100) and Retry-After, as the per-minute throttle answers. Ordinary
 * bodies are free and pass without a promise.
 *
 * The sender is the access token; a request without one (a checkout's public submission) is
 * charged to its client address.
 */
import type { Context } from 'hono';
import { newId } from '../../../../shared/engine/core/ids';
import type { AccessToken } from '../../../../shared/engine/core/model';
import type { GatewayMetrics } from '../../../metrics/instruments';
import type { Envelope } from '../envelope';
import { tooManyRequests } from '../envelope/too-many';
import { clientAddress } from '../transport';
import { createWorkBudget, type WorkBudget } from './budget';

export { createWorkBudget, DEFAULT_WORK_BUDGET, type WorkBudget, type WorkBudgetLimits } from './budget';

export interface WorkBudgetDeps {
  readonly env: Envelope;
  readonly trustProxy: boolean;
  readonly metrics?: Pick<GatewayMetrics, 'throttled'>;
  /** The buckets; a fresh {@link createWorkBudget} of the default limits unless given. */
  readonly budget?: WorkBudget;
}

/**
 * What the parse middleware asks before parsing a POST body: undefined when the body may be parsed
 * now (free, or within the budget), else a promise of the refusal (a Response) or of undefined
 * once the sender's turn has come.
 */
export type WorkGate = (c: Context, body: string) => Promise<Response | undefined> | undefined;

/**
 * What the body middleware asks before reading a body of a declared length: the 429 when the
 * Authorization header is one whose token is already past its budget (a sender on many
 * connections is then refused without its bodies being read and decoded), else undefined. Only a
 * header seen with a checked token counts; it only ever refuses, so one revoked since costs nothing.
 */
export type EarlyRefusal = (c: Context, declaredBytes: number) => Response | undefined;

export interface WorkBudgetMiddleware {
  readonly gate: WorkGate;
  readonly early: EarlyRefusal;
}

/** The most Authorization headers remembered with their token (emptied when full). */
const MAX_HEADERS = 10_000;

export function workBudget(deps: WorkBudgetDeps): WorkBudgetMiddleware {
  const budget = deps.budget ?? createWorkBudget();
  const free = budget.limits.freeBytes;
  const senders = new Map<string, string>();
  const refuse = (c: Context, retryAfterSeconds: number): Response => {
    deps.metrics?.throttled.inc({ operation: 'work-budget' });
    return tooManyRequests(
      deps.env,
      c,
      retryAfterSeconds,
      'Too many requests; retry later (the bodies sent are larger than this sender may send so fast)',
      { id: c.req.param('id') ?? newId() },
    );
  };
  const gate: WorkGate = (c, body) => {
    // Characters, not bytes: within the free allowance either way, and counting bytes costs a pass.
    if (body.length <= free) return undefined;
    const token = (c.var as { token?: AccessToken | undefined }).token;
    const header = c.req.header('authorization');
    if (token !== undefined && header !== undefined && senders.get(header) !== token.id) {
      if (senders.size >= MAX_HEADERS) senders.clear();
      senders.set(header, token.id);
    }
    const sender = token?.id ?? `address:${clientAddress(c, deps.trustProxy) ?? 'unknown'}`;
    const admitted = budget.admit(sender, Buffer.byteLength(body));
    if (admitted.ok) return admitted.waitMs === 0 ? undefined : sleep(admitted.waitMs);
    return Promise.resolve(refuse(c, admitted.retryAfterSeconds));
  };
  const early: EarlyRefusal = (c, declaredBytes) => {
    if (!(declaredBytes > free)) return undefined;
    const header = c.req.header('authorization');
    const sender = header === undefined ? undefined : senders.get(header);
    if (sender === undefined) return undefined;
    const quoted = budget.peek(sender, declaredBytes);
    return quoted.ok ? undefined : refuse(c, quoted.retryAfterSeconds);
  };
  return { gate, early };
}

const sleep = (ms: number): Promise<undefined> =>
  new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
