/**
 * Adyen's documented test data (docs.adyen.com, "Test card numbers" and "Testing result codes and
 * refusal reasons"), as the fake answers it.
 *
 * - Every test card expires 03/2030 and takes the security code 737 (Amex: 7373).
 * - 4917 6100 0000 0000 (Visa) and 5454 5454 5454 5454 (Mastercard) are 3-D Secure 2 cards: the
 *   issuer asks the shopper (a challenge).
 * - The outcome of any other test card is chosen by the holder name: a holder named after a
 *   refusal reason (`DECLINED`, `NOT_ENOUGH_BALANCE`, `CVC_DECLINED`, …) gets that refusal, with
 *   Adyen's refusal reason text and code.
 */

/** Adyen's test cards (the number, its brand at Adyen, and whether its issuer challenges). */
export const ADYEN_TEST_CARDS: Readonly<
  Record<string, { readonly brand: string; readonly challenge: boolean; readonly frictionless?: boolean }>
> = {
  '4111111145551142': { brand: 'visa', challenge: false },
  // the fake authenticates this one without the shopper (frictionless), with 3-D Secure results:
  // Adyen's own test ACS decides frictionless or challenge by its simulator's settings
  '4988438843884305': { brand: 'visa', challenge: false, frictionless: true },
  '5555341244441115': { brand: 'mc', challenge: false },
  '2222400070000005': { brand: 'mc', challenge: false },
  '370000000000002': { brand: 'amex', challenge: false },
  '4917610000000000': { brand: 'visa', challenge: true },
  // the card of the published document's 3-D Secure redirect example (post-payments-card-3d-secure-redirect)
  '4212345678901237': { brand: 'visa', challenge: true },
  '5454545454545454': { brand: 'mc', challenge: true },
};

export const TEST_EXPIRY = { month: '03', year: '2030' } as const;

/** The security code of a test card of `brand`. */
export const testCvc = (brand: string) => (brand === 'amex' ? '7373' : '737');

/**
 * The holder names that choose a refusal, with Adyen's refusal reason and its code (the refusal
 * reasons' table): `resultCode` Refused unless said otherwise.
 */
export const HOLDER_REFUSALS: Readonly<
  Record<string, { readonly reason: string; readonly code: string; readonly resultCode?: string }>
> = {
  DECLINED: { reason: 'Refused', code: '2' },
  REFERRAL: { reason: 'Referral', code: '3' },
  ERROR: { reason: 'Acquirer Error', code: '4', resultCode: 'Error' },
  BLOCK_CARD: { reason: 'Blocked Card', code: '5' },
  CARD_EXPIRED: { reason: 'Expired Card', code: '6' },
  INVALID_AMOUNT: { reason: 'Invalid Amount', code: '7' },
  INVALID_CARD: { reason: 'Invalid Card Number', code: '8' },
  ISSUER_UNAVAILABLE: { reason: 'Issuer Unavailable', code: '9' },
  NOT_SUPPORTED: { reason: 'Not supported', code: '10' },
  NOT_3D_AUTHENTICATED: { reason: '3D Not Authenticated', code: '11' },
  NOT_ENOUGH_BALANCE: { reason: 'Not enough balance', code: '12' },
  FRAUD: { reason: 'FRAUD', code: '20' },
  CANCELLED: { reason: 'Cancelled', code: '15', resultCode: 'Cancelled' },
  SHOPPER_CANCELLED: { reason: 'Shopper Cancelled', code: '16', resultCode: 'Cancelled' },
  PIN_TRIES_EXCEEDED: { reason: 'Pin tries exceeded', code: '18' },
  TRANSACTION_NOT_PERMITTED: { reason: 'Transaction Not Permitted', code: '23' },
  CVC_DECLINED: { reason: 'CVC Declined', code: '24' },
  RESTRICTED_CARD: { reason: 'Restricted Card', code: '25' },
  WITHDRAWAL_AMOUNT_EXCEEDED: { reason: 'Withdrawal amount exceeded', code: '28' },
  WITHDRAWAL_COUNT_EXCEEDED: { reason: 'Withdrawal count exceeded', code: '29' },
  ISSUER_SUSPECTED_FRAUD: { reason: 'Issuer Suspected Fraud', code: '31' },
  AVS_DECLINED: { reason: 'AVS Declined', code: '32' },
};

/** The refusal of a card payment, or undefined when Adyen's test platform authorises it. */
export function refusalOf(card: {
  readonly number?: string;
  readonly expiryMonth?: string;
  readonly expiryYear?: string;
  readonly cvc?: string;
  readonly holderName?: string;
}): { readonly reason: string; readonly code: string; readonly resultCode?: string } | undefined {
  const known = card.number === undefined ? undefined : ADYEN_TEST_CARDS[card.number];
  if (known === undefined) return { reason: 'Invalid Card Number', code: '8' };
  if (card.expiryMonth !== TEST_EXPIRY.month || card.expiryYear !== TEST_EXPIRY.year)
    return { reason: 'Expired Card', code: '6' };
  if (card.cvc !== undefined && card.cvc !== testCvc(known.brand))
    return { reason: 'CVC Declined', code: '24' };
  return HOLDER_REFUSALS[card.holderName ?? ''];
}
