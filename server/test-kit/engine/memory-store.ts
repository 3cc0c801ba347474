/** An in-memory Store for engine tests: the same contract as the database adapters, nothing durable. */

import { keyedLock } from '../../../shared/engine/core/keyed-lock';
import type {
  AccessToken,
  Channel,
  Checkout,
  IdempotentResponse,
  Merchant,
  Payment,
  PaymentSession,
  Registration,
} from '../../../shared/engine/core/model';
import type { PaymentQuery, Store } from '../../../shared/engine/core/ports';

/** The order of the query API and of listReferencing: created_at, then id. */
const byCreation = (
  a: { readonly createdAt: Date; readonly id: string },
  b: { readonly createdAt: Date; readonly id: string },
): number => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Whether a payment is one the query `q` asks for (its filters, and past its `after` cursor). */
function matchesQuery(p: Payment, q: PaymentQuery): boolean {
  const after = q.after;
  return (
    p.merchantId === q.merchantId &&
    (q.channelIds === undefined || q.channelIds.includes(p.channelId)) &&
    (q.merchantTransactionId === undefined || p.merchantTransactionId === q.merchantTransactionId) &&
    (q.from === undefined || p.createdAt.getTime() >= q.from.getTime()) &&
    (q.until === undefined || p.createdAt.getTime() < q.until.getTime()) &&
    (q.shortId === undefined || p.shortId === q.shortId) &&
    (q.paymentTypes === undefined || q.paymentTypes.includes(p.paymentType)) &&
    (q.paymentBrands === undefined ||
      (p.paymentBrand !== undefined && q.paymentBrands.includes(p.paymentBrand))) &&
    (after === undefined || byCreation(p, after) > 0)
  );
}

