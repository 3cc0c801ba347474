/**
 * What an answer shows to someone who holds only a checkout id (decisions, Outcomes: a status read
 * of a checkout without credentials answers "the result, ids, amount, currency, payment type and
 * brand, merchantTransactionId and the card's bin and last four digits; no personal data").
 *
 * The checkout id travels through the shopper's browser, its history and the shop's result URL,
 * so it is no proof of being the merchant: without credentials, a checkout's status and the answer
 * of a submission are cut down to this view. It is an allow-list: a field that the full answer
 * gains later stays out of it until it is added here. The envelope (buildNumber, timestamp, ndc)
 * is added by the HTTP layer as always.
 */

import type {
  AnsweredCard,
  PaymentAnswer,
  PublicPaymentView,
  PublicRegistrationView,
  RegistrationAnswer,
} from '../../contract';

/** The payment fields the view keeps, in the full answer's order. */
const PAYMENT_FIELDS = [
  'id',
  'paymentType',
  'paymentBrand',
  'amount',
  'currency',
  'merchantTransactionId',
  'referencedId',
  'registrationId',
] as const;

/** The registration fields the view keeps. */
const REGISTRATION_FIELDS = ['id', 'paymentBrand', 'merchantTransactionId'] as const;

export interface PublicViewOptions {
  /**
   * Keep `redirect` (url, method, parameters): the answer of a submission, whose sender (the
   * widget in the shopper's browser) must follow it to finish a pending payment. Never in a status.
   */
  readonly redirect?: boolean;
}

function pick<T extends object, K extends keyof T>(full: T, fields: readonly K[]): Partial<Pick<T, K>> {
  const into: Partial<Pick<T, K>> = {};
  for (const field of fields) if (full[field] !== undefined) into[field] = full[field];
  return into;
}

/** The card's bin and last four digits, nothing else (no holder, expiry, issuer). */
function cardOf(card: AnsweredCard | undefined): PublicPaymentView['card'] {
  if (card === undefined || card === null || typeof card !== 'object') return undefined;
  const shown = pick(card, ['bin', 'last4Digits']);
  return Object.keys(shown).length === 0 ? undefined : shown;
}

/**
 * A payment answer (`paymentResponse`) as the checkout id alone may see it: the allowed fields,
 * the card's bin and last4Digits, result.code and result.description, shortId and ndc.
 */
export function publicPaymentView(
  full: PaymentAnswer,
  options: PublicViewOptions = {},
): PublicPaymentView & Pick<PaymentAnswer, 'ndc'> & { result: { code: string; description: string } } {
  const view: PublicPaymentView = pick(full, PAYMENT_FIELDS);
  const card = cardOf(full.card);
  if (card !== undefined) view.card = card;
  if (options.redirect === true && full.redirect !== undefined) view.redirect = full.redirect;
  const result = { code: full.result.code, description: full.result.description };
  // assigned in the full answer's order: result, shortId, ndc
  return Object.assign(view, { result }, full.shortId === undefined ? {} : { shortId: full.shortId }, {
    ndc: full.ndc,
  });
}

/** A registration answer (`registrationResponse`) as the checkout id alone may see it. */
export function publicRegistrationView(full: RegistrationAnswer): PublicRegistrationView {
  const view: PublicRegistrationView = pick(full, REGISTRATION_FIELDS);
  const card = cardOf(full.card);
  if (card !== undefined) view.card = card;
  return view;
}
