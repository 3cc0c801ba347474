/**
 * What the composition root (server/gateway.ts) wires for operations, in one place: the metrics
 * and the observers it hands to storage and the webhook dispatcher, the store whose payment and
 * checkout writes are counted, readyz over the store and the started workers, and the draining
 * flag a shutdown raises.
 */
import {
  countedStore,
  createMetrics,
  type GatewayMetrics,
  observeBatches,
  observeDeliveries,
} from '../metrics';
import { uncertainPaymentsMetric } from '../metrics/uncertain-payments';
import { type GatewayStore, type OpenStoreOptions, openStore } from '../storage';
import type { Poller } from '../workers/poller';
import { type Readiness, readiness, type WriteProbe } from './health';
import { idleReleases } from './idle-memory';

export type { GatewayMetrics } from '../metrics';

export function instrumentation(metrics: GatewayMetrics = createMetrics()) {
  const workers: Record<string, Poller> = {};
  let draining = false;
  let ready: Readiness | undefined;
  return {
    metrics,
    /** readyz, once readiness(store) has made it (the metrics address serves it too). */
    get ready(): Readiness | undefined {
      return ready;
    },
    observeDeliveries: observeDeliveries(metrics),
    /**
     * Opens the store, its group commit observed and its payment and checkout writes counted, and
     * the payments whose processor's answer was lost read from it at each scrape.
     */
    openStore: async (options: OpenStoreOptions): Promise<GatewayStore> => {
      const store = countedStore(
        await openStore({ ...options, observeBatch: observeBatches(metrics) }),
        metrics,
      );
      uncertainPaymentsMetric(metrics.registry, store);
      return store;
    },
    /** readyz over the store, its write probe (folderWritable: the SQLite data folder) and the workers. */
    readiness(store: GatewayStore, writable?: WriteProbe): Readiness {
      ready = readiness({
        store,
        workers,
        draining: () => draining,
        ...(writable === undefined ? {} : { writable }),
      });
      return ready;
    },
    /** The started workers: readyz checks them, the metrics report their lag. */
    watch(started: Readonly<Record<string, Poller>>): void {
      Object.assign(workers, started);
      metrics.watchWorkers(started);
    },
    /** What the apps' caches give back once the gateway is idle (main.ts runs it: idle-memory.ts). */
    idle: idleReleases(),
    /** A shutdown has begun: readyz answers 503 from now on. */
    drain(): void {
      draining = true;
    },
  };
}

export type Instrumentation = ReturnType<typeof instrumentation>;
