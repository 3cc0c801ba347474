/**
 * The PaymentSessionStore port: a pending payment's session (the plan its end needs, never card
 * data), claimed by the pending-payments worker, finished once by the shopper's answer or the
 * clock — with its payment's final state, a registration and their notifications in one
 * transaction.
 */

import type { Kysely } from 'kysely';
import type {
  FinalState,
  PaymentSession,
  PaymentSessionKind,
  Registration,
  SessionOutcome,
} from '../../../shared/engine/core/model';
import type { Change } from '../../../shared/engine/core/notification';
import type { PaymentSessionStore } from '../../../shared/engine/core/ports';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { StoreContext } from '../core/context';
import type { Database } from '../core/database';
import { date, dateOrNull, type Mutable, ms, msOrNull, NothingChanged, parseObject } from '../core/rows';
import { registrationToRow } from '../registrations/rows';
import { writeOutbox } from '../webhooks/outbox';
import type { PaymentSessionRow } from './tables';

function rowToSession(r: PaymentSessionRow, sealer: AccountSealer): PaymentSession {
  const s: Mutable<PaymentSession> = {
    id: r.id,
    paymentId: r.payment_id,
    merchantId: r.merchant_id,
    kind: r.kind as PaymentSessionKind,
    plan: sealer.open(parseObject(r.plan)),
    createdAt: date(r.created_at),
    expiresAt: date(r.expires_at),
    dueAt: dateOrNull(r.due_at),
    finishedAt: dateOrNull(r.finished_at),
  };
  if (r.checkout_id !== null) s.checkoutId = r.checkout_id;
  if (r.return_url !== null) s.returnUrl = r.return_url;
  if (r.outcome !== null) s.outcome = r.outcome as SessionOutcome;
  return s;
}

