/**
 * Stripe's decline codes (docs.stripe.com/declines/codes) and error codes
 * (docs.stripe.com/error-codes) onto the family's result codes (the facts' catalogue, §1). A
 * card_error carries `decline_code` when the issuer declined and `code` otherwise; the decline
 * code is the more precise, so it is looked up first. Anything not listed is a decline for an
 * unknown reason (800.100.100): never a success, never a code outside the catalogue.
 */

export const DECLINED_UNKNOWN = '800.100.100';

export const STRIPE_DECLINES: Readonly<Record<string, string>> = {
  // The card was declined for an unknown reason.
  generic_decline: '800.100.100',
  // The card was declined for an unknown reason (the issuer's "do not honor").
  do_not_honor: '800.100.152',
  // The card was declined for an unknown reason; the shopper should call the issuer.
  call_issuer: '800.100.152',
  // The card has insufficient funds to complete the purchase.
  insufficient_funds: '800.100.155',
  // The card was reported lost.
  lost_card: '800.100.165',
  // The card was reported stolen.
  stolen_card: '800.100.159',
  // The card has been declined because it is reported lost or stolen (pick up card).
  pickup_card: '800.100.171',
  // The card cannot be used for this payment (it may be reported lost or stolen).
  restricted_card: '800.100.168',
  // The card has expired.
  expired_card: '100.100.303',
  // The CVC number is incorrect.
  incorrect_cvc: '800.100.153',
  // The CVC number is incorrect.
  invalid_cvc: '800.100.153',
  // The card number is incorrect.
  incorrect_number: '800.100.151',
  // The card number is incorrect.
  invalid_number: '800.100.151',
  // The card, or the account it is connected to, is invalid.
  invalid_account: '800.100.151',
  // The expiration month or year is invalid.
  invalid_expiry_month: '800.100.157',
  invalid_expiry_year: '800.100.157',
  // Stripe suspects the payment is fraudulent.
  fraudulent: '800.100.158',
  // The payment matches a value on the merchant's block list.
  merchant_blacklist: '800.100.154',
  // The card does not support this type of purchase.
  card_not_supported: '800.100.169',
  // The card does not support the currency.
  currency_not_supported: '800.100.173',
  // The payment amount is invalid, or exceeds the amount allowed.
  invalid_amount: '800.100.174',
  // The customer has exceeded the balance, credit limit or transaction amount limit of the card.
  card_velocity_exceeded: '800.100.162',
  // The customer has exceeded the balance or credit limit available on the card.
  withdrawal_count_limit_exceeded: '800.100.179',
  // The card was declined for an unknown reason (transaction not allowed).
  transaction_not_allowed: '800.100.170',
  // The card was declined for an unknown reason (not permitted).
  not_permitted: '800.100.170',
  // The PIN entered is incorrect.
  incorrect_pin: '800.100.166',
  invalid_pin: '800.100.166',
  // The allowable number of PIN tries was exceeded.
  pin_try_exceeded: '800.100.178',
  // The shopper asked the issuer to stop this payment.
  stop_payment_order: '800.100.500',
  // The shopper revoked this authorisation.
  revocation_of_authorization: '800.100.500',
  // The shopper revoked all authorisations of the merchant.
  revocation_of_all_authorizations: '800.100.501',
  // The issuer could not be reached, or could not process the payment: try again later.
  try_again_later: '800.100.176',
  issuer_not_available: '800.100.176',
  reenter_transaction: '800.100.176',
  // An error occurred while processing the card.
  processing_error: '900.100.200',
  // The card was declined: the request was in test mode but used a non test card.
  test_mode_live_card: '800.100.151',
  // The card was declined: the payment requires authentication (off-session, nobody to ask).
  authentication_required: '100.390.107',
  // The shopper failed the 3-D Secure authentication.
  payment_intent_authentication_failure: '100.380.401',
  // A bank redirect's attempt failed: the shopper cancelled or failed at the bank's page (Stripe
  // tells the two apart no further), the family's cancel as a provider's page cancelled is
  // (the Adyen connector, test mode's simulator).
  payment_intent_payment_attempt_failed: '100.396.101',
  // The card was declined (no decline code given).
  card_declined: '800.100.100',
};

/** The family's code of a Stripe decline (its decline_code, else its code). */
export function declineCodeOf(declineCode: string | undefined, code: string | undefined): string {
  return (
    (declineCode === undefined ? undefined : STRIPE_DECLINES[declineCode]) ??
    (code === undefined ? undefined : STRIPE_DECLINES[code]) ??
    DECLINED_UNKNOWN
  );
}
