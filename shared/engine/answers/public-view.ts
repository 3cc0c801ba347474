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

function pick(
  full: Record<string, unknown>,
  fields: readonly string[],
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const field of fields) if (full[field] !== undefined) into[field] = full[field];
  return into;
}

/** The card's bin and last four digits, nothing else (no holder, expiry, issuer). */
function cardOf(full: Record<string, unknown>): Record<string, unknown> | undefined {
  const card = full.card as Record<string, unknown> | undefined;
  if (card === undefined || card === null || typeof card !== 'object') return undefined;
  const shown = pick(card, ['bin', 'last4Digits']);
  return Object.keys(shown).length === 0 ? undefined : shown;
}

function resultOf(full: Record<string, unknown>): { code: string; description: string } | undefined {
  const result = full.result as { code?: unknown; description?: unknown } | undefined;
  if (result === undefined || typeof result.code !== 'string') return undefined;
  return { code: result.code, description: typeof result.description === 'string' ? result.description : '' };
}

/**
 * A payment answer (`paymentResponse`) as the checkout id alone may see it: the allowed fields,
 * the card's bin and last4Digits, result.code and result.description, shortId and ndc.
 */
export function publicPaymentView<T extends Record<string, unknown>>(
  full: T,
  options: PublicViewOptions = {},
): Record<string, unknown> & Pick<T, 'result' | 'ndc'> {
  const view = pick(full, PAYMENT_FIELDS);
  const card = cardOf(full);
  if (card !== undefined) view.card = card;
  if (options.redirect === true && full.redirect !== undefined) view.redirect = full.redirect;
  const result = resultOf(full);
  if (result !== undefined) view.result = result;
  if (full.shortId !== undefined) view.shortId = full.shortId;
  if (full.ndc !== undefined) view.ndc = full.ndc;
  return view as Record<string, unknown> & Pick<T, 'result' | 'ndc'>;
}

/** A registration answer (`registrationResponse`) as the checkout id alone may see it. */
export function publicRegistrationView(full: Record<string, unknown>): Record<string, unknown> {
  const view = pick(full, REGISTRATION_FIELDS);
  const card = cardOf(full);
  if (card !== undefined) view.card = card;
  return view;
}
