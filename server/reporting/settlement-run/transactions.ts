/** A day's transactions: the channel's payments of the day that settle, as settle() takes them. */
import type { Channel, Payment } from '../../../shared/engine/core/model';
import { CHARGEBACK_RESULT_CODE } from '../../../shared/engine/operations/chargebacks';
import { describe, isSuccess, isSuccessReview } from '../../../shared/result-codes';
import type {
  CandidatePayment,
  FeeSchedule,
  SettlementPaymentType,
  SettlementTransaction,
} from '../../../shared/settlement';
import type { GatewayStore } from '../../storage/kysely-store';
import { DAY_MS, DAY_TYPES, type DayTransaction, dayStart, PAGE, recordBrand } from './model';

/** Whether a payment settles (or, PA/RV, may carry a fee). */
export function settles(p: Payment, fees: FeeSchedule): boolean {
  if (p.amount === null && p.paymentType !== 'RV') return false;
  const ok = isSuccess(p.resultCode) || isSuccessReview(p.resultCode);
  switch (p.paymentType) {
    case 'CB':
      return CHARGEBACK_RESULT_CODE.test(p.resultCode);
    case 'CR':
      return isSuccess(p.resultCode);
    case 'PA':
    case 'RV':
      return ok && fees[p.paymentType] !== undefined;
    default:
      return ok;
  }
}

export const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined;

function bankAccountOf(details: Payment['details']): SettlementTransaction['bankAccount'] {
  const bank = details.bankAccount as Record<string, unknown> | undefined;
  if (bank === undefined || typeof bank !== 'object') return undefined;
  const number = [bank.iban, bank.number].find((v): v is string => typeof v === 'string');
  const digits = number?.replace(/[^A-Za-z0-9]/g, '');
  const last4Digits = digits && digits.length >= 4 ? digits.slice(-4) : undefined;
  const holder = text(bank.holder, 128);
  const bankCode = text(bank.bankCode, 12);
  if (last4Digits === undefined && holder === undefined && bankCode === undefined) return undefined;
  return {
    ...(last4Digits === undefined ? {} : { last4Digits }),
    ...(holder === undefined ? {} : { holder }),
    ...(bankCode === undefined ? {} : { bankCode }),
  };
}

function clearingOf(details: Payment['details']): SettlementTransaction['clearing'] {
  const rd = details.resultDetails as Record<string, unknown> | undefined;
  if (rd === undefined || typeof rd !== 'object') return undefined;
  const ids = {
    txId1: text(rd.ConnectorTxID1, 64),
    txId2: text(rd.ConnectorTxID2, 64),
    txId3: text(rd.ConnectorTxID3, 64),
  };
  const present = Object.entries(ids).filter(([, v]) => v !== undefined);
  return present.length === 0 ? undefined : Object.fromEntries(present);
}

/** What a transaction reads of a payment it references: an RV's PA, a CR's CB, a CB's original. */
export type Referenced = Pick<
  Payment,
  'id' | 'shortId' | 'amount' | 'currency' | 'merchantTransactionId' | 'resultCode' | 'details'
>;

