/**
 * The PaymentStore port: payments are written through group commit (`insertPayment` queues the
 * row with the notifications the engine rendered for it and its Idempotency-Key; the batch writer, payments/writers.ts,
 * commits them together) and read by id, by reference and by the query API.
 */
import type { PaymentStore } from '../../../shared/engine/core/ports';
import type { StoreContext } from '../core/context';
import type { GroupCommit } from '../core/group-commit';
import { compiledOnce, int } from '../core/rows';
import { claimWrite } from '../idempotency/claims';
import { paymentQuery } from './query';
import { paymentToRow, rowToPayment } from './rows';
import type { PaymentRow } from './tables';
import type { PaymentWrite } from './writers';

export function paymentStore(
  { db, sealer }: StoreContext,
  payments: GroupCommit<PaymentWrite>,
  closed: () => boolean,
): PaymentStore {
  const toPayment = (r: PaymentRow) => rowToPayment(r, sealer);
  // Every status GET runs this one.
  const paymentById = compiledOnce<PaymentRow>(
    db,
    db.selectFrom('payments').selectAll().where('id', '=', '').where('merchant_id', '=', ''),
  );

  return {
    insertPayment(payment, changes = [], idempotencyClaim) {
      if (closed()) return Promise.reject(new Error('Store is closed'));
      let write: PaymentWrite;
      try {
        const claim =
          idempotencyClaim === undefined
            ? undefined
            : claimWrite(idempotencyClaim, payment.merchantId, { payment_id: payment.id });
        write = {
          row: paymentToRow(payment, sealer),
          changes,
          ...(claim === undefined ? {} : { claim }),
        };
      } catch (error) {
        return Promise.reject(error);
      }
      return payments.add(write);
    },

    async getPayment(merchantId, id) {
      const [row] = await paymentById([id, merchantId]);
      return row && toPayment(row);
    },

    async listReferencing(merchantId, id) {
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('referenced_id', '=', id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toPayment);
    },

    async queryPayments(q) {
      return (await paymentQuery(db, q)?.execute())?.map(toPayment) ?? [];
    },

    // Three index lookups, never one OR: written as `referenced_id IN (…) OR id IN (SELECT …)
    // ORDER BY created_at, id`, SQLite's planner scanned every payment of the merchant (its
    // payments_created order), 0.3 s a call over a million; a search with linked transactions
    // calls it once a page. The neighbours of a page are few: ordered here, without ORDER BY
    // (which also turned the planner to payments_created).
    async listLinked(merchantId, ids) {
      if (ids.length === 0) return [];
      const list = [...ids];
      const referencing = await db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('referenced_id', 'in', list)
        .execute();
      // the originals' ids, then the originals, by primary key alone: with `merchant_id = ?` beside
      // a list of 100 ids SQLite chose payments_created (every payment of the merchant), so the
      // merchant is checked here
      const mine = <R extends { merchant_id: string }>(rows: R[]) =>
        rows.filter((r) => r.merchant_id === merchantId);
      const originals = mine(
        await db
          .selectFrom('payments')
          .select(['merchant_id', 'referenced_id'])
          .where('id', 'in', list)
          .execute(),
      ).flatMap((r) => (r.referenced_id === null ? [] : [r.referenced_id]));
      const referenced =
        originals.length === 0
          ? []
          : mine(
              await db
                .selectFrom('payments')
                .selectAll()
                .where('id', 'in', [...new Set(originals)])
                .execute(),
            );
      const found = new Map([...referencing, ...referenced].map((r) => [r.id, r]));
      return [...found.values()]
        .sort((x, y) => int(x.created_at) - int(y.created_at) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
        .map(toPayment);
    },
  };
}
