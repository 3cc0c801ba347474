/**
 * referenceUuid (spec, Basic payment): a payment on /v1/payments that references an earlier
 * transaction instead of addressing /v1/payments/{id}, for REAUTHORIZATION and INCREMENTAL_AUTH.
 * The new payment is linked to the original (referencedId) and, when it sends no instrument of
 * its own, charges the original's stored card.
 *
 * "When no transaction matches, the request fails with a validation error": an unknown id, one
 * of another merchant, or one on another channel (the token may not be allowed to see that
 * channel, and the referencing workflow refuses cross-channel references too, 700.400.700).
 */
import { isPending, isSuccess, ResultCodes } from '../../result-codes';
import type { Caller } from '../core/deps';
import { type Checked, invalid } from '../core/failure';
import type { Payment } from '../core/model';
import type { PaymentStore } from '../core/ports';
import { AUTHENTICATION_PAYMENT_TYPE } from './three-d-secure';

/** The original payment a referenceUuid names, or the validation error that it names none. */
export async function linkedPayment(
  store: Pick<PaymentStore, 'getPayment'>,
  caller: Caller,
  referenceUuid: string,
): Promise<Checked<{ original: Payment }>> {
  const original = await store.getPayment(caller.merchantId, referenceUuid);
  if (original === undefined || original.channelId !== caller.channel.id) {
    return invalid([{ name: 'referenceUuid', value: referenceUuid, message: 'matches no transaction' }]);
  }
  // A stand-alone authentication authorized nothing to build on; its values go in threeDSecure.*.
  if (original.paymentType === AUTHENTICATION_PAYMENT_TYPE) {
    return invalid([
      {
        name: 'referenceUuid',
        value: referenceUuid,
        message:
          'names a stand-alone 3-D Secure authentication, not an authorization: send its threeDSecure.* values with the payment',
      },
    ]);
  }
  return { kind: 'ok', original };
}

/**
 * Whether a new authorization may build on the original: it must have succeeded (a rejected or
 * still pending authorization is nothing to extend) and be in the same currency. The codes are
 * the referencing workflow's, as it is the same question asked the other way round.
 */
export function linkRefusal(original: Payment, currency: string | undefined): string | undefined {
  if (isPending(original.resultCode)) return ResultCodes.REFERENCE_PENDING;
  if (!isSuccess(original.resultCode)) return ResultCodes.REFERENCE_REJECTED;
  if (currency !== undefined && original.currency !== undefined && currency !== original.currency) {
    return ResultCodes.REFERENCE_CURRENCY_MISMATCH;
  }
  return undefined;
}