/** A payment as settle() takes it; `lookup` reads referenced payments (RV amounts, a CR's CB). */
export async function transactionOf(
  p: Payment,
  lookup: (id: string) => Promise<Referenced | undefined>,
): Promise<SettlementTransaction | undefined> {
  let amount = p.amount;
  let currency = p.currency;
  if ((amount === null || currency === undefined) && p.referencedId !== undefined) {
    const original = await lookup(p.referencedId);
    amount ??= original?.amount ?? null;
    currency ??= original?.currency;
  }
  if (amount === null || currency === undefined) return undefined;
  let reason: { code: string; description?: string } | undefined;
  if (p.paymentType === 'CB') {
    const code = text(p.details.chargebackResultCode, 11) ?? p.resultCode;
    reason = { code, description: describe(code) ?? p.resultDescription };
  } else if (p.paymentType === 'CR' && typeof p.details.chargebackId === 'string') {
    const chargeback = await lookup(p.details.chargebackId);
    const code = chargeback && (text(chargeback.details.chargebackResultCode, 11) ?? chargeback.resultCode);
    if (code !== undefined) reason = { code, description: describe(code) };
  }
  const brand = recordBrand(p.paymentBrand);
  const descriptor = text(p.descriptor, 128);
  const bankAccount = bankAccountOf(p.details);
  const clearing = clearingOf(p.details);
  return {
    id: p.id,
    shortId: p.shortId,
    paymentType: (p.paymentType === 'PA.CP' ? 'DB' : p.paymentType) as SettlementPaymentType,
    amount,
    currency,
    createdAt: p.createdAt,
    ...(brand === undefined ? {} : { brand }),
    ...(descriptor === undefined ? {} : { descriptor }),
    ...(p.merchantTransactionId === undefined ? {} : { merchantTransactionId: p.merchantTransactionId }),
    ...(p.card === undefined
      ? {}
      : {
          card: {
            last4Digits: p.card.last4Digits,
            ...(p.card.holder === undefined ? {} : { holder: p.card.holder.slice(0, 128) }),
          },
        }),
    ...(bankAccount === undefined ? {} : { bankAccount }),
    ...(p.referencedId === undefined ? {} : { referencedId: p.referencedId }),
    ...(p.paymentType === 'CR' && typeof p.details.chargebackId === 'string'
      ? { chargebackId: p.details.chargebackId }
      : {}),
    ...(reason === undefined
      ? {}
      : {
          chargebackResultCode: reason.code,
          ...(reason.description === undefined ? {} : { chargebackResultDescription: reason.description }),
        }),
    ...(clearing === undefined ? {} : { clearing }),
  };
}

/**
 * The channel's payments of the day that settle, oldest first, a page at a time (keyset on
 * createdAt, id, the index read from the cursor on: server/storage/settlements/day-payments.ts): a
 * day of a million payments is never held whole with its details, and each page costs the same.
 */
export async function* dayPayments(
  store: GatewayStore,
  channel: Channel,
  date: string,
  fees: FeeSchedule,
): AsyncGenerator<Payment[]> {
  const from = dayStart(date);
  const until = new Date(from.getTime() + DAY_MS);
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const page = await store.dayPaymentsPage({
      merchantId: channel.merchantId,
      channelId: channel.id,
      from,
      until,
      paymentTypes: DAY_TYPES,
      limit: PAGE,
      ...(after === undefined ? {} : { after }),
    });
    yield page.filter((p) => settles(p, fees));
    if (page.length < PAGE) return;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * The channel's transactions of the day that settle (see dayPayments), a page at a time, in
 * their order (createdAt, id). Each page's payments are reduced to what settlement keeps as soon
 * as it is read; a referenced payment outside the page is read by its id.
 */
export async function* dayTransactions(
  store: GatewayStore,
  channel: Channel,
  date: string,
  fees: FeeSchedule,
): AsyncGenerator<DayTransaction[]> {
  for await (const payments of dayPayments(store, channel, date, fees)) {
    const byId = new Map(payments.map((p) => [p.id, p]));
    const lookup = async (id: string) => byId.get(id) ?? (await store.getPayment(channel.merchantId, id));
    const page: DayTransaction[] = [];
    for (const p of payments) {
      const tx = await transactionOf(p, lookup);
      if (tx === undefined) continue;
      const invoice = text(p.details.merchantInvoiceId, 255);
      page.push({
        tx,
        references: {
          ...(tx.merchantTransactionId === undefined
            ? {}
            : { merchantTransactionId: tx.merchantTransactionId }),
          ...(invoice === undefined ? {} : { merchantInvoiceId: invoice }),
        },
        candidates: await candidatesOf(tx, lookup),
        ...(channel.settings.connector !== undefined && p.testMode !== 'INTERNAL'
          ? { viaConnector: true as const }
          : {}),
      });
    }
    yield page;
  }
}

/** The transaction itself and, for a CB or CR, the payment charged back (when the store has it). */
async function candidatesOf(
  tx: SettlementTransaction,
  lookup: (id: string) => Promise<Referenced | undefined>,
): Promise<CandidatePayment[]> {
  const own = { id: tx.id, shortId: tx.shortId, merchantTransactionId: tx.merchantTransactionId };
  if ((tx.paymentType !== 'CB' && tx.paymentType !== 'CR') || tx.referencedId === undefined) return [own];
  const original = await lookup(tx.referencedId);
  if (original === undefined) return [own];
  return [
    own,
    {
      id: original.id,
      shortId: original.shortId,
      ...(original.merchantTransactionId === undefined
        ? {}
        : { merchantTransactionId: original.merchantTransactionId }),
    },
  ];
}
