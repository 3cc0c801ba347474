/**
 * The administration's payments list: the query string read into a PaymentListQuery
 * (storage/payments/list.ts), the keyset cursor (the last row's created_at and id, opaque to the
 * client), the four statuses the dashboard filters by, and the row each payment is shown as.
 */
import type * as z from 'zod';
import {
  DEFAULT_PAGE,
  MAX_PAGE,
  PAYMENT_STATUSES,
  paymentListQuery,
} from '../../../shared/contract/admin-queries';
import type { Payment } from '../../../shared/engine/core/model';
import { CURRENCY_CODES, fromMinor, isToMinorError, toMinor } from '../../../shared/money';
import { describe, RESULT_CODES, resultCodeGroup } from '../../../shared/result-codes';
import type { PaymentListQuery } from '../../storage/payments/list';
import type { FieldError } from '../users/accounts';

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export { MAX_PAGE, PAYMENT_STATUSES };

/** Declined: the issuer, the bank or the shopper's authentication said no (a retry may succeed). */
const DECLINED_GROUPS = new Set([
  'rejectedBank',
  'softDecline',
  'rejected3ds',
  'rejected3dsRisk',
  'rejectedAvs',
]);

/** What a result code means to the dashboard; codes in no group (or unknown) are rejected. */
export function paymentStatus(code: string): PaymentStatus {
  const group = resultCodeGroup(code);
  if (group === 'success' || group === 'successReview' || group === 'chargeback') return 'success';
  if (group === 'pending' || group === 'pendingLong') return 'pending';
  if (group !== undefined && DECLINED_GROUPS.has(group)) return 'declined';
  return 'rejected';
}

/** The catalogue's codes by status: a status filter is `result_code IN (…)` (rejected: NOT IN the others). */
const CODES_BY_STATUS = (() => {
  const by = new Map<PaymentStatus, string[]>(PAYMENT_STATUSES.map((s) => [s, []]));
  for (const [code] of RESULT_CODES) by.get(paymentStatus(code))!.push(code);
  return by;
})();

function statusFilter(status: PaymentStatus): Pick<PaymentListQuery, 'codes' | 'exceptCodes'> {
  if (status !== 'rejected') return { codes: CODES_BY_STATUS.get(status)! };
  const others = PAYMENT_STATUSES.filter((s) => s !== 'rejected').flatMap((s) => CODES_BY_STATUS.get(s)!);
  return { codes: others, exceptCodes: true };
}

export const encodeCursor = (p: Pick<Payment, 'createdAt' | 'id'>): string =>
  Buffer.from(`${p.createdAt.getTime()}.${p.id}`).toString('base64url');

function decodeCursor(text: string): { at: number; id: string } | undefined {
  const m = /^([0-9]{1,15})\.([0-9a-f]{32})$/.exec(Buffer.from(text, 'base64url').toString('latin1'));
  return m === null ? undefined : { at: Number(m[1]), id: m[2]! };
}

/** A date (`yyyy-MM-dd`, UTC) or an ISO 8601 moment; a date as `to` includes that whole day. */
function readMoment(text: string, end: boolean): number | undefined {
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text)) {
    const t = Date.parse(`${text}T00:00:00Z`);
    return Number.isNaN(t) ? undefined : end ? t + 86_400_000 : t;
  }
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2})$/.test(text)) return undefined;
  const t = Date.parse(text);
  return Number.isNaN(t) ? undefined : t;
}

/** Every currency's minor units for a decimal amount, grouped by value (EUR 10.00 → 1000, JPY → 10 …). */
function amountsOf(amount: string): PaymentListQuery['amounts'] {
  const by = new Map<number, string[]>();
  for (const currency of CURRENCY_CODES) {
    const minor = toMinor(amount, currency);
    if (isToMinorError(minor)) continue;
    by.set(minor, [...(by.get(minor) ?? []), currency]);
  }
  return [...by].map(([minor, currencies]) => ({ minor, currencies }));
}

export type ListFilters = Omit<PaymentListQuery, 'merchantId' | 'channelIds'>;

const FIELDS = paymentListQuery.shape;

/** The query string as a list query, or every faulty parameter. */
export function readListQuery(q: (name: string) => string | undefined): ListFilters | FieldError[] {
  const errors: FieldError[] = [];
  const bad = (name: string, message: string) => errors.push({ name, value: q(name) ?? null, message });
  // each parameter checked by the contract's rule (shared/contract/admin-queries.ts), the document's too
  const text = <K extends keyof typeof FIELDS>(name: K): z.output<(typeof FIELDS)[K]> | undefined => {
    const verdict = FIELDS[name].safeParse(q(name));
    if (verdict.success) return verdict.data as z.output<(typeof FIELDS)[K]>;
    bad(name, verdict.error.issues[0]?.message ?? 'is invalid');
    return undefined;
  };
  const id = text('id');
  const merchantTransactionId = text('merchantTransactionId');
  const shortId = text('shortId');
  const brand = text('brand');
  const amount = text('amount');
  const status = text('status');
  const [from, to] = (['from', 'to'] as const).map((name) => {
    const v = text(name);
    const t = v === undefined ? undefined : readMoment(v, name === 'to');
    // a moment of the right shape that is no real one (2026-02-30)
    if (v !== undefined && t === undefined)
      bad(name, 'must be a date (yyyy-MM-dd) or an ISO 8601 date and time');
    return t;
  });
  const limitText = text('limit') ?? DEFAULT_PAGE;
  const after = text('after');
  const before = after === undefined ? undefined : decodeCursor(after);
  if (after !== undefined && before === undefined) bad('after', 'must be the `next` of a previous page');
  if (errors.length > 0) return errors;
  return {
    limit: Number(limitText),
    ...(before === undefined ? {} : { before }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(id === undefined ? {} : { id }),
    ...(merchantTransactionId === undefined ? {} : { merchantTransactionId }),
    ...(shortId === undefined ? {} : { shortId }),
    ...(brand === undefined ? {} : { brand }),
    ...(amount === undefined ? {} : { amounts: amountsOf(amount) }),
    ...(status === undefined ? {} : statusFilter(status)),
  };
}

/** Minor units as the API writes amounts (DEC2; more decimals where the currency has them). */
export function displayAmount(p: Pick<Payment, 'amount' | 'currency'>): string | null {
  if (p.amount === null || p.currency === undefined) return null;
  try {
    return fromMinor(p.amount, p.currency);
  } catch {
    return String(p.amount);
  }
}

/** One row of the list. */
export const paymentRow = (p: Payment) => ({
  id: p.id,
  paymentType: p.paymentType,
  paymentBrand: p.paymentBrand ?? null,
  amount: displayAmount(p),
  currency: p.currency ?? null,
  result: { code: p.resultCode, description: p.resultDescription || describe(p.resultCode) || '' },
  status: paymentStatus(p.resultCode),
  merchantTransactionId: p.merchantTransactionId ?? null,
  shortId: p.shortId,
  last4: p.card?.last4Digits ?? null,
  createdAt: p.createdAt.toISOString(),
  entityId: p.channelId,
});
