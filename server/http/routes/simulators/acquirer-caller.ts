/**
 * Who may call the simulated acquirer's routes (acquirer.ts, acquirer-records.ts), and the
 * payment of its own that a route names.
 */
import type { Context } from 'hono';
import type { Channel, Payment } from '../../../../shared/engine/core/model';
import { ResultCodes } from '../../../../shared/result-codes';
import type { GatewayEnv, RouteDeps } from '../../context';
import type { GatewayMiddleware } from '../../middleware';
import { resolveChannel } from '../../middleware/channel';
import { credentialsOf } from '../../middleware/credentials';

/**
 * The credential rules of every simulated acquirer route: none needed on a developer's machine,
 * the merchant's in production; sent ones are always checked, and must be allowed the entityId.
 * A refusal's answer, or undefined to go on.
 */
export async function refusedCaller(
  c: Context<GatewayEnv>,
  deps: RouteDeps,
  mw: GatewayMiddleware,
  form: URLSearchParams,
): Promise<Response | undefined> {
  const credentials = credentialsOf(c.req.header('authorization'), () => form);
  if (credentials.kind === 'missing' && deps.production)
    return deps.env.send(c, 401, {
      code: ResultCodes.INVALID_AUTH,
      description:
        "missing authentication: in production the simulated acquirer needs the merchant's Authorization: Bearer <token>",
    });
  const token = credentials.kind === 'missing' ? undefined : await mw.authenticate(c, credentials);
  if (token instanceof Response) return token;
  if (token !== undefined) {
    const allowed = await resolveChannel(deps.store, token, form.get('entityId') ?? '', deps.environment);
    if (!allowed.ok)
      return deps.env.send(c, 403, { code: ResultCodes.INVALID_AUTH, description: allowed.description });
  }
  return undefined;
}

export const HEX32 = /^[0-9a-f]{32}$/;

export const NO_SIMULATED_PAYMENT =
  'no payment of the simulated acquirer (test mode INTERNAL) with this id on this entity';

/**
 * The payment `id` on the channel when the simulated acquirer decided it (test mode INTERNAL):
 * never a live or EXTERNAL one, whatever the caller knows. Undefined otherwise (404,
 * NO_SIMULATED_PAYMENT).
 */
export async function simulatedPayment(
  deps: RouteDeps,
  channel: Channel | undefined,
  id: string,
): Promise<Payment | undefined> {
  if (channel === undefined || !HEX32.test(id)) return undefined;
  const payment = await deps.store.getPayment(channel.merchantId, id);
  return payment?.channelId === channel.id && payment.testMode === 'INTERNAL' ? payment : undefined;
}
