/**
 * The IdempotencyStore port: the responses of Idempotency-Keys. Claims are written by payments
 * and schedules, in their own transactions (claims.ts).
 */
import type { IdempotentResponse } from '../../../shared/engine/core/model';
import { IDEMPOTENCY_CLAIMED } from '../../../shared/engine/core/model';
import type { IdempotencyStore } from '../../../shared/engine/core/ports';
import type { StoreContext } from '../core/context';
import { date, int, ms } from '../core/rows';
import type { IdempotentResponseRow } from './tables';

const rowToResponse = (r: IdempotentResponseRow): IdempotentResponse => ({
  merchantId: r.merchant_id,
  key: r.key,
  requestHash: r.request_hash,
  status: int(r.status),
  body: r.body,
  createdAt: date(r.created_at),
  ...(r.payment_id === null ? {} : { paymentId: r.payment_id }),
  ...(r.schedule_id === null ? {} : { scheduleId: r.schedule_id }),
});

export function idempotencyStore({ db }: StoreContext): IdempotencyStore {
  return {
    async rememberResponse(r, replaceBefore) {
      // Insert, or replace an expired row or the claim the request's payment (schedule) left
      // (its response now follows it), or keep a live one: one statement (atomic in both
      // databases); then read whichever won.
      const fresh = {
        request_hash: r.requestHash,
        status: r.status,
        body: r.body,
        created_at: ms(r.createdAt),
        payment_id: r.paymentId ?? null,
        schedule_id: r.scheduleId ?? null,
      };
      const made = r.paymentId ?? r.scheduleId;
      await db
        .insertInto('idempotent_responses')
        .values({ merchant_id: r.merchantId, key: r.key, ...fresh })
        .onConflict((oc) =>
          oc
            .columns(['merchant_id', 'key'])
            .doUpdateSet(fresh)
            .where((eb) =>
              eb.or([
                eb('idempotent_responses.created_at', '<', ms(replaceBefore)),
                ...(made === undefined
                  ? []
                  : [
                      eb.and([
                        eb('idempotent_responses.status', '=', IDEMPOTENCY_CLAIMED),
                        eb(
                          r.paymentId === undefined
                            ? 'idempotent_responses.schedule_id'
                            : 'idempotent_responses.payment_id',
                          '=',
                          made,
                        ),
                      ]),
                    ]),
              ]),
            ),
        )
        .execute();
      const row = await db
        .selectFrom('idempotent_responses')
        .selectAll()
        .where('merchant_id', '=', r.merchantId)
        .where('key', '=', r.key)
        .executeTakeFirstOrThrow();
      return rowToResponse(row);
    },

    async getResponse(merchantId, key, notBefore) {
      const row = await db
        .selectFrom('idempotent_responses')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('key', '=', key)
        .where('created_at', '>=', ms(notBefore))
        .executeTakeFirst();
      return row && rowToResponse(row);
    },
  };
}
