/**
 * The PaymentStore port: payments are written through group commit (`insertPayment` queues the
 * row with its notifications and its Idempotency-Key; the batch writer, payments/writers.ts,
 * commits them together) and read by id, by reference and by the query API.
 */
import { paymentChanges } from '../../../shared/engine/answers/notifications';
import type { PaymentStore } from '../../../shared/engine/core/ports';
import type { StoreContext } from '../core/context';
import type { GroupCommit } from '../core/group-commit';
import { compiledOnce } from '../core/rows';
import { claimWrite } from '../idempotency/claims';
import { paymentQuery } from './query';
import { paymentToRow, rowToPayment } from './rows';
import type { PaymentRow } from './tables';
import type { PaymentWrite } from './writers';

export function paymentStore(
  { db, sealer, issuers }: StoreContext,
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
    insertPayment(payment, idempotencyClaim) {
      if (closed()) return Promise.reject(new Error('Store is closed'));
      let write: PaymentWrite;
      try {
        const claim =
          idempotencyClaim === undefined
            ? undefined
            : claimWrite(idempotencyClaim, payment.merchantId, { payment_id: payment.id });
        write = {
          row: paymentToRow(payment, sealer),
          changes: paymentChanges(payment, payment.createdAt, issuers),
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

    async listLinked(merchantId, ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where((eb) =>
          eb.or([
            eb('referenced_id', 'in', [...ids]),
            eb(
              'id',
              'in',
              eb
                .selectFrom('payments as p')
                .select('p.referenced_id')
                .where('p.merchant_id', '=', merchantId)
                .where('p.id', 'in', [...ids])
                .where('p.referenced_id', 'is not', null),
            ),
          ]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toPayment);
    },
  };
}
