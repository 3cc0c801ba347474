/**
 * Retention: deletes what the gateway no longer needs once its reason has passed, on the
 * gateway's clock (a test clock in tests), in short batches so that no run holds a long write.
 *
 * - processor_events (server/storage/processor-events/): a processor's notification is kept by its
 *   key only so that the same notification sent again is not applied again. The processors stop
 *   resending after their retry windows (Adyen retries for up to 30 days, Stripe for up to 3): an
 *   event older than PROCESSOR_EVENT_RETENTION_MS can no longer come again, and its row goes. A
 *   copy that came anyway would still change nothing: a late failure is a compare-and-set on the
 *   result code the payment had, a pending payment's end is its session's.
 *
 * Several processes on one PostgreSQL may run it at once: each batch deletes what is there.
 */
import type { Clock } from '../../shared/engine/core/ports';
import type { Logger } from '../security/logger';
import type { ProcessorEventStore } from '../storage/processor-events/store';
import { type Poller, poller } from './poller';

const DAY_MS = 24 * 60 * 60_000;

/** The longest retry window of the processors' (Adyen's 30 days), and five days to spare. */
export const PROCESSOR_EVENT_RETENTION_MS = 35 * DAY_MS;

/** Hourly by default (GATEWAY_RETENTION_INTERVAL_MS): what it deletes is days old. */
export const DEFAULT_RETENTION_INTERVAL_MS = 60 * 60_000;

/** Rows deleted per statement, and statements per run (the rest waits for the next run). */
export const RETENTION_BATCH = 500;
const MAX_BATCHES = 20;

export interface RetentionDeps {
  readonly store: Pick<ProcessorEventStore, 'pruneProcessorEvents'>;
  readonly clock: Clock;
}

/** One run: every expired row deleted, batch by batch (at most MAX_BATCHES); how many. */
export async function pruneExpired(deps: RetentionDeps, batch = RETENTION_BATCH): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - PROCESSOR_EVENT_RETENTION_MS);
  let deleted = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const count = await deps.store.pruneProcessorEvents(before, batch);
    deleted += count;
    if (count < batch) break;
  }
  return deleted;
}

export function retentionWorker(
  deps: RetentionDeps,
  options: { readonly intervalMs?: number; readonly batch?: number; readonly logger?: Logger } = {},
): Poller {
  return poller(
    () => pruneExpired(deps, options.batch),
    options.intervalMs ?? DEFAULT_RETENTION_INTERVAL_MS,
    (error) => options.logger?.error('retention run failed', { error }),
  );
}