export function memoryStore(): Store {
  const payments = new Map<string, Payment>();
  const registrations = new Map<string, Registration>();
  const merchants = new Map<string, Merchant>();
  const channels = new Map<string, Channel>();
  const tokens = new Map<string, AccessToken>();
  const responses = new Map<string, IdempotentResponse>();
  const checkouts = new Map<string, Checkout>();
  const sessions = new Map<string, PaymentSession>();
  const updateCheckout = (id: string, change: (c: Checkout) => Partial<Checkout>) => {
    const c = checkouts.get(id);
    if (c !== undefined) checkouts.set(id, { ...c, ...change(c) });
  };
  const mine = <T extends { merchantId: string }>(record: T | undefined, merchantId: string) =>
    record?.merchantId === merchantId ? record : undefined;

  return {
    async insertPayment(p) {
      if (payments.has(p.id)) throw new Error(`duplicate payment ${p.id}`);
      payments.set(p.id, p);
    },
    async getPayment(merchantId, id) {
      return mine(payments.get(id), merchantId);
    },
    async listReferencing(merchantId, id) {
      return [...payments.values()]
        .filter((p) => p.merchantId === merchantId && p.referencedId === id)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },
    async queryPayments(q) {
      return [...payments.values()]
        .filter((p) => matchesQuery(p, q))
        .sort(byCreation)
        .slice(0, q.limit);
    },
    async listLinked(merchantId, ids) {
      const wanted = new Set(ids);
      const referenced = new Set(
        ids.map((id) => mine(payments.get(id), merchantId)?.referencedId).filter((id) => id !== undefined),
      );
      return [...payments.values()]
        .filter(
          (p) =>
            p.merchantId === merchantId &&
            ((p.referencedId !== undefined && wanted.has(p.referencedId)) || referenced.has(p.id)),
        )
        .sort(byCreation);
    },
    async insertPaymentSession(session) {
      if (sessions.has(session.id)) throw new Error(`duplicate session ${session.id}`);
      sessions.set(session.id, session);
    },
    async getPaymentSession(id) {
      return sessions.get(id);
    },
    async getPaymentSessionOfPayment(paymentId) {
      return [...sessions.values()].find((s) => s.paymentId === paymentId);
    },
    async finishPaymentSession(id, at, outcome, final, registration) {
      const session = sessions.get(id);
      const payment = session && payments.get(session.paymentId);
      if (session === undefined || session.finishedAt !== null || payment?.resultCode !== '000.200.000') {
        return false;
      }
      sessions.set(id, { ...session, finishedAt: at, outcome, dueAt: null });
      payments.set(payment.id, { ...payment, ...final });
      if (registration !== undefined) registrations.set(registration.id, registration);
      return true;
    },
    async finishRegistrationSession(id, at, registration) {
      const session = sessions.get(id);
      if (session === undefined || session.finishedAt !== null || session.paymentId !== registration.id)
        return false;
      sessions.set(id, { ...session, finishedAt: at, outcome: 'approved', dueAt: null });
      registrations.set(registration.id, registration);
      return true;
    },
    async dropPaymentSession(id, at) {
      const session = sessions.get(id);
      if (session !== undefined && session.finishedAt === null) {
        sessions.set(id, { ...session, finishedAt: at, outcome: 'timedOut', dueAt: null });
      }
    },
    async claimDuePaymentSessions(now, leaseUntil, limit) {
      const due = [...sessions.values()]
        .filter((s) => s.finishedAt === null && s.dueAt !== null && s.dueAt <= now)
        .sort((a, b) => a.dueAt!.getTime() - b.dueAt!.getTime() || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map((s) => ({ ...s, dueAt: leaseUntil }));
      for (const s of due) sessions.set(s.id, s);
      return due;
    },
    async postponePaymentSession(id, dueAt) {
      const session = sessions.get(id);
      if (session !== undefined && session.finishedAt === null) sessions.set(id, { ...session, dueAt });
    },
    async countUncertainPayments() {
      const open = [...sessions.values()].filter((s) => s.kind === 'inquiry' && s.finishedAt === null);
      const asking = open.filter((s) => s.dueAt !== null).length;
      return { asking, stopped: open.length - asking };
    },
    async insertRegistration(r) {
      registrations.set(r.id, r);
    },
    async getRegistration(merchantId, id) {
      return mine(registrations.get(id), merchantId);
    },
    async deleteRegistration(merchantId, id, at) {
      const r = mine(registrations.get(id), merchantId);
      if (r === undefined || r.deletedAt !== null) return false;
      registrations.set(id, { ...r, deletedAt: at });
      return true;
    },
    async queryRegistrations(q) {
      return [...registrations.values()]
        .filter(
          (r) =>
            r.merchantId === q.merchantId &&
            (q.channelIds === undefined || q.channelIds.includes(r.channelId)) &&
            (q.merchantTransactionId === undefined || r.merchantTransactionId === q.merchantTransactionId) &&
            (q.from === undefined || r.createdAt >= q.from) &&
            (q.until === undefined || r.createdAt < q.until) &&
            (q.paymentBrands === undefined || q.paymentBrands.includes(r.paymentBrand)),
        )
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
        .slice(0, q.limit);
    },
    async insertCheckout(c) {
      if (checkouts.has(c.id)) throw new Error(`duplicate checkout ${c.id}`);
      checkouts.set(c.id, c);
    },
    async getCheckout(id) {
      return checkouts.get(id);
    },
    async recordCheckoutSubmission(id, at, notifyDueAt) {
      updateCheckout(id, (c) => ({
        submittedAt: at,
        notifyDueAt: c.notifyDueAt ?? notifyDueAt,
        notifyAttempts: c.notifyDueAt === null ? 0 : c.notifyAttempts,
        notifiedAt: null,
      }));
    },
    async recordCheckoutAttempt(id, paymentId, resultCode) {
      const c = checkouts.get(id);
      if (c !== undefined && c.completedAt === null) checkouts.set(id, { ...c, paymentId, resultCode });
    },
    async settleCheckoutPayment(id, paymentId, resultCode, at, completed) {
      const c = checkouts.get(id);
      if (c === undefined || c.paymentId !== paymentId) return;
      checkouts.set(id, { ...c, resultCode, completedAt: completed ? at : null });
    },
    async updateCheckout(id, terms) {
      const c = checkouts.get(id);
      if (c === undefined || c.completedAt !== null) return false;
      const { shopperResultUrl: _old, ...kept } = c;
      checkouts.set(id, { ...kept, ...terms });
      return true;
    },
    async completeCheckout(id, completion) {
      const c = checkouts.get(id);
      if (c === undefined || c.completedAt !== null) return false;
      const { at, resultCode, ...made } = completion;
      checkouts.set(id, { ...c, ...made, resultCode, completedAt: at });
      return true;
    },
    async recordCheckoutStatusFetched(id, at) {
      updateCheckout(id, () => ({ statusFetchedAt: at, notifyDueAt: null }));
    },
    async claimCheckoutNotifications(now, leaseUntil, limit) {
      const due = [...checkouts.values()]
        .filter((c) => c.notifiedAt === null && c.notifyDueAt !== null && c.notifyDueAt <= now)
        .sort((a, b) => a.notifyDueAt!.getTime() - b.notifyDueAt!.getTime() || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map((c) => ({ ...c, notifyDueAt: leaseUntil, notifyAttempts: c.notifyAttempts + 1 }));
      for (const c of due) checkouts.set(c.id, c);
      return due;
    },
    async markCheckoutNotified(id, at) {
      updateCheckout(id, () => ({ notifiedAt: at, notifyDueAt: null }));
    },
    async cancelCheckoutNotification(id) {
      updateCheckout(id, () => ({ notifyDueAt: null }));
    },
    async insertMerchant(m) {
      merchants.set(m.id, m);
    },
    async getMerchant(id) {
      return merchants.get(id);
    },
    async setMerchantDispatching(id, on) {
      const m = merchants.get(id);
      if (m === undefined) return false;
      merchants.set(id, { ...m, dispatching: on });
      return true;
    },
    async listMerchants() {
      return [...merchants.values()];
    },
    async insertChannel(c) {
      channels.set(c.id, c);
    },
    async getChannel(id) {
      return channels.get(id);
    },
    async listChannels(merchantId) {
      return [...channels.values()].filter((c) => c.merchantId === merchantId);
    },
    async updateChannelSettings(id, settings) {
      const c = channels.get(id);
      if (c !== undefined) channels.set(id, { ...c, settings });
    },
    async insertToken(t) {
      tokens.set(t.id, t);
    },
    async getTokenByUserId(userId) {
      return [...tokens.values()].find((t) => t.userId === userId);
    },
    async listTokens(merchantId) {
      return [...tokens.values()].filter((t) => t.merchantId === merchantId);
    },
    async revokeToken(id, at) {
      const t = tokens.get(id);
      if (t === undefined || t.revokedAt !== null) return false;
      tokens.set(id, { ...t, revokedAt: at });
      return true;
    },
    async rememberResponse(r, replaceBefore) {
      const key = `${r.merchantId}|${r.key}`;
      const existing = responses.get(key);
      if (existing !== undefined && existing.createdAt >= replaceBefore) return existing;
      responses.set(key, r);
      return r;
    },
    async getResponse(merchantId, key, notBefore) {
      const r = responses.get(`${merchantId}|${key}`);
      return r !== undefined && r.createdAt >= notBefore ? r : undefined;
    },
    exclusive: keyedLock(),
    async close() {},
  };
}
