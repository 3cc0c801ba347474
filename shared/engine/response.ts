/**
 * A stored payment as the API answers it: the fields clients read (compat: "Responses clients
 * read") and the echoed request groups. The envelope's buildNumber and timestamp are added by
 * the HTTP layer; the ndc belongs to the payment.
 */
import { fromMinor } from '../money';
import type { Payment } from './model';

export type PaymentResponse = Record<string, unknown> & {
  readonly id: string;
  readonly result: { readonly code: string; readonly description: string };
  readonly ndc: string;
};

export function paymentResponse(p: Payment): PaymentResponse {
  const { result: extraResult, ...details } = p.details as {
    result?: Record<string, unknown>;
    card?: Record<string, unknown>;
  };
  const card =
    p.card === undefined
      ? undefined
      : {
          bin: p.card.bin,
          last4Digits: p.card.last4Digits,
          ...(p.card.holder === undefined ? {} : { holder: p.card.holder }),
          expiryMonth: p.card.expiryMonth,
          expiryYear: p.card.expiryYear,
        };
  const echoedCard = details.card ?? {};
  return {
    id: p.id,
    paymentType: p.paymentType,
    ...(p.paymentBrand === undefined ? {} : { paymentBrand: p.paymentBrand }),
    ...(p.amount === null || p.currency === undefined ? {} : { amount: fromMinor(p.amount, p.currency) }),
    ...(p.currency === undefined ? {} : { currency: p.currency }),
    ...(p.descriptor === undefined ? {} : { descriptor: p.descriptor }),
    ...(p.merchantTransactionId === undefined ? {} : { merchantTransactionId: p.merchantTransactionId }),
    ...(p.referencedId === undefined ? {} : { referencedId: p.referencedId }),
    ...(p.registrationId === undefined ? {} : { registrationId: p.registrationId }),
    ...details,
    ...(card === undefined ? {} : { card: { ...echoedCard, ...card } }),
    result: { code: p.resultCode, description: p.resultDescription, ...extraResult },
    shortId: p.shortId,
    ndc: p.ndc,
  };
}
