/**
 * `Idempotency-Key` on any POST: the first response is stored and replayed for 24 hours
 * instead of acting twice, so a merchant's retry after a timeout cannot charge twice. The same
 * key with a different request is refused. (The API family has no such header; merchants'
 * retry logic needs it.)
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Clock, Store } from '../../shared/engine/ports';
import { ResultCodes } from '../../shared/result-codes';
import { type Envelope, JSON_HEADERS } from './envelope';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export function idempotency(store: Store, clock: Clock, env: Envelope) {
  const refuse = (c: Context, message: string, key: string) =>
    env.send(c, 400, {
      code: ResultCodes.INVALID_PARAMETER,
      description: 'invalid or missing parameter',
      parameterErrors: [{ name: 'Idempotency-Key', value: key, message }],
    });
  return async (
    c: Context,
    ready: { readonly token: { readonly merchantId: string }; readonly body: string },
    run: () => Promise<Response>,
  ): Promise<Response> => {
    const key = c.req.header('idempotency-key');
    if (key === undefined || c.req.method !== 'POST') return run();
    if (!KEY.test(key)) return refuse(c, 'must be 1 to 255 visible ASCII characters', '');
    const merchantId = ready.token.merchantId;
    const requestHash = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n${ready.body}`)
      .digest('hex');
    const now = clock.now();
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
    const replay = (stored: { status: number; body: string; requestHash: string }) =>
      stored.requestHash === requestHash
        ? new Response(stored.body, {
            status: stored.status,
            headers: { ...JSON_HEADERS, 'Idempotent-Replayed': 'true' },
          })
        : refuse(c, 'was already used for a different request', key);

    // Retries with one key wait for each other, so only the first one acts.
    return store.exclusive(`idempotency:${merchantId}|${key}`, async () => {
      const earlier = await store.getResponse(merchantId, key, expiredBefore);
      if (earlier !== undefined) return replay(earlier);
      const response = await run();
      const body = await response.text();
      const kept = await store.rememberResponse(
        {
          merchantId,
          key,
          requestHash,
          status: response.status,
          body,
          createdAt: now,
        },
        expiredBefore,
      );
      // Another process may have stored first: answer what it answered.
      if (kept.body !== body) return replay(kept);
      return new Response(body, { status: response.status, headers: response.headers });
    });
  };
}
