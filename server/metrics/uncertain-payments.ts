/**
 * `gateway_uncertain_payments{asking}`: the payments whose processor's answer was lost, still
 * pending (shared/engine/steps/inquiry.ts), read from the store at each scrape: `asking="yes"`
 * those the pending-payments worker still asks about, `asking="stopped"` those it stopped asking
 * about a week on, for an operator to look into and ask again (`gateway payment inquire ID`).
 * Alert on `stopped` above 0.
 */
import { Gauge, type Registry } from 'prom-client';
import type { PaymentSessionStore } from '../../shared/engine/core/ports';

export function uncertainPaymentsMetric(
  registry: Registry,
  store: Pick<PaymentSessionStore, 'countUncertainPayments'>,
): Gauge {
  return new Gauge({
    name: 'gateway_uncertain_payments',
    help: 'Payments pending because their processor’s answer was lost: still asked about (yes), or no longer (stopped) after a week',
    labelNames: ['asking'] as const,
    registers: [registry],
    async collect() {
      const { asking, stopped } = await store.countUncertainPayments();
      this.set({ asking: 'yes' }, asking);
      this.set({ asking: 'stopped' }, stopped);
    },
  });
}
