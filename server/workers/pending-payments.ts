/**
 * Ends pending payments whose time has come (engine/steps/asynchronous.ts finishDue): abandoned ones
 * time out with 100.396.103 thirty minutes after they began, and decoupled 3-D Secure
 * authentications get the cardholder's answer from the simulated banking app, and connectors'
 * uncertain payments and registrations are asked about (engine/steps/inquiry.ts; one that stopped
 * being asked about after a week is logged at warn, a registration with paymentType RG).
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
    () =>
      finishDue(deps, undefined, (payment) =>
        // for the operator: the gateway no longer asks by itself (gateway payment inquire ID asks again)
        options.logger?.warn(
          `uncertain ${payment.paymentType === 'RG' ? 'registration' : 'payment'} no longer asked about: its processor gave no verdict in 7 days`,
          {
            paymentId: payment.id,
            merchantId: payment.merchantId,
            paymentType: payment.paymentType,
            since: payment.createdAt.toISOString(),
          },
        ),
      ),
    options.intervalMs ?? DEFAULT_PENDING_INTERVAL_MS,
    (error) => options.logger?.error('pending payments poll failed', { error }),
  );
}
