/**
 * Throttle per access token, operation and channel, the live and the test system counted apart
 * (buckets.ts): past the channel's limit (`throttlePerMinute`, else DEFAULT_LIMIT_PER_MINUTE),
 * 429 with Retry-After. Without a token (a checkout's public requests) the checkout is the key.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { newId } from '../../../../shared/engine/core/ids';
import type { AccessToken, Channel, Checkout } from '../../../../shared/engine/core/model';
import type { GatewayMetrics } from '../../../metrics/instruments';
import type { ChannelEnv } from '../../context';
import type { Envelope } from '../envelope';
import { tooManyRequests } from '../envelope/too-many';
import { DEFAULT_LIMIT_PER_MINUTE, type Throttle } from './buckets';

export { createThrottle, DEFAULT_LIMIT_PER_MINUTE, type Throttle } from './buckets';

export interface ThrottleDeps {
  readonly env: Envelope;
  readonly throttle: Throttle;
  readonly metrics?: Pick<GatewayMetrics, 'throttled'>;
}

/**
 * 429 with Retry-After when the key's bucket is empty; undefined when the request may go on.
 * `id` is the answer's `id` (the path's, else a fresh one).
 */
export function throttled(
  deps: ThrottleDeps,
  c: Context,
  tokenId: string,
  operation: string,
  channel: Channel,
  id?: string,
): Response | undefined {
  const taken = deps.throttle.take(
    { tokenId, operation, mode: channel.mode, channelId: channel.id },
    channel.settings.throttlePerMinute ?? DEFAULT_LIMIT_PER_MINUTE,
  );
  if (taken.ok) return undefined;
  deps.metrics?.throttled.inc({ operation });
  // The id is made only for a refusal: a fresh id per request let through was wasted work.
  return tooManyRequests(deps.env, c, taken.retryAfterSeconds, 'Too many requests; retry later', {
    id: id ?? c.req.param('id') ?? newId(),
  });
}

type ThrottleEnv = ChannelEnv & {
  Variables: { token?: AccessToken | undefined; checkout?: Checkout | undefined };
};

/** Throttles `operation` on `c.var.channel` for `c.var.token` (or, without one, `c.var.checkout`). After `channel`. */
export function throttle(deps: ThrottleDeps, operation: string): MiddlewareHandler<ThrottleEnv> {
  return (c, next) => {
    const token = c.get('token');
    const checkout = c.get('checkout');
    const key = token?.id ?? `checkout:${checkout?.id}`;
    const refused = throttled(deps, c, key, operation, c.get('channel'), checkout?.id);
    if (refused !== undefined) return Promise.resolve(refused);
    return next();
  };
}
