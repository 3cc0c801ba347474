/**
 * The fake's bank redirects, as Stripe documents its PaymentIntents with them: the payment method
 * types (ideal, eps, giropay, p24, sofort, bancontact), what each requires (its currencies, its
 * billing details, sofort's country, automatic capture only, an `allowed_payment_method_types[]`
 * that lists it, a `return_url`), and the provider's test page a `redirect_to_url` sends the shopper
 * to: "Authorize test payment" or "Fail test payment", then back to the return_url with
 * `payment_intent`, `payment_intent_client_secret` and `redirect_status`.
 */
import { type FakeAnswer, missingParam, stripeError } from './errors';
import { type FormObject, field } from './form';
import type { RedirectMethod } from './objects';

interface RedirectType {
  readonly currencies: readonly string[];
  /** The billing detail Stripe requires of the type. */
  readonly billing?: 'name' | 'email';
  /** A delayed notification method: `processing` after the bank's page, not `succeeded` at once. */
  readonly delayed?: boolean;
}

export const REDIRECT_TYPES: Readonly<Record<string, RedirectType>> = {
  ideal: { currencies: ['eur'] },
  eps: { currencies: ['eur'], billing: 'name' },
  giropay: { currencies: ['eur'], billing: 'name' },
  bancontact: { currencies: ['eur'], billing: 'name' },
  p24: { currencies: ['eur', 'pln'], billing: 'email' },
  sofort: { currencies: ['eur'], delayed: true },
};

const SOFORT_COUNTRIES = ['AT', 'BE', 'DE', 'ES', 'IT', 'NL'];

export const isRedirectType = (type: string | undefined): type is string =>
  type !== undefined && Object.hasOwn(REDIRECT_TYPES, type);

/** `payment_method_data` of a redirect type, checked as Stripe checks it; an error answer otherwise. */
export function redirectMethodFrom(form: FormObject, type: string): RedirectMethod | FakeAnswer {
  const spec = REDIRECT_TYPES[type] as RedirectType;
  const name = field(form, 'payment_method_data', 'billing_details', 'name') ?? null;
  const email = field(form, 'payment_method_data', 'billing_details', 'email') ?? null;
  if (spec.billing === 'name' && name === null)
    return missingParam('payment_method_data[billing_details][name]');
  if (spec.billing === 'email' && email === null)
    return missingParam('payment_method_data[billing_details][email]');
  const country = field(form, 'payment_method_data', 'sofort', 'country') ?? null;
  if (type === 'sofort' && country === null) return missingParam('payment_method_data[sofort][country]');
  if (type === 'sofort' && !SOFORT_COUNTRIES.includes(country ?? ''))
    return stripeError(400, {
      type: 'invalid_request_error',
      code: 'parameter_invalid_empty',
      param: 'payment_method_data[sofort][country]',
      message: `Invalid country: must be one of ${SOFORT_COUNTRIES.join(', ')}`,
    });
  return { type, name, email, country };
}

/** What a PaymentIntent with a redirect type must also be: Stripe's refusals of the rest. */
export function redirectIntentError(form: FormObject, type: string): FakeAnswer | undefined {
  const spec = REDIRECT_TYPES[type] as RedirectType;
  const currency = field(form, 'currency') ?? '';
  // allowed_payment_method_types[] (payment_method_types[] before API version 2026-10-28); the
  // fake takes a type only when it is listed (Stripe would look at the Dashboard's methods)
  const sent = form.allowed_payment_method_types ?? form.payment_method_types;
  const listed = Array.isArray(sent) ? sent : ['card'];
  if (!listed.includes(type))
    return stripeError(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_incompatible_payment_method',
      param: 'payment_method_data[type]',
      message: `The PaymentMethod provided (${type}) is not allowed for this PaymentIntent. Please attach a PaymentMethod of one of the following types: ${listed.join(', ')}.`,
    });
  if (!spec.currencies.includes(currency))
    return stripeError(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_invalid_parameter',
      param: 'currency',
      message: `The currency provided (${currency}) is invalid. Payments with ${type} support the following currencies: ${spec.currencies.join(', ')}.`,
    });
  if (field(form, 'capture_method') === 'manual')
    return stripeError(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_invalid_parameter',
      param: 'capture_method',
      message: `The payment method type ${type} does not support capture_method=manual.`,
    });
  if (field(form, 'confirm') === 'true' && field(form, 'return_url') === undefined)
    return missingParam('return_url');
  return undefined;
}

/** Whether the type's payment is still processing after the bank's page (Sofort). */
export const isDelayed = (type: string): boolean => REDIRECT_TYPES[type]?.delayed === true;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Stripe's test page of a bank redirect: authorize or fail the test payment. */
export function redirectPage(id: string, type: string): string {
  const action = `/authorize/${escapeHtml(id)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(type)} test payment page</title></head>
<body><h1>${escapeHtml(type)} test payment page</h1><p>This is a test payment for ${escapeHtml(id)}.</p>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="authorize"><button id="authorize-test-payment" type="submit">Authorize test payment</button></form>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="fail"><button id="fail-test-payment" type="submit">Fail test payment</button></form>
</body></html>`;
}
