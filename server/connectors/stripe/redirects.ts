/**
 * The stripe kind's bank redirects: the catalogue's redirect brands Stripe takes as PaymentIntent
 * payment method types (Stripe's API reference, `payment_method_data[type]`), the billing details
 * each type requires, and the PaymentIntent they are created and confirmed with. Stripe answers
 * `requires_action` with `next_action.redirect_to_url`: the bank's page, the shopper sent back to
 * the gateway's return address, as for the card's 3-D Secure.
 *
 * Not here: Bancontact (the catalogue's BCMC is its card, which Stripe takes only as a card), and
 * the other redirect brands Stripe has no PaymentIntent type for (Trustly, POLi, …).
 */
import type Stripe from 'stripe';
import { ResultCodes } from '../../../shared/result-codes';
import { type IntentOrder, metadataOf, moneyOf } from './request';

/** What a type requires of the shopper beyond the amount, as Stripe's reference lists it. */
type Needs = 'name' | 'email' | 'country';

interface RedirectMethod {
  /** Stripe's payment method type. */
  readonly type: Stripe.PaymentIntentCreateParams.PaymentMethodData.Type;
  /** The currencies Stripe takes the type in (ISO 4217, as the family sends them). */
  readonly currencies: readonly string[];
  readonly needs?: Needs;
}

/** The catalogue's redirect brands → Stripe's types. All are captured at once (no manual capture). */
export const STRIPE_REDIRECT_METHODS: Readonly<Record<string, RedirectMethod>> = {
  IDEAL: { type: 'ideal', currencies: ['EUR'] },
  // billing_details[name] is required for eps and giropay
  EPS: { type: 'eps', currencies: ['EUR'], needs: 'name' },
  // giropay is closed to new Stripe accounts since 2024; an account that still has it takes it
  GIROPAY: { type: 'giropay', currencies: ['EUR'], needs: 'name' },
  // billing_details[email] is required for p24
  PRZELEWY: { type: 'p24', currencies: ['EUR', 'PLN'], needs: 'email' },
  // sofort[country] (the shopper's bank's country) is required; Sofort is a delayed notification
  // method: `processing` after the bank's page, `succeeded` days later (Stripe's webhook, the inquiry)
  SOFORTUEBERWEISUNG: { type: 'sofort', currencies: ['EUR'], needs: 'country' },
};

/** The bank countries Stripe's sofort[country] takes. */
const SOFORT_COUNTRIES: ReadonlySet<string> = new Set(['AT', 'BE', 'DE', 'ES', 'IT', 'NL']);

/** The redirect brands Stripe processes (the catalogue's names), for the connector's `brands`. */
export const STRIPE_REDIRECT_BRANDS = Object.keys(STRIPE_REDIRECT_METHODS);

/** The fields of a validated request a bank redirect reads. */
interface RedirectFields {
  readonly paymentBrand?: string;
  readonly currency?: string;
  readonly customer?: { readonly email?: string; readonly givenName?: string; readonly surname?: string };
  readonly bankAccount?: { readonly country?: string };
}

/** The redirect method of a request's brand; undefined for a card or a brand Stripe has no type for. */
export function redirectMethodOf(request: object): RedirectMethod | undefined {
  const brand = (request as RedirectFields).paymentBrand;
  return brand === undefined ? undefined : STRIPE_REDIRECT_METHODS[brand];
}

type MethodData = Stripe.PaymentIntentCreateParams.PaymentMethodData;

/**
 * The `payment_method_data` of a bank redirect, or the family's code of what is missing for it
 * (nothing is sent then: Stripe would refuse the request, and the merchant can fix it).
 */
export function redirectMethodData(
  method: RedirectMethod,
  request: object,
): { readonly data: MethodData } | { readonly code: string } {
  const { currency, customer, bankAccount } = request as RedirectFields;
  if (currency === undefined || !method.currencies.includes(currency.toUpperCase()))
    return { code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_CURRENCY };
  switch (method.needs) {
    case 'name':
      if (customer?.surname === undefined) return { code: '100.700.100' };
      if (customer.givenName === undefined) return { code: '100.700.200' };
      return {
        data: { type: method.type, billing_details: { name: `${customer.givenName} ${customer.surname}` } },
      };
    case 'email':
      if (customer?.email === undefined) return { code: '100.900.100' };
      return { data: { type: method.type, billing_details: { email: customer.email } } };
    case 'country': {
      const country = bankAccount?.country?.toUpperCase();
      if (country === undefined || !SOFORT_COUNTRIES.has(country)) return { code: '100.200.100' };
      return {
        data: {
          type: method.type,
          sofort: { country: country as Stripe.PaymentIntentCreateParams.PaymentMethodData.Sofort.Country },
        },
      };
    }
    default:
      return { data: { type: method.type } };
  }
}

/** A PaymentIntent created and confirmed with a bank redirect, the shopper sent back to `returnUrl`. */
export function redirectIntentParams(
  order: IntentOrder & { readonly returnUrl: string },
  data: MethodData,
): Stripe.PaymentIntentCreateParams {
  return {
    ...moneyOf(order.request),
    confirm: true,
    capture_method: 'automatic',
    // the SDK's API version (2026-10-28) names the list `allowed_payment_method_types`: its
    // `payment_method_types` request parameter is gone (the SDK's changelog, v23)
    allowed_payment_method_types: [data.type],
    payment_method_data: data,
    metadata: metadataOf(order.gatewayId, order.request),
    return_url: order.returnUrl,
    expand: ['latest_charge'],
  };
}
