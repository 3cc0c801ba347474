/** Registrations ↔ rows. */
import type { Registration, StoredCard } from '../../../shared/engine/core/model';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import { cardToJson, date, dateOrNull, type Mutable, ms, parseObject } from '../core/rows';
import type { RegistrationRow } from './tables';

export const registrationToRow = (r: Registration, sealer: AccountSealer) => ({
  id: r.id,
  merchant_id: r.merchantId,
  channel_id: r.channelId,
  payment_brand: r.paymentBrand,
  card: cardToJson(r.card),
  details: JSON.stringify(sealer.seal(r.details)),
  initial_transaction_id: r.initialTransactionId ?? null,
  agreement_id: r.agreementId ?? null,
  merchant_transaction_id: r.merchantTransactionId ?? null,
  deleted_at: r.deletedAt === null ? null : ms(r.deletedAt),
  created_at: ms(r.createdAt),
});

export function rowToRegistration(r: RegistrationRow, sealer: AccountSealer): Registration {
  const reg: Mutable<Registration> = {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    paymentBrand: r.payment_brand,
    details: sealer.open(parseObject(r.details)),
    deletedAt: dateOrNull(r.deleted_at),
    createdAt: date(r.created_at),
  };
  if (r.card !== null) reg.card = JSON.parse(r.card) as StoredCard;
  if (r.initial_transaction_id !== null) reg.initialTransactionId = r.initial_transaction_id;
  if (r.agreement_id !== null) reg.agreementId = r.agreement_id;
  if (r.merchant_transaction_id !== null) reg.merchantTransactionId = r.merchant_transaction_id;
  return reg;
}