export function paymentSessionStore(ctx: StoreContext): PaymentSessionStore {
  const { db, sealer } = ctx;
  const toSession = (r: PaymentSessionRow) => rowToSession(r, sealer);
  return {
    async insertPaymentSession(session) {
      await db
        .insertInto('payment_sessions')
        .values({
          id: session.id,
          payment_id: session.paymentId,
          merchant_id: session.merchantId,
          kind: session.kind,
          checkout_id: session.checkoutId ?? null,
          return_url: session.returnUrl ?? null,
          plan: JSON.stringify(sealer.seal(session.plan)),
          created_at: ms(session.createdAt),
          expires_at: ms(session.expiresAt),
          due_at: msOrNull(session.dueAt),
          finished_at: msOrNull(session.finishedAt),
          outcome: session.outcome ?? null,
        })
        .execute();
    },

    async getPaymentSession(id) {
      const row = await db.selectFrom('payment_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row);
    },

    async getPaymentSessionOfPayment(paymentId) {
      const row = await db
        .selectFrom('payment_sessions')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .executeTakeFirst();
      return row && toSession(row);
    },
    finishPaymentSession: (id, at, outcome, final, registration, changes = []) =>
      finishSession(ctx, id, at, outcome, final, registration, changes),
    finishRegistrationSession: (id, at, registration, changes = []) =>
      finishRegistration(ctx, id, at, registration, changes),

    async dropPaymentSession(id, at) {
      await db
        .updateTable('payment_sessions')
        .set({ finished_at: ms(at), outcome: 'timedOut', due_at: null })
        .where('id', '=', id)
        .where('finished_at', 'is', null)
        .execute();
    },

    async postponePaymentSession(id, dueAt) {
      await db
        .updateTable('payment_sessions')
        .set({ due_at: msOrNull(dueAt) })
        .where('id', '=', id)
        .where('finished_at', 'is', null)
        .execute();
    },

    countUncertainPayments: () => countUncertain(ctx),

    async claimDuePaymentSessions(now, leaseUntil, limit) {
      const due = await db
        .selectFrom('payment_sessions')
        .selectAll()
        .where('finished_at', 'is', null)
        .where('due_at', '<=', ms(now))
        .orderBy('due_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      const claimed: PaymentSession[] = [];
      for (const row of due) {
        // Compare-and-set on the due time just read: exactly one of several pollers wins a row.
        const result = await db
          .updateTable('payment_sessions')
          .set({ due_at: ms(leaseUntil) })
          .where('id', '=', row.id)
          .where('finished_at', 'is', null)
          .where('due_at', '=', row.due_at)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) claimed.push(toSession({ ...row, due_at: ms(leaseUntil) }));
      }
      return claimed;
    },
  };
}

/** countUncertainPayments: the open inquiry sessions (of payments and registrations), asked about or stopped. */
async function countUncertain({ db }: StoreContext): Promise<{ asking: number; stopped: number }> {
  // count(due_at) counts the rows with a due time: those still asked about
  const row = await db
    .selectFrom('payment_sessions')
    .select((eb) => [
      eb.fn.countAll<number | string | bigint>().as('open'),
      eb.fn.count<number | string | bigint>('due_at').as('asking'),
    ])
    .where('kind', '=', 'inquiry')
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  const open = Number(row?.open ?? 0);
  const asking = Number(row?.asking ?? 0);
  return { asking, stopped: open - asking };
}

/**
 * finishPaymentSession: the session, its payment (compare-and-set), a registration and the outbox
 * rows of the changes the engine rendered for the end, in one transaction.
 */
/**
 * Ends an open session (compare-and-set on finished_at, and on its subject when given): of two
 * finishers exactly one gets its subject's id; the other's transaction is undone (NothingChanged).
 */
async function closeSession(
  trx: Kysely<Database>,
  id: string,
  at: Date,
  outcome: SessionOutcome,
  subjectId?: string,
): Promise<{ payment_id: string }> {
  let update = trx
    .updateTable('payment_sessions')
    .set({ finished_at: ms(at), outcome, due_at: null })
    .where('id', '=', id)
    .where('finished_at', 'is', null);
  if (subjectId !== undefined) update = update.where('payment_id', '=', subjectId);
  const session = await update.returning('payment_id').executeTakeFirst();
  if (session === undefined) throw new NothingChanged();
  return session;
}

async function finishSession(
  { db, sealer }: StoreContext,
  id: string,
  at: Date,
  outcome: SessionOutcome,
  final: FinalState,
  registration: Registration | undefined,
  changes: readonly Change[],
): Promise<boolean> {
  // A payment row may still sit in the group-commit queue; it is durable before its answer
  // is sent, so a session the shopper can finish always has its payment written.
  try {
    await db.transaction().execute(async (trx) => {
      const session = await closeSession(trx, id, at, outcome);
      const payment = await trx
        .updateTable('payments')
        .set({
          result_code: final.resultCode,
          result_description: final.resultDescription,
          details: JSON.stringify(sealer.seal(final.details)),
          ...(final.registrationId === undefined ? {} : { registration_id: final.registrationId }),
        })
        .where('id', '=', session.payment_id)
        .where('result_code', '=', '000.200.000')
        .returning('id')
        .executeTakeFirst();
      if (payment === undefined) throw new NothingChanged();
      if (registration !== undefined) {
        await trx.insertInto('registrations').values(registrationToRow(registration, sealer)).execute();
      }
      await writeOutbox(trx, changes, sealer);
    });
    return true;
  } catch (error) {
    if (error instanceof NothingChanged) return false;
    throw error;
  }
}

/**
 * finishRegistrationSession: the session of an uncertain registration (compare-and-set), the
 * registration's final details and the outbox rows of its change, in one transaction.
 */
async function finishRegistration(
  { db, sealer }: StoreContext,
  id: string,
  at: Date,
  registration: Registration,
  changes: readonly Change[],
): Promise<boolean> {
  const outcome: SessionOutcome = 'approved';
  try {
    await db.transaction().execute(async (trx) => {
      await closeSession(trx, id, at, outcome, registration.id);
      const row = registrationToRow(registration, sealer);
      await trx
        .updateTable('registrations')
        .set({ details: row.details, card: row.card })
        .where('id', '=', registration.id)
        .where('merchant_id', '=', registration.merchantId)
        .execute();
      await writeOutbox(trx, changes, sealer);
    });
    return true;
  } catch (error) {
    if (error instanceof NothingChanged) return false;
    throw error;
  }
}
