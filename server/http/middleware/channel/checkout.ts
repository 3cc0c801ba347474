/**
 * Channel access on the checkout routes, where the checkout id in the path is what authorizes:
 * the widget submits without merchant credentials, and a few old clients read the status without
 * any (compat). Credentials that ARE sent must be valid (credentials middleware), an entityId sent
 * must be one the token may use (403), and the checkout must be visible to them (its merchant's,
 * on that channel, else 404 as for a payment of another merchant). A checkout lives at the address
 * of its channel's environment only.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Channel, Environment } from '../../../../shared/engine/core/model';
import type { Store } from '../../../../shared/engine/core/ports';
import { ResultCodes } from '../../../../shared/result-codes';
import type { ChannelEnv, CheckoutEnv, OptionalTokenEnv } from '../../context';
import type { Envelope } from '../envelope';
import { entityIdOf, inEnvironment, mayUse, resolveChannel } from '.';

export interface CheckoutAccessDeps {
  readonly env: Envelope;
  readonly environment: Environment;
  readonly store: Pick<Store, 'getCheckout'>;
}

/** An id that names no checkout (or none these credentials may see): 404, in the family's words. */
export function noSession(env: Envelope, c: Context, checkoutId: string): Response {
  return env.send(
    c,
    404,
    { code: ResultCodes.INVALID_PARAMETER, description: 'No payment session found for the requested id' },
    {},
    /^[0-9A-Za-z.-]{1,48}$/.test(checkoutId) ? checkoutId : undefined,
  );
}

/** `c.var.checkout`: the checkout the path's `:id` names, else 404. After `credentials`. */
export function checkout(deps: CheckoutAccessDeps): MiddlewareHandler<CheckoutEnv> {
  return async (c, next) => {
    const id = c.req.param('id') ?? '';
    const found = await deps.store.getCheckout(id);
    if (found === undefined) return noSession(deps.env, c, id);
    c.set('checkout', found);
    await next();
  };
}

/**
 * `c.var.channel`: the checkout's channel, of this environment, which the token (when one was
 * sent) may use, or names by its entityId. After `checkout` and `parse`.
 */
export function checkoutChannel(
  deps: CheckoutAccessDeps,
  channels: Pick<Store, 'getChannel' | 'listChannels' | 'getMerchant'>,
): MiddlewareHandler<CheckoutEnv & OptionalTokenEnv & { Variables: { request: unknown } } & ChannelEnv> {
  const { env } = deps;
  return async (c, next) => {
    const { checkout: found, token } = c.var;
    const channel: Channel | undefined = await channels.getChannel(found.channelId);
    if (!inEnvironment(channel, deps.environment)) return noSession(env, c, c.req.param('id') ?? '');
    if (token !== undefined) {
      const entityId = entityIdOf(c.var.request);
      if (entityId !== undefined && entityId !== token.merchantId) {
        const named = await resolveChannel(channels, token, entityId, deps.environment);
        if (!named.ok)
          return env.send(c, 403, { code: ResultCodes.INVALID_AUTH, description: named.description });
        if (named.channel.id !== found.channelId) return noSession(env, c, c.req.param('id') ?? '');
      } else if (!mayUse(token, channel, deps.environment)) {
        return noSession(env, c, c.req.param('id') ?? '');
      }
    }
    c.set('channel', channel);
    await next();
  };
}
