/**
 * The scheduler: runs due scheduled payments (shared/engine/operations/schedules/runs.ts runDueSchedules) every
 * `intervalMs` (GATEWAY_SCHEDULER_INTERVAL_MS, 5 s by default).
 *
 * Durable like the other workers: what is due lives in schedules.next_run_at and schedule_runs,
 * each fire time is claimed with a compare-and-set and paid under a payment id reserved in the
 * claim, so several processes on one PostgreSQL pay each fire time once, and a restart neither
 * repeats nor loses a run. Missed fire times follow the catch-up rule: only the latest, and only
 * within `graceMs` (GATEWAY_SCHEDULER_GRACE_MS, 24 h by default), is paid late.
 */
import {
  DEFAULT_GRACE_MS,
  DEFAULT_RUN_LEASE_MS,
  runDueSchedules,
  type ScheduleDeps,
} from '../../shared/engine/operations/schedules';
import type { Logger } from '../security/logger';
import { type Poller, poller } from './poller';

export const DEFAULT_SCHEDULER_INTERVAL_MS = 5_000;

export interface SchedulerOptions {
  readonly intervalMs?: number;
  /** How late a missed fire time may still be paid (the latest one of a missed stretch only). */
  readonly graceMs?: number;
  /** How long a claimed run is its claimer's before another poll completes it. */
  readonly leaseMs?: number;
  readonly logger?: Logger;
}

export function schedulerWorker(deps: ScheduleDeps, options: SchedulerOptions = {}): Poller {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_RUN_LEASE_MS;
  return poller(
    () => runDueSchedules(deps, { graceMs, leaseMs }),
    options.intervalMs ?? DEFAULT_SCHEDULER_INTERVAL_MS,
    (error) => options.logger?.error('scheduler poll failed', { error }),
  );
}
