/**
 * The metrics address (GATEWAY_METRICS_PORT on GATEWAY_METRICS_HOST, 127.0.0.1 by default; off
 * when the port is unset): `GET /metrics` in the Prometheus text format, `/healthz` and
 * `/readyz`. Never on the public addresses: what it shows (volumes, error rates) is the operator's.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { GatewayMetrics } from '../metrics/instruments';
import { StartupError } from '../mode';
import { healthRoutes, type Readiness } from './health';

export function metricsApp(metrics: GatewayMetrics, ready?: Readiness): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) =>
    c.body(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType }),
  );
  healthRoutes(app, ready);
  app.notFound((c) => c.text('not found: /metrics, /healthz, /readyz\n', 404));
  return app;
}

export interface MetricsServer {
  readonly url: string;
  /** The listener, for the shutdown (server/lifecycle/shutdown.ts). */
  readonly server: Server;
  close(): Promise<void>;
}

/** Listens on host:port (0: any free port) and resolves once listening. */
export function startMetricsServer(options: {
  readonly metrics: GatewayMetrics;
  readonly ready?: Readiness;
  readonly port: number;
  readonly host?: string;
}): Promise<MetricsServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: metricsApp(options.metrics, options.ready).fetch, port: options.port, hostname: host },
      (info: AddressInfo) =>
        resolve({
          url: `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`,
          server: server as Server,
          close: () => new Promise<void>((done) => server.close(() => done())),
        }),
    );
    server.once('error', reject);
  });
}

/**
 * The metrics address main.ts opens: GATEWAY_METRICS_PORT (off when unset or empty) on
 * GATEWAY_METRICS_HOST (127.0.0.1). A value that is not a port is refused at startup.
 */
export async function startMetricsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  parts: { readonly metrics: GatewayMetrics; readonly ready?: Readiness | undefined },
): Promise<MetricsServer | undefined> {
  const text = env.GATEWAY_METRICS_PORT?.trim();
  if (text === undefined || text === '') return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(`GATEWAY_METRICS_PORT must be a TCP port, not "${text}"`);
  return await startMetricsServer({
    metrics: parts.metrics,
    ...(parts.ready === undefined ? {} : { ready: parts.ready }),
    port,
    host: env.GATEWAY_METRICS_HOST || '127.0.0.1',
  });
}
