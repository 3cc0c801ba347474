/**
 * The access log: one line per answered request at `info` (issue 34), with its method, the route
 * pattern that answered (`/v1/payments/:id`, never the raw path with its ids; `unmatched` for a
 * 404), the status, the result code the envelope answered (`resultCode`, none for an answer
 * outside the envelope: a page, a script), the duration in milliseconds and, through the request
 * logger, the request id. Registered after the request id, so the line carries it.
 *
 * The same facts of a merchant API request (one a merchant's access token made) go to `record`
 * when given: the merchant's recent API requests (server/backoffice/requests/recorder.ts, which
 * queues them and writes later; never a body, a parameter or a credential).
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AccessToken } from '../../../../shared/engine/core/model';
import type { Logger } from '../../../security/logger';
import type { ApiRequestRecord } from '../../../storage/api-requests/store';
import { answeredResultCode } from '../envelope';
import { type RequestIdEnv, requestLogger } from '../request-id';

const UNMATCHED = new Set(['*', '/*', '']);

/** What `record` is told of one merchant API request: what the store keeps of it. */
export type AccessEntry = ApiRequestRecord;

export function accessLog(
  logger: Logger | undefined,
  record?: (entry: AccessEntry) => void,
  now: () => Date = () => new Date(),
): MiddlewareHandler | undefined {
  const logging = logger?.enabled('info') === true;
  if (!logging && record === undefined) return undefined;
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const pattern = routePath(c);
      const resultCode = answeredResultCode(c);
      const route = UNMATCHED.has(pattern) ? 'unmatched' : pattern;
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      if (logging)
        requestLogger(c, logger)?.info('request', {
          method: c.req.method,
          route,
          status: c.res.status,
          ...(resultCode === undefined ? {} : { resultCode }),
          durationMs,
        });
      const token = (c.var as { token?: AccessToken }).token;
      if (record !== undefined && token !== undefined)
        record({
          merchantId: token.merchantId,
          method: c.req.method,
          route,
          status: c.res.status,
          resultCode: resultCode ?? null,
          durationMs,
          requestId: (c.var as RequestIdEnv['Variables']).requestId ?? '',
          at: now(),
        });
    }
  };
}
