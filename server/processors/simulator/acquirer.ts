/**
 * The acquirer simulator of test mode INTERNAL: decides a payment's outcome deterministically
 * from the documented test data (facts §6), so QA teams can reach every branch.
 *
 * In order:
 * 1. `customParameters[forceResultCode]` forces that code (decisions: Test mode); so does a result
 *    code written as the card holder, the family's "negative testing" habit. Success and pending
 *    codes cannot be forced: a forced outcome is always a failure.
 * 2. Instrument checks every mode makes: Luhn, number against brand, expiry, CVV length, IBAN.
 *    Network tokens (tokenAccount) are card numbers issued by the scheme, so they get the card
 *    checks (without a CVV; the cryptogram the catalogue requires stands in for it). A virtual
 *    account needs a virtual-account brand (100.210.102); a gift card needs its number and PIN to
 *    be redeemed (100.100.101 otherwise).
 * 3. The issuer's declines: a test card that passes every check above and is declined
 *    (`DECLINED_CARDS`), so a shopper-facing decline can be reached from a payment form that
 *    offers no way to send forceResultCode or a result code as the holder (the widget); the
 *    Mastercard ones carry the scheme's merchant advice code (resultDetails.MerchantAdviceCode).
 * 4. Anything else succeeds with exactly `000.100.110`, which sample integrations require; a card
 *    payment's AVS letter comes from its billing address (address-verification.ts).
 */
import {
  brandKind,
  type CardBrand,
  isCardBrand,
  validateCardNumber,
  validateCvv,
  validateExpiry,
  validateIban,
} from '../../../shared/brands';
import type { ProcessorInstrument, ProcessorRequest } from '../../../shared/engine/core/ports';
import { isKnownCode, isPending, isSuccess, ResultCodes } from '../../../shared/result-codes';
import { avsResponse } from './address-verification';

/** The account data the engine hands a processor (engine/core/ports.ts). */
export type SimulatedInstrument = ProcessorInstrument;
export type SimulatorRequest = ProcessorRequest;

export interface SimulatorDecision {
  readonly code: string;
  /** Address verification (address-verification.ts): F, Z, A, N or U. */
  readonly avsResponse?: string;
  /** Security code check: M match; P not processed (no code sent). */
  readonly cvvResponse?: string;
  /** The acquirer's own response code, as resultDetails.AcquirerResponse. */
  readonly acquirerResponse: string;
  /** The scheme's advice on a decline (Mastercard's 2 digits), as resultDetails.MerchantAdviceCode. */
  readonly merchantAdviceCode?: string;
}

const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;

/** A forced code: a known code that is neither success nor pending. */
export function forcedCode(value: string | undefined): string | undefined {
  if (value === undefined || !RESULT_CODE.test(value)) return undefined;
  if (!isKnownCode(value) || isSuccess(value) || isPending(value)) return undefined;
  return value;
}

const decline = (code: string, acquirerResponse: string): SimulatorDecision => ({ code, acquirerResponse });

/** How the simulated issuer declines one of its test cards. */
export interface IssuerDecline {
  readonly code: string;
  readonly acquirerResponse: string;
  readonly merchantAdviceCode?: string;
}

/**
 * Valid test cards the simulated issuer declines (after the Luhn, brand, expiry and CVV checks).
 * `4000000000000002` is the generic-decline card of common test card sets; it is not in the
 * family's own list (facts §6.2), so no documented success card changes. The `5100…` MASTER
 * cards decline with Mastercard's merchant advice codes, each with a decline it fits:
 * 01 new account information available (an updated expiry), 02 cannot approve at this time, try
 * again later, 03 do not try again, 21 payment cancellation (the cardholder stopped the payments).
 */
export const DECLINED_CARDS: Readonly<Record<string, IssuerDecline>> = {
  '4000000000000002': { code: ResultCodes.DECLINED_INVALID_CARD, acquirerResponse: '05' },
  '5100000000000016': { code: '800.100.157', acquirerResponse: '54', merchantAdviceCode: '01' },
  '5100000000000024': { code: '800.100.176', acquirerResponse: '51', merchantAdviceCode: '02' },
  '5100000000000032': { code: '800.100.172', acquirerResponse: '62', merchantAdviceCode: '03' },
  '5100000000000214': { code: '800.100.197', acquirerResponse: '05', merchantAdviceCode: '21' },
};

