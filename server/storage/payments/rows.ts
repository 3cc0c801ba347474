/** Payments ↔ rows: the columns in the hot path's order, and the mapping both ways. */
import type { Payment, StoredCard, TestMode } from '../../../shared/engine/core/model';
import { asMinor } from '../../../shared/money';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import { cardToJson, date, int, type Mutable, ms, parseObject } from '../core/rows';
import type { NewPaymentRow, PaymentRow } from './tables';

/** All payment columns, in a fixed order (the SQLite hot path binds parameters by this order). */
export const PAYMENT_COLUMNS = [
  'id',
  'merchant_id',
  'channel_id',
  'payment_type',
  'payment_brand',
  'amount',
  'currency',
  'result_code',
  'result_description',
  'referenced_id',
  'registration_id',
  'merchant_transaction_id',
  'short_id',
  'descriptor',
  'ndc',
  'test_mode',
  'card',
  'details',
  'created_at',
  'checkout_id',
] as const satisfies readonly (keyof NewPaymentRow)[];

export function paymentToRow(p: Payment, sealer: AccountSealer): NewPaymentRow {
  return {
    id: p.id,
    merchant_id: p.merchantId,
    channel_id: p.channelId,
    payment_type: p.paymentType,
    payment_brand: p.paymentBrand ?? null,
    amount: p.amount,
    currency: p.currency ?? null,
    result_code: p.resultCode,
    result_description: p.resultDescription,
    referenced_id: p.referencedId ?? null,
    registration_id: p.registrationId ?? null,
    merchant_transaction_id: p.merchantTransactionId ?? null,
    short_id: p.shortId,
    descriptor: p.descriptor ?? null,
    ndc: p.ndc,
    test_mode: p.testMode ?? null,
    card: cardToJson(p.card),
    details: JSON.stringify(sealer.seal(p.details)),
    created_at: ms(p.createdAt),
    checkout_id: p.checkoutId ?? null,
  };
}

export function rowToPayment(r: PaymentRow, sealer: AccountSealer): Payment {
  const p: Mutable<Payment> = {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    paymentType: r.payment_type,
    amount: r.amount === null ? null : asMinor(int(r.amount)),
    resultCode: r.result_code,
    resultDescription: r.result_description,
    shortId: r.short_id,
    ndc: r.ndc,
    details: sealer.open(parseObject(r.details)),
    createdAt: date(r.created_at),
  };
  if (r.payment_brand !== null) p.paymentBrand = r.payment_brand;
  if (r.currency !== null) p.currency = r.currency;
  if (r.referenced_id !== null) p.referencedId = r.referenced_id;
  if (r.registration_id !== null) p.registrationId = r.registration_id;
  if (r.merchant_transaction_id !== null) p.merchantTransactionId = r.merchant_transaction_id;
  if (r.descriptor !== null) p.descriptor = r.descriptor;
  if (r.test_mode !== null) p.testMode = r.test_mode as TestMode;
  if (r.card !== null) p.card = JSON.parse(r.card) as StoredCard;
  if (r.checkout_id != null) p.checkoutId = r.checkout_id;
  return p;
}
