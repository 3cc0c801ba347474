/**
 * Stripe's documented test cards (docs.stripe.com/testing), as the fake treats them: what the
 * issuer says, whether the card asks for 3-D Secure, and the card's details (brand, country,
 * funding) and checks Stripe reports on the charge.
 */

export interface TestCardBehaviour {
  /** A decline: Stripe's error `code` and `decline_code`. */
  readonly decline?: { readonly code: string; readonly declineCode?: string; readonly message: string };
  /**
   * 3-D Secure: `required` on every on-session payment (3155: not once set up for off-session),
   * `challenge` always (3220), `frictionless` when asked for (request_three_d_secure=any: the
   * issuer authenticates without the shopper, 3055). Other cards are challenged when asked for.
   */
  readonly threeDSecure?: 'required' | 'challenge' | 'frictionless';
  readonly cvcCheck?: 'pass' | 'fail' | 'unavailable';
  readonly country: string;
  readonly funding: 'credit' | 'debit' | 'prepaid';
}

const OK: TestCardBehaviour = { cvcCheck: 'pass', country: 'US', funding: 'credit' };

export const STRIPE_TEST_CARDS: Readonly<Record<string, TestCardBehaviour>> = {
  // Visa: succeeds
  '4242424242424242': OK,
  // Visa (debit): succeeds
  '4000056655665556': { ...OK, funding: 'debit' },
  // Germany, Visa: succeeds
  '4000002760000016': { ...OK, country: 'DE' },
  // Generic decline
  '4000000000000002': {
    ...OK,
    decline: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  },
  // Insufficient funds decline
  '4000000000009995': {
    ...OK,
    decline: {
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
  // Lost card decline
  '4000000000009987': {
    ...OK,
    decline: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  },
  // Expired card decline
  '4000000000000069': {
    ...OK,
    decline: { code: 'expired_card', message: 'Your card has expired.' },
  },
  // Incorrect CVC decline
  '4000000000000127': {
    ...OK,
    cvcCheck: 'fail',
    decline: { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  },
  // Authenticate unless set up: 3-D Secure on every on-session payment
  '4000002500003155': { ...OK, threeDSecure: 'required' },
  // 3-D Secure 2 challenge, always
  '4000000000003220': { ...OK, threeDSecure: 'challenge' },
  // 3-D Secure supported, not required: authenticated without the shopper when asked for
  '4000000000003055': { ...OK, threeDSecure: 'frictionless' },
};

/** What Stripe answers a number that is not one of its test cards, in test mode. */
export const NOT_A_TEST_CARD: TestCardBehaviour = {
  ...OK,
  decline: {
    code: 'card_declined',
    declineCode: 'test_mode_live_card',
    message: 'Your card was declined. Your request was in test mode, but used a non test card.',
  },
};

export function testCard(number: string): TestCardBehaviour {
  return STRIPE_TEST_CARDS[number] ?? NOT_A_TEST_CARD;
}

/** The card brand Stripe names (`visa`, `mastercard`, `amex`, …) by the number's prefix. */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'unknown';
}
