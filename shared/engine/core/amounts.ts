/** The money of a request read into minor units (amount, forex.amount), faults as parameter errors. */
import { exponentOf, fromMinor, isToMinorError, type Minor, toMinor } from '../../money';
import type { ParameterError } from '../../params/errors';
import type { RequestOf } from '../../params/requests';

type PaymentRequest = RequestOf<'payment'>;

/** Reads `amount` in the currency's minor units; the AMT format is already checked. */
export function readAmount(amount: string, currency: string, name = 'amount'): Minor | ParameterError {
  const minor = toMinor(amount, currency);
  if (!isToMinorError(minor)) return minor;
  const message =
    minor.error === 'precision'
      ? `has more decimals than ${currency} has (${exponentOf(currency)})`
      : `cannot be read in ${currency}`;
  return { name, value: amount, message };
}

/** The money of a payment in minor units; forex.amount answered as DEC2, like amount. */
export interface Money {
  readonly amount: Minor;
  readonly forex?: { readonly amount: string; readonly currency: string };
}

/**
 * Reads `amount` and `forex.amount` (each in its own currency) the same way, reporting both
 * faults at once. The AMT formats and the forex pair were already checked by the catalogue.
 */
export function readMoney(
  request: Pick<PaymentRequest, 'amount' | 'currency' | 'forex'>,
): Money | { readonly errors: ParameterError[] } {
  const errors: ParameterError[] = [];
  const amount = readAmount(request.amount ?? '', request.currency ?? '');
  if (typeof amount !== 'number') errors.push(amount);
  const { forex } = request;
  let forexMinor: Minor | ParameterError | undefined;
  if (forex?.amount !== undefined && forex.currency !== undefined) {
    forexMinor = readAmount(forex.amount, forex.currency, 'forex.amount');
    if (typeof forexMinor !== 'number') errors.push(forexMinor);
  }
  if (errors.length > 0 || typeof amount !== 'number') return { errors };
  return typeof forexMinor === 'number' && forex?.currency !== undefined
    ? { amount, forex: { amount: fromMinor(forexMinor, forex.currency), currency: forex.currency } }
    : { amount };
}
