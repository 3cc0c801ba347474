/**
 * Payments and checkouts are counted where they are recorded: around the store's writes, once
 * each write has resolved (an acknowledged record), whichever operation made it (the API, a
 * checkout, the scheduler, a chargeback). The labels come from the catalogues: the method code of
 * the brand (shared/brands) and the result code's group (shared/result-codes).
 */
import { brandMethod } from '../../shared/brands/registry';
import { resultCodeGroup } from '../../shared/result-codes';
import type { GatewayStore } from '../storage';
import type { GatewayMetrics } from './instruments';

const groupOf = (code: string): string => resultCodeGroup(code) ?? 'unclassified';

/** The store, its payment and checkout writes counted in `metrics`. */
export function countedStore(store: GatewayStore, metrics: GatewayMetrics): GatewayStore {
  return {
    ...store,
    async insertPayment(payment, changes, claim) {
      await store.insertPayment(payment, changes, claim);
      metrics.payments.inc({
        method: brandMethod(payment.paymentBrand) ?? 'none',
        payment_type: payment.paymentType,
        result: groupOf(payment.resultCode),
      });
    },
    async finishPaymentSession(id, at, outcome, final, registration, changes) {
      const finished = await store.finishPaymentSession(id, at, outcome, final, registration, changes);
      if (finished) metrics.pendingEnded.inc({ result: groupOf(final.resultCode) });
      return finished;
    },
    async insertCheckout(checkout) {
      await store.insertCheckout(checkout);
      metrics.checkouts.inc({ event: 'created', result: '' });
    },
    async completeCheckout(id, completion) {
      const completed = await store.completeCheckout(id, completion);
      if (completed) metrics.checkouts.inc({ event: 'completed', result: groupOf(completion.resultCode) });
      return completed;
    },
  };
}
