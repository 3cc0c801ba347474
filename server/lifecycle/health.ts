/**
 * Health for orchestrators and load balancers: `GET /healthz` answers 200 while the process
 * serves at all (liveness); `GET /readyz` answers 200 only when the storage answers a query, every
 * migration is applied and every worker polls, and 503 otherwise, naming what is wrong
 * (readiness). Both on the public addresses, before the transport check, so a probe over plain
 * HTTP is answered in production too, and on the metrics address. They tell nothing about
 * merchants or payments.
 */
import type { Hono } from 'hono';
import type { GatewayStore } from '../storage';
import type { PollerState } from '../workers/poller';

export interface ReadyReport {
  readonly ready: boolean;
  readonly storage: 'reachable' | 'unreachable';
  /** Migrations not applied (empty when the schema is current; unknown when unreachable). */
  readonly pendingMigrations: readonly string[];
  /** Each worker: running, or stopped (not started, or stopping in a shutdown). */
  readonly workers: Readonly<Record<string, 'running' | 'stopped'>>;
  /** A shutdown has begun: new work should go elsewhere. */
  readonly draining: boolean;
}

export type Readiness = () => Promise<ReadyReport>;

export function readiness(parts: {
  readonly store: Pick<GatewayStore, 'pendingMigrations'>;
  readonly workers: Readonly<Record<string, { state(): PollerState }>>;
  readonly draining?: () => boolean;
}): Readiness {
  return async () => {
    let storage: ReadyReport['storage'] = 'reachable';
    let pendingMigrations: readonly string[] = [];
    try {
      pendingMigrations = await parts.store.pendingMigrations();
    } catch {
      storage = 'unreachable';
    }
    const workers = Object.fromEntries(
      Object.entries(parts.workers).map(([name, w]) => [name, w.state().running ? 'running' : 'stopped']),
    ) as Record<string, 'running' | 'stopped'>;
    const draining = parts.draining?.() ?? false;
    const ready =
      storage === 'reachable' &&
      pendingMigrations.length === 0 &&
      Object.values(workers).every((w) => w === 'running') &&
      !draining;
    return { ready, storage, pendingMigrations, workers, draining };
  };
}

// biome-ignore lint/suspicious/noExplicitAny: health routes fit any app's environment
export function healthRoutes(app: Hono<any>, ready: Readiness | undefined): void {
  app.get('/healthz', (c) => c.json({ status: 'alive' }, 200, { 'Cache-Control': 'no-store' }));
  if (ready === undefined) return;
  app.get('/readyz', async (c) => {
    const report = await ready();
    return c.json({ status: report.ready ? 'ready' : 'not ready', ...report }, report.ready ? 200 : 503, {
      'Cache-Control': 'no-store',
    });
  });
}
