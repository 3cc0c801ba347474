/**
 * The access log: one line per answered request at `info` (issue 34), with its method, the route
 * pattern that answered (`/v1/payments/:id`, never the raw path with its ids; `unmatched` for a
 * 404), the status, the result code the envelope answered (`resultCode`, none for an answer
 * outside the envelope: a page, a script), the duration in milliseconds and, through the request
 * logger, the request id. Registered after the request id, so the line carries it.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../../../security/logger';
import { answeredResultCode } from '../envelope';
import { requestLogger } from '../request-id';

const UNMATCHED = new Set(['*', '/*', '']);

export function accessLog(logger: Logger | undefined): MiddlewareHandler | undefined {
  if (logger === undefined || !logger.enabled('info')) return undefined;
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const pattern = routePath(c);
      const resultCode = answeredResultCode(c);
      requestLogger(c, logger).info('request', {
        method: c.req.method,
        route: UNMATCHED.has(pattern) ? 'unmatched' : pattern,
        status: c.res.status,
        ...(resultCode === undefined ? {} : { resultCode }),
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  };
}
