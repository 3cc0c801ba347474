/**
 * The gateway's metrics (instruments.ts) and the observers handed to the seams that must not
 * import them: storage's group commit (a BatchObserver) and the webhook dispatcher.
 */
import type { DeliveryOutcome } from '../webhooks/dispatcher';
import type { GatewayMetrics } from './instruments';

export { createMetrics, type GatewayMetrics } from './instruments';
export { countedStore } from './store';

/** storage's BatchObserver: each group-commit batch's size and latency. */
export const observeBatches =
  (metrics: GatewayMetrics) =>
  (size: number, seconds: number, failed: boolean): void => {
    metrics.batchSize.observe(size);
    metrics.batchDuration.observe({ failed: String(failed) }, seconds);
  };

/** The dispatcher's observer: each attempt's outcome and its delivery's queue age. */
export const observeDeliveries =
  (metrics: GatewayMetrics) =>
  (outcome: DeliveryOutcome, queueAgeSeconds: number): void => {
    metrics.webhookDeliveries.inc({ outcome });
    metrics.webhookQueueAge.observe(Math.max(0, queueAgeSeconds));
  };
