/**
 * What a payment that sends the shopper elsewhere (a provider's page, a 3-D Secure challenge), or
 * that passes an external authentication on, must carry: each missing field named.
 */
import type { ParameterError } from '../../params/errors';
import type { RequestOf } from '../../params/requests';
import type { PaymentContext } from '../core/deps';
import type { Authentication } from './three-d-secure';

type PaymentRequest = RequestOf<'payment'>;

/**
 * An external server's authentication that the gateway passes on must prove itself: a cardholder
 * authenticated (Y) or an attempt (A) carries its verification value and ECI.
 */
export function externalAuthenticationErrors(
  request: PaymentRequest,
  authentication: Authentication,
): ParameterError[] {
  if (authentication.kind !== 'external') return [];
  const t = request.threeDSecure ?? {};
  const status = t.authenticationStatus;
  if (status !== 'Y' && status !== 'A') return [];
  const errors: ParameterError[] = [];
  for (const name of ['verificationId', 'eci'] as const) {
    if (t[name] === undefined) {
      errors.push({
        name: `threeDSecure.${name}`,
        value: null,
        message: `is required with threeDSecure.authenticationStatus=${status}: it proves the authentication`,
      });
    }
  }
  return errors;
}

/** A flow that sends the shopper elsewhere needs somewhere to send them back to. */
export function returnUrlErrors(
  request: PaymentRequest,
  context: PaymentContext,
  redirect: boolean,
  challenge: boolean,
): ParameterError[] {
  if (!(redirect || challenge) || context.checkoutId !== undefined || request.shopperResultUrl !== undefined)
    return [];
  return [
    {
      name: 'shopperResultUrl',
      value: null,
      message: redirect
        ? `is required for ${request.paymentBrand}: the shopper completes the payment on another site and returns there`
        : 'is required: the card issuer asks the shopper to authenticate (3-D Secure challenge), and the shopper returns there',
    },
  ];
}
