/** The money of a request read into minor units (amount, forex.amount), faults as parameter errors. */
import { exponentOf, fromMinor, isToMinorError, type Minor, toMinor } from '../../money';
import type { ParameterError } from '../../params/errors';
import type { RequestOf } from '../../params/requests';
import { type Checked, invalid, ok } from './failure';

type PaymentRequest = RequestOf<'payment'>;

/** Reads `amount` in the currency's minor units; the AMT format is already checked. */
export function readAmount(amount: string, currency: string, name = 'amount'): Checked<{ amount: Minor }> {
  const minor = readMinor(amount, currency, name);
  return typeof minor === 'number' ? ok({ amount: minor }) : invalid([minor]);
}

/** readAmount's reading: the minor units, or the one fault (readMoney gathers two). */
function readMinor(amount: string, currency: string, name: string): Minor | ParameterError {
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
export function readMoney(request: Pick<PaymentRequest, 'amount' | 'currency' | 'forex'>): Checked<Money> {
  const errors: ParameterError[] = [];
  const amount = readMinor(request.amount ?? '', request.currency ?? '', 'amount');
  if (typeof amount !== 'number') errors.push(amount);
  const { forex } = request;
  let forexMinor: Minor | ParameterError | undefined;
  if (forex?.amount !== undefined && forex.currency !== undefined) {
    forexMinor = readMinor(forex.amount, forex.currency, 'forex.amount');
    if (typeof forexMinor !== 'number') errors.push(forexMinor);
  }
  if (errors.length > 0 || typeof amount !== 'number') return invalid(errors);
  return typeof forexMinor === 'number' && forex?.currency !== undefined
    ? {
        kind: 'ok',
        amount,
        forex: { amount: fromMinor(forexMinor, forex.currency), currency: forex.currency },
      }
    : { kind: 'ok', amount };
}
