/**
 * The sweep of the processors' notifications that came before their payment was written
 * (apply.ts applyWaiting), every `intervalMs` (GATEWAY_NOTICES_INTERVAL_MS, 5 s by default):
 * durable like the other workers (what waits is in processor_events), and safe with several
 * processes on one PostgreSQL (each event is taken over once).
 */
import { positiveNumber } from '../../security/env-number';
import type { Logger } from '../../security/logger';
import { type Poller, poller } from '../../workers/poller';
import { retentionWorker } from '../../workers/retention';
import { applyWaiting, type NoticeDeps } from './apply';

export const DEFAULT_NOTICES_INTERVAL_MS = 5_000;

export function waitingNoticesWorker(
  deps: NoticeDeps,
  options: { readonly intervalMs?: number; readonly logger?: Logger } = {},
): Poller {
  return poller(
    // the sweep says a late success it gave back on the workers' logger (late-success.ts)
    () => applyWaiting(options.logger === undefined ? deps : { ...deps, logger: options.logger }),
    options.intervalMs ?? DEFAULT_NOTICES_INTERVAL_MS,
    (error) => options.logger?.error('waiting processor notifications poll failed', { error }),
  );
}

/**
 * The composition root's two workers of processor_events, started: this sweep, and retention
 * (server/workers/retention.ts: events past the processors' retry windows), each interval from
 * the environment (GATEWAY_NOTICES_INTERVAL_MS, GATEWAY_RETENTION_INTERVAL_MS).
 */
export function processorEventWorkers(
  deps: NoticeDeps,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): { readonly notices: Poller; readonly retention: Poller } {
  const notices = waitingNoticesWorker(deps, {
    intervalMs: positiveNumber(env.GATEWAY_NOTICES_INTERVAL_MS),
    logger,
  });
  const retention = retentionWorker(deps, {
    intervalMs: positiveNumber(env.GATEWAY_RETENTION_INTERVAL_MS),
    logger,
  });
  notices.start();
  retention.start();
  return { notices, retention };
}
