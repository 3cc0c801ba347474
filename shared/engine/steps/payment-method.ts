/**
 * The payment method of a brand, checked before anything is decided (decisions, "Payment methods
 * and environments"): a brand the gateway does not know is refused with 600.200.100, and a known
 * brand is never decided without the account data its method needs. Every way a payment or a
 * registration reaches the engine passes here: POST /v1/payments, the checkout's submissions,
 * /v1/registrations, registration payments, one-click and scheduled runs. The parameter model
 * names the same missing data first (requests.ts, accountDataNeeded); this is the engine's own
 * guard, so no caller can skip it.
 */
import { isKnownBrand } from '../../brands';
import type { ParameterError } from '../../params/errors';
import { accountDataNeeded } from '../../params/requests';
import { ResultCodes } from '../../result-codes';
import { sendsInstrument } from '../core/instruments';

export type MethodCheck =
  | { readonly kind: 'ok' }
  /** Nothing is decided: the brand names no payment method the gateway knows. */
  | { readonly kind: 'refused'; readonly code: string }
  /** 400 naming the account data the method needs. */
  | { readonly kind: 'invalid'; readonly errors: ParameterError[] };

const OK: MethodCheck = { kind: 'ok' };

/**
 * Whether a payment or registration of `brand` may be decided. `request` is what was sent;
 * `stored` says the account data comes from elsewhere (a referenced payment's card, a registration).
 */
export function checkPaymentMethod(brand: string | undefined, request: object, stored = false): MethodCheck {
  if (brand === undefined || !isKnownBrand(brand)) {
    return { kind: 'refused', code: ResultCodes.INVALID_PAYMENT_METHOD };
  }
  if (stored || sendsInstrument(request)) return OK;
  const errors = accountDataNeeded(brand);
  return errors.length === 0 ? OK : { kind: 'invalid', errors };
}
