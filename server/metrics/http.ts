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
  // The series of each method, route and status, looked up once: prom-client hashes the label
  // object on every inc() and observe(), and the combinations are few (bounded labels).
  const series = new Map<string, { count(): void; time(seconds: number): void }>();
  const seriesOf = (method: string, route: string, status: string) => {
    const key = `${method} ${route} ${status}`;
    let found = series.get(key);
    if (found === undefined) {
      const labels = { method, route, status };
      const requests = metrics.httpRequests.labels(labels);
      const duration = metrics.httpDuration.labels(labels);
      found = { count: () => requests.inc(), time: (seconds) => duration.observe(seconds) };
      series.set(key, found);
    }
    return found;
  };
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const pattern = routePath(c);
      const answered = seriesOf(
        METHODS.has(c.req.method) ? c.req.method : 'other',
        UNMATCHED.has(pattern) ? 'unmatched' : pattern,
        String(c.res.status),
      );
      answered.count();
      answered.time((performance.now() - started) / 1000);
    }
  };
}
