/**
 * The gateway's metrics, in the Prometheus format through prom-client: one registry per gateway
 * (tests run several in one process), its instruments named `gateway_*`, and the process's
 * default metrics (CPU, memory, event-loop lag, open handles) beside them under prom-client's own
 * names (`process_cpu_user_seconds_total`, `nodejs_heap_size_total_bytes`, …), which stock Node.js
 * dashboards and alerts query: a prefix would leave them empty. The seams feed them:
 * http.ts (requests), store.ts (payments, checkouts), the webhook dispatcher's and the group
 * commit's observers, the throttle, and the workers' poll state read at each scrape.
 *
 * Labels are bounded: route patterns (not paths), method codes, payment types, result-code
 * groups, outcomes, operation and worker names. Nothing here sees a card number or an id.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PollerState } from '../workers/poller';

/** Seconds: from a fast in-process answer to a slow connector. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Payments per group-commit batch. */
const BATCH_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
/** Seconds a webhook delivery waited: immediate, retried within the hour, within days. */
const QUEUE_AGE_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400, 604800];

export function createMetrics(options: { readonly defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const workers = new Map<string, () => PollerState>();

  return {
    registry,
    httpRequests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    payments: new Counter({
      name: 'gateway_payments_total',
      help: 'Payments recorded, by payment method code, paymentType and result-code group',
      labelNames: ['method', 'payment_type', 'result'] as const,
      registers,
    }),
    pendingEnded: new Counter({
      name: 'gateway_pending_payments_ended_total',
      help: 'Pending payments given their final state, by result-code group',
      labelNames: ['result'] as const,
      registers,
    }),
    checkouts: new Counter({
      name: 'gateway_checkouts_total',
      help: 'Checkouts created, and completed by result-code group (conversion: completed{result="success"} / created)',
      labelNames: ['event', 'result'] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'gateway_webhook_deliveries_total',
      help: 'Webhook and notificationUrl delivery attempts, by outcome',
      labelNames: ['outcome'] as const,
      registers,
    }),
    webhookQueueAge: new Histogram({
      name: 'gateway_webhook_queue_age_seconds',
      help: 'How long a delivery had waited since it was queued when it was attempted',
      buckets: QUEUE_AGE_BUCKETS,
      registers,
    }),
    batchSize: new Histogram({
      name: 'gateway_payment_batch_size',
      help: 'Payments written per group-commit batch',
      buckets: BATCH_SIZE_BUCKETS,
      registers,
    }),
    batchDuration: new Histogram({
      name: 'gateway_payment_batch_duration_seconds',
      help: 'Time to write (and sync) one group-commit batch of payments, by whether it failed',
      labelNames: ['failed'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    apiRequestsDropped: new Counter({
      name: 'gateway_api_requests_dropped_total',
      help: "Recent API requests not recorded because the recorder's queue was full (the oldest queued is dropped)",
      registers,
    }),
    throttled: new Counter({
      name: 'gateway_throttle_rejections_total',
      help: 'Requests refused by the throttle (429), by operation',
      labelNames: ['operation'] as const,
      registers,
    }),
    workerLag: new Gauge({
      name: 'gateway_worker_lag_seconds',
      help: "Seconds since a running worker last finished a poll (since it started, before its first); stays under the worker's interval plus a poll when healthy",
      labelNames: ['worker'] as const,
      registers,
      collect() {
        const now = Date.now();
        this.reset();
        for (const [worker, state] of workers) {
          const s = state();
          const since = s.lastRunAt ?? s.startedAt;
          if (s.running && since !== undefined) this.set({ worker }, Math.max(0, now - since) / 1000);
        }
      },
    }),
    /** The workers whose lag is reported, by name. */
    watchWorkers(named: Readonly<Record<string, { state(): PollerState }>>): void {
      for (const [name, worker] of Object.entries(named)) workers.set(name, () => worker.state());
    },
  };
}

export type GatewayMetrics = ReturnType<typeof createMetrics>;
