/**
 * GET /v1/payments/{id}: a payment the token may see, answered; a final payment's answer kept.
 *
 * Why a kept answer is never stale: the only change a stored payment ever sees is its pending
 * state ending (storage/sessions: finishPaymentSession's compare-and-set on result_code
 * `000.200.000`); no payment row is updated otherwise or deleted, and references, chargebacks
 * and reversals are rows of their own. So once a payment is not pending its answer (the row,
 * the static issuer table, the build number) is fixed in every process sharing the database,
 * and only the timestamp is new per read. Pending payments are read from the database each time.
 * Who may read is decided on every read, as before: the token's merchant, and its channel of
 * this environment (mayUse, with the channel cache's bound of a few seconds).
 */
import type { Context } from 'hono';
import type { AccessToken, Channel, Environment, Payment } from '../../shared/engine/core/model';
import { isPending } from '../../shared/result-codes';
import { mayUse } from './middleware/channel';
import type { RenderedAnswer } from './middleware/envelope';

/** Final answers kept per app: about 1.5 KB each, so at most some 15 MB. */
const MAX_KEPT = 10_000;

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
export function paymentReads(deps: PaymentReadDeps, max = MAX_KEPT) {
  const kept = new Map<string, Kept>();
  const visible = async (token: AccessToken, record: { merchantId: string; channelId: string }) => {
    if (record.merchantId !== token.merchantId) return false;
    const ch = await deps.getChannel(record.channelId);
    return ch !== undefined && mayUse(token, ch, deps.environment);
  };
  const keep = (payment: Payment): void => {
    if (isPending(payment.resultCode)) return;
    const answer = deps.render(payment);
    if (answer === undefined) return;
    // Oldest first out: a bound, not a policy (reads of recent payments dominate).
    if (kept.size >= max) kept.delete(kept.keys().next().value as string);
    kept.set(payment.id, { merchantId: payment.merchantId, channelId: payment.channelId, answer });
  };
  return async (c: Context, token: AccessToken, id: string): Promise<Response | undefined> => {
    const known = kept.get(id);
    if (known !== undefined)
      return (await visible(token, known)) ? deps.sendRendered(c, known.answer) : undefined;
    const payment = await deps.getPayment(token.merchantId, id);
    if (payment === undefined || !(await visible(token, payment))) return undefined;
    keep(payment);
    return deps.answer(c, payment);
  };
}
