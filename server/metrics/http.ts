/**
 * Requests by method, route pattern and status, with their latency: the route is the pattern that
 * answered (`/v1/payments/:id`, hono/route), never the raw path (ids would make every payment a
 * series of its own); an answer no route gave (the 404) is `unmatched`.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { GatewayMetrics } from './instruments';

const UNMATCHED = new Set(['*', '/*', '']);
/** Methods as labels; any other verb (a client may send anything) is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function httpMetrics(metrics: GatewayMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const pattern = routePath(c);
      const labels = {
        method: METHODS.has(c.req.method) ? c.req.method : 'other',
        route: UNMATCHED.has(pattern) ? 'unmatched' : pattern,
        status: String(c.res.status),
      };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
    }
  };
}