export function decide(request: SimulatorRequest, now: Date): SimulatorDecision {
  const { instrument } = request;
  const forced =
    forcedCode(request.customParameters?.forceResultCode) ??
    (instrument.kind === 'card' ? forcedCode(instrument.holder?.trim()) : undefined);
  if (forced !== undefined) return decline(forced, '05');

  if (instrument.kind === 'card' || instrument.kind === 'tokenAccount') {
    // a token's number is 12 to 19 digits whatever the brand's card lengths (the spec's table)
    const checked = checkCardNumber(instrument, now, instrument.kind === 'tokenAccount');
    if ('code' in checked) return checked;
    const cvv = instrument.kind === 'card' ? instrument.cvv : undefined;
    if (cvv !== undefined && !validateCvv(cvv, checked.brand)) {
      return decline(ResultCodes.INVALID_CVV_FOR_BRAND, 'N7');
    }
    const declined = instrument.kind === 'card' ? DECLINED_CARDS[instrument.number] : undefined;
    if (declined !== undefined) return declined;
    return {
      code: ResultCodes.SUCCESS_INTERNAL,
      acquirerResponse: '00',
      avsResponse: avsResponse(request.billing),
      cvvResponse: cvv === undefined ? 'P' : 'M',
    };
  }
  if (instrument.kind === 'storedCard') {
    // Its number was checked when it was stored; its expiry passes with time (decisions:
    // expired cards are declined in every mode).
    const expiry = validateExpiry(instrument.expiryMonth, instrument.expiryYear, now);
    if (expiry === 'expired') return decline(ResultCodes.CARD_EXPIRED, '54');
    const brand = isCardBrand(instrument.brand) ? instrument.brand : undefined;
    if (instrument.cvv !== undefined && brand !== undefined && !validateCvv(instrument.cvv, brand)) {
      return decline(ResultCodes.INVALID_CVV_FOR_BRAND, 'N7');
    }
    return {
      code: ResultCodes.SUCCESS_INTERNAL,
      acquirerResponse: '00',
      avsResponse: avsResponse(request.billing),
      cvvResponse: instrument.cvv === undefined ? 'P' : 'M',
    };
  }
  if (instrument.kind === 'virtualAccount') {
    if (instrument.accountId.trim() === '') return decline(ResultCodes.VIRTUAL_ACCOUNT_INVALID_ID, '14');
    // A brand the registry does not list as a virtual account (validation already refuses the
    // known card and bank brands with virtualAccount data; unknown brands get here).
    if (brandKind(instrument.brand) !== 'virtualAccount') {
      return decline(ResultCodes.VIRTUAL_ACCOUNT_INVALID_BRAND, '14');
    }
  }
  if (instrument.kind === 'giftCard' && !(instrument.hasNumber && instrument.hasPin)) {
    return decline(ResultCodes.INVALID_CARD_LUHN, '14');
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

/**
 * The number and expiry checks of a card, which a network token gets too: Luhn, the brand's
 * ranges, the card's lengths (not a token's: `anyLength`), and the expiry when one is sent (a
 * token's is optional).
 */
function checkCardNumber(
  instrument: {
    readonly brand: string;
    readonly number: string;
    readonly expiryMonth?: string;
    readonly expiryYear?: string;
  },
  now: Date,
  anyLength: boolean,
): { readonly brand: CardBrand } | SimulatorDecision {
  const brand: CardBrand | undefined = isCardBrand(instrument.brand) ? instrument.brand : undefined;
  const number = validateCardNumber(instrument.number, brand, anyLength);
  if (!number.ok) {
    if (number.reason === 'brand') return decline(ResultCodes.CARD_NUMBER_BRAND_MISMATCH, '14');
    return decline(ResultCodes.INVALID_CARD_LUHN, '14');
  }
  if (instrument.expiryMonth !== undefined || instrument.expiryYear !== undefined) {
    const expiry = validateExpiry(instrument.expiryMonth ?? '', instrument.expiryYear ?? '', now);
    if (expiry === 'expired') return decline(ResultCodes.CARD_EXPIRED, '54');
    if (expiry === 'format') return decline(ResultCodes.INVALID_EXPIRY_FORMAT, '54');
  }
  return { brand: number.brand };
}
