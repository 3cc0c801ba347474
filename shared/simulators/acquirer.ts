/**
 * The acquirer simulator of test mode INTERNAL: decides a payment's outcome deterministically
 * from the documented test data (facts §6), so QA teams can reach every branch.
 *
 * In order:
 * 1. `customParameters[forceResultCode]` forces that code (decisions: Test mode); so does a result
 *    code written as the card holder, the family's "negative testing" habit. Success and pending
 *    codes cannot be forced: a forced outcome is always a failure.
 * 2. Instrument checks every mode makes: Luhn, number against brand, expiry, CVV length, IBAN.
 * 3. Anything else succeeds with exactly `000.100.110`, which sample integrations require.
 */
import {
  type CardBrand,
  isCardBrand,
  validateCardNumber,
  validateCvv,
  validateExpiry,
  validateIban,
} from '../brands';
import { isKnownCode, isPending, isSuccess, ResultCodes } from '../result-codes';

export type SimulatedInstrument =
  | {
      readonly kind: 'card';
      readonly brand: string;
      readonly number: string;
      readonly expiryMonth: string;
      readonly expiryYear: string;
      readonly cvv?: string;
      readonly holder?: string;
    }
  | { readonly kind: 'bankAccount'; readonly iban?: string; readonly holder?: string }
  /** A card stored with a registration: its number was checked when it was stored. */
  | {
      readonly kind: 'storedCard';
      readonly brand: string;
      readonly expiryMonth: string;
      readonly expiryYear: string;
      readonly cvv?: string;
    }
  | { readonly kind: 'other' };

export interface SimulatorRequest {
  readonly instrument: SimulatedInstrument;
  readonly customParameters?: Readonly<Record<string, string>>;
  /** Whether billing address data was sent, for the AVS letter. */
  readonly billingSent: boolean;
}

export interface SimulatorDecision {
  readonly code: string;
  /** Address verification: F address and postcode match; U not applicable. */
  readonly avsResponse?: string;
  /** Security code check: M match; P not processed (no code sent). */
  readonly cvvResponse?: string;
  /** The acquirer's own response code, as resultDetails.AcquirerResponse. */
  readonly acquirerResponse: string;
}

const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;

/** A forced code: a known code that is neither success nor pending. */
export function forcedCode(value: string | undefined): string | undefined {
  if (value === undefined || !RESULT_CODE.test(value)) return undefined;
  if (!isKnownCode(value) || isSuccess(value) || isPending(value)) return undefined;
  return value;
}

const decline = (code: string, acquirerResponse: string): SimulatorDecision => ({ code, acquirerResponse });

export function decide(request: SimulatorRequest, now: Date): SimulatorDecision {
  const { instrument } = request;
  const forced =
    forcedCode(request.customParameters?.forceResultCode) ??
    (instrument.kind === 'card' ? forcedCode(instrument.holder?.trim()) : undefined);
  if (forced !== undefined) return decline(forced, '05');

  if (instrument.kind === 'card') {
    const brand: CardBrand | undefined = isCardBrand(instrument.brand) ? instrument.brand : undefined;
    const number = validateCardNumber(instrument.number, brand);
    if (!number.ok) {
      if (number.reason === 'brand') return decline(ResultCodes.CARD_NUMBER_BRAND_MISMATCH, '14');
      return decline(ResultCodes.INVALID_CARD_LUHN, '14');
    }
    const expiry = validateExpiry(instrument.expiryMonth, instrument.expiryYear, now);
    if (expiry === 'expired') return decline(ResultCodes.CARD_EXPIRED, '54');
    if (expiry === 'format') return decline(ResultCodes.INVALID_EXPIRY_FORMAT, '54');
    if (instrument.cvv !== undefined && !validateCvv(instrument.cvv, number.brand)) {
      return decline(ResultCodes.INVALID_CVV_FOR_BRAND, 'N7');
    }
    return {
      code: ResultCodes.SUCCESS_INTERNAL,
      acquirerResponse: '00',
      avsResponse: request.billingSent ? 'F' : 'U',
      cvvResponse: instrument.cvv === undefined ? 'P' : 'M',
    };
  }
  if (
    instrument.kind === 'bankAccount' &&
    instrument.iban !== undefined &&
    !validateIban(instrument.iban).ok
  ) {
    return decline(ResultCodes.INVALID_CARD_LUHN, '14');
  }
  return { code: ResultCodes.SUCCESS_INTERNAL, acquirerResponse: '00' };
}
