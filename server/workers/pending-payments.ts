/**
 * Ends pending payments whose time has come (engine/steps/asynchronous.ts finishDue): abandoned ones
 * time out with 100.396.103 thirty minutes after they began, and decoupled 3-D Secure
 * authentications get the cardholder's answer from the simulated banking app.
 *
 * Durable like the notifier: what is due lives in payment_sessions.due_at; each session is
 * claimed with a compare-and-set first, and finishing is itself a compare-and-set, so several
 * processes on one PostgreSQL end each payment once, and a restart loses nothing.
 */

import type { PendingDeps } from '../../shared/engine/steps/asynchronous';
import { finishDue } from '../../shared/engine/steps/due-sessions';
import type { Logger } from '../security/logger';
import { type Poller, poller } from './poller';

export const DEFAULT_PENDING_INTERVAL_MS = 5_000;

export function pendingPaymentsWorker(
  deps: PendingDeps,
  options: { readonly intervalMs?: number; readonly logger?: Logger } = {},
): Poller {
  return poller(
    () => finishDue(deps),
    options.intervalMs ?? DEFAULT_PENDING_INTERVAL_MS,
    (error) => options.logger?.error('pending payments poll failed', { error }),
  );
}
