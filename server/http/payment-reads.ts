/**
 * GET /v1/payments/{id}: a payment the token may see, answered; a final payment's answer kept.
 *
 * Why a kept answer is never stale: the only changes a stored payment ever sees are its pending
 * state ending (storage/sessions: finishPaymentSession's compare-and-set on result_code
 * `000.200.000`) and a connector's modification failing late (a capture or refund the processor
 * accepted, then reported failed: shared/engine/steps/late-failure.ts `mayFailLater`, which are
 * never kept); no payment row is updated otherwise or deleted, and references, chargebacks
 * and reversals are rows of their own. So once a payment is not pending its answer (the row,
 * the static issuer table, the build number) is fixed in every process sharing the database,
 * and only the timestamp is new per read. Pending payments are read from the database each time.
 * Who may read is decided on every read, as before: the token's merchant, and its channel of
 * this environment (mayUse, with the channel cache's bound of a few seconds).
 */
import type { Context } from 'hono';
import type { AccessToken, Channel, Environment, Payment } from '../../shared/engine/core/model';
import { mayFailLater } from '../../shared/engine/steps/late-failure';
import { isPending } from '../../shared/result-codes';
import { entityIdOf, mayUse } from './middleware/channel';
import type { RenderedAnswer } from './middleware/envelope';

/**
 * The channel a read is scoped to: the one the request's entityId names (c.var.channel, which the
 * token may use), also for a merchant-wide token; undefined without an entityId, or with the
 * merchant's id (channel dispatching), which names no one channel: then every channel the token
 * may use. A query for a second channel never answers the first channel's payments.
 */
export function namedChannel(
  request: unknown,
  token: Pick<AccessToken, 'merchantId'>,
  channel: Pick<Channel, 'id'>,
): string | undefined {
  const entityId = entityIdOf(request);
  return entityId === undefined || entityId === token.merchantId ? undefined : channel.id;
}

/** Final answers kept per app, at most. */
const MAX_KEPT = 10_000;
/**
 * And at most this much answer text (UTF-16 code units, ~ bytes: answers are ASCII but for names):
 * an answer is 1–2 KB, but one with long customer, billing and descriptor fields is several, and a
 * bound by count alone would let those hold many times this. Reads of recent payments still fit.
 */
const MAX_KEPT_CHARS = 8 * 1024 * 1024;
/** What a kept entry costs beside its text (the entry, its object, the map slot), roughly. */
const ENTRY_OVERHEAD = 200;

interface Kept {
  readonly merchantId: string;
  readonly channelId: string;
  readonly answer: RenderedAnswer;
}

export interface PaymentReadDeps {
  readonly environment: Environment;
  readonly getPayment: (merchantId: string, id: string) => Promise<Payment | undefined>;
  readonly getChannel: (id: string) => Promise<Channel | undefined>;
  readonly render: (payment: Payment) => RenderedAnswer | undefined;
  readonly answer: (c: Context, payment: Payment) => Response;
  readonly sendRendered: (c: Context, answer: RenderedAnswer) => Response;
}

/** The answer to a read of payment `id` by `token`, or undefined when it may not see one (404). */
export function paymentReads(deps: PaymentReadDeps, max = MAX_KEPT, maxChars = MAX_KEPT_CHARS) {
  const kept = new Map<string, Kept>();
  let chars = 0;
  const cost = (answer: RenderedAnswer) => answer.head.length + answer.tail.length + ENTRY_OVERHEAD;
  const visible = async (
    token: AccessToken,
    record: { merchantId: string; channelId: string },
    channelId: string | undefined,
  ) => {
    if (record.merchantId !== token.merchantId) return false;
    if (channelId !== undefined && record.channelId !== channelId) return false;
    const ch = await deps.getChannel(record.channelId);
    return ch !== undefined && mayUse(token, ch, deps.environment);
  };
  const keep = (payment: Payment): void => {
    if (isPending(payment.resultCode) || mayFailLater(payment)) return;
    const answer = deps.render(payment);
    if (answer === undefined) return;
    const size = cost(answer);
    if (size > maxChars || kept.has(payment.id)) return;
    // Oldest first out: a bound, not a policy (reads of recent payments dominate).
    for (const [id, oldest] of kept) {
      if (kept.size < max && chars + size <= maxChars) break;
      kept.delete(id);
      chars -= cost(oldest.answer);
    }
    kept.set(payment.id, { merchantId: payment.merchantId, channelId: payment.channelId, answer });
    chars += size;
  };
  /** `channelId`: the one channel the read is scoped to ({@link namedChannel}); any the token may use without. */
  const read = async (
    c: Context,
    token: AccessToken,
    id: string,
    channelId?: string,
  ): Promise<Response | undefined> => {
    const known = kept.get(id);
    if (known !== undefined)
      return (await visible(token, known, channelId)) ? deps.sendRendered(c, known.answer) : undefined;
    const payment = await deps.getPayment(token.merchantId, id);
    if (payment === undefined || !(await visible(token, payment, channelId))) return undefined;
    keep(payment);
    return deps.answer(c, payment);
  };
  /**
   * Forgets every kept answer (the idle gateway's rule, lifecycle/idle-memory.ts): they speed up a
   * burst of reads and are worth nothing to a quiet gateway, where up to MAX_KEPT_CHARS of them
   * would stay in the heap for good. The next read of each payment reads and keeps it again.
   */
  const release = (): void => {
    kept.clear();
    chars = 0;
  };
  return Object.assign(read, { release });
}
