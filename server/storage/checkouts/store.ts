/**
 * The CheckoutStore and CheckoutNotificationStore ports: checkouts from creation to completion,
 * and the shopperResultUrl notification the notifier claims with a compare-and-set.
 */
import type { Checkout, CheckoutKind } from '../../../shared/engine/core/model';
import type { CheckoutNotificationStore, CheckoutStore } from '../../../shared/engine/core/ports';
import { asMinor } from '../../../shared/money';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { StoreContext } from '../core/context';
import { date, dateOrNull, int, type Mutable, ms, msOrNull, parseObject } from '../core/rows';
import type { CheckoutRow } from './tables';

export function rowToCheckout(r: CheckoutRow, sealer: AccountSealer): Checkout {
  const c: Mutable<Checkout> = {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    kind: r.kind as CheckoutKind,
    parameters: sealer.open(parseObject(r.parameters)),
    amount: asMinor(int(r.amount)),
    currency: r.currency,
    createdAt: date(r.created_at),
    expiresAt: date(r.expires_at),
    submittedAt: dateOrNull(r.submitted_at),
    completedAt: dateOrNull(r.completed_at),
    statusFetchedAt: dateOrNull(r.status_fetched_at),
    notifyDueAt: dateOrNull(r.notify_due_at),
    notifyAttempts: int(r.notify_attempts),
    notifiedAt: dateOrNull(r.notified_at),
  };
  if (r.shopper_result_url !== null) c.shopperResultUrl = r.shopper_result_url;
  if (r.payment_id !== null) c.paymentId = r.payment_id;
  if (r.registration_id !== null) c.registrationId = r.registration_id;
  if (r.result_code !== null) c.resultCode = r.result_code;
  return c;
}

/** CheckoutStore.updateCheckout: the new terms of a checkout still open (compare-and-set on completed_at). */
async function updateTerms(
  { db, sealer }: Pick<StoreContext, 'db' | 'sealer'>,
  id: string,
  terms: Pick<Checkout, 'parameters' | 'amount' | 'currency' | 'shopperResultUrl'>,
): Promise<boolean> {
  const result = await db
    .updateTable('checkouts')
    .set({
      parameters: JSON.stringify(sealer.seal(terms.parameters)),
      amount: terms.amount,
      currency: terms.currency,
      shopper_result_url: terms.shopperResultUrl ?? null,
    })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function checkoutStore({ db, sealer }: StoreContext): CheckoutStore {
  const toCheckout = (r: CheckoutRow) => rowToCheckout(r, sealer);
  return {
    async insertCheckout(c) {
      await db
        .insertInto('checkouts')
        .values({
          id: c.id,
          merchant_id: c.merchantId,
          channel_id: c.channelId,
          kind: c.kind,
          parameters: JSON.stringify(sealer.seal(c.parameters)),
          amount: c.amount,
          currency: c.currency,
          shopper_result_url: c.shopperResultUrl ?? null,
          created_at: ms(c.createdAt),
          expires_at: ms(c.expiresAt),
          payment_id: c.paymentId ?? null,
          registration_id: c.registrationId ?? null,
          result_code: c.resultCode ?? null,
          submitted_at: msOrNull(c.submittedAt),
          completed_at: msOrNull(c.completedAt),
          status_fetched_at: msOrNull(c.statusFetchedAt),
          notify_due_at: msOrNull(c.notifyDueAt),
          notify_attempts: c.notifyAttempts,
          notified_at: msOrNull(c.notifiedAt),
        })
        .execute();
    },

    async getCheckout(id) {
      const row = await db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toCheckout(row);
    },

    async recordCheckoutSubmission(id, at, notifyDueAt) {
      // Every submission arms a notification: one already pending keeps its (earlier) due time
      // and its attempts; a fresh one starts from none. notifiedAt is cleared: the merchant has
      // not been told about this submission yet.
      await db
        .updateTable('checkouts')
        .set((eb) => ({
          submitted_at: ms(at),
          notify_due_at: eb.fn.coalesce('notify_due_at', eb.val(ms(notifyDueAt))),
          notify_attempts: eb
            .case()
            .when('notify_due_at', 'is', null)
            .then(0)
            .else(eb.ref('notify_attempts'))
            .end(),
          notified_at: null,
        }))
        .where('id', '=', id)
        .execute();
    },

    async recordCheckoutAttempt(id, paymentId, resultCode) {
      await db
        .updateTable('checkouts')
        .set({ payment_id: paymentId, result_code: resultCode })
        .where('id', '=', id)
        .where('completed_at', 'is', null)
        .execute();
    },

    async settleCheckoutPayment(id, paymentId, resultCode, at, completed) {
      await db
        .updateTable('checkouts')
        .set({ result_code: resultCode, completed_at: completed ? ms(at) : null })
        .where('id', '=', id)
        .where('payment_id', '=', paymentId)
        .execute();
    },

    updateCheckout: (id, terms) => updateTerms({ db, sealer }, id, terms),

    async completeCheckout(id, completion) {
      const result = await db
        .updateTable('checkouts')
        .set({
          completed_at: ms(completion.at),
          result_code: completion.resultCode,
          payment_id: 'paymentId' in completion ? completion.paymentId : null,
          registration_id: 'registrationId' in completion ? completion.registrationId : null,
        })
        .where('id', '=', id)
        .where('completed_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async recordCheckoutStatusFetched(id, at) {
      await db
        .updateTable('checkouts')
        .set({ status_fetched_at: ms(at), notify_due_at: null })
        .where('id', '=', id)
        .execute();
    },
  };
}

export function checkoutNotificationStore({ db, sealer }: StoreContext): CheckoutNotificationStore {
  const toCheckout = (r: CheckoutRow) => rowToCheckout(r, sealer);
  return {
    async claimCheckoutNotifications(now, leaseUntil, limit) {
      const due = await db
        .selectFrom('checkouts')
        .selectAll()
        .where('notified_at', 'is', null)
        .where('notify_due_at', '<=', ms(now))
        .orderBy('notify_due_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      const claimed: Checkout[] = [];
      for (const row of due) {
        // Compare-and-set on the due time just read: of several pollers (processes sharing one
        // PostgreSQL) that read the same row, exactly one UPDATE matches it.
        const result = await db
          .updateTable('checkouts')
          .set((eb) => ({
            notify_due_at: ms(leaseUntil),
            notify_attempts: eb('notify_attempts', '+', 1),
          }))
          .where('id', '=', row.id)
          .where('notified_at', 'is', null)
          .where('notify_due_at', '=', row.notify_due_at)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) {
          claimed.push(
            toCheckout({
              ...row,
              notify_due_at: ms(leaseUntil),
              notify_attempts: int(row.notify_attempts) + 1,
            }),
          );
        }
      }
      return claimed;
    },

    async markCheckoutNotified(id, at) {
      await db
        .updateTable('checkouts')
        .set({ notified_at: ms(at), notify_due_at: null })
        .where('id', '=', id)
        .execute();
    },

    async cancelCheckoutNotification(id) {
      await db.updateTable('checkouts').set({ notify_due_at: null }).where('id', '=', id).execute();
    },
  };
}
