/**
 * A stored card in a checkout (one-click): what the public session may show of it, and whether
 * paying with it asks for the card's CVV. The session is read without credentials by anyone who
 * holds the checkout id, so it shows what picks a card, never who owns it: the brand and the last
 * four digits (no holder, expiry or BIN; the merchant reads those with credentials).
 */
import { cardBrandInfo, cvvLengthOf, isCardBrand, validateCvv } from '../../../brands';
import { maskValue, type ParameterError } from '../../../params/errors';
import type { Channel, Registration } from '../../core/model';

/** A stored registration offered for one-click payment: what the widget shows, never the number. */
export interface OfferedRegistration {
  readonly id: string;
  readonly paymentBrand: string;
  readonly card?: { readonly last4Digits: string };
  /** The submission must carry the card's CVV (cvvAsked); absent: it may come without one. */
  readonly cvvRequired?: true;
}

/** A registration as the public session offers it. */
export function offeredRegistration(
  registration: Pick<Registration, 'id' | 'paymentBrand' | 'card'>,
  channel: Pick<Channel, 'settings'> | undefined,
): OfferedRegistration {
  const { id, paymentBrand, card } = registration;
  return {
    id,
    paymentBrand,
    ...(card === undefined ? {} : { card: { last4Digits: card.last4Digits } }),
    ...(cvvAsked(channel, paymentBrand) ? { cvvRequired: true as const } : {}),
  };
}

/**
 * Whether a one-click payment with a stored card of `brand` must carry its CVV: when the channel
 * asks for it (`registrationsRequireCvv`; off by default, as the family's one-click, whose
 * `registrations.requireCvv` defaults to false) and the brand's cards have one (the catalogue's
 * `cvvRequired`: a MAESTRO or BCMC card may have none, and could then never pay).
 */
export function cvvAsked(channel: Pick<Channel, 'settings'> | undefined, brand: string): boolean {
  return (
    channel?.settings.registrationsRequireCvv === true &&
    isCardBrand(brand) &&
    cardBrandInfo(brand).cvvRequired
  );
}

/**
 * The one-click submission's CVV against the channel's rule: missing (or empty) where it is
 * asked, or not the brand's number of digits (AMEX: 4). Undefined when it passes.
 */
export function storedCardCvvError(
  channel: Pick<Channel, 'settings'>,
  brand: string,
  cvv: unknown,
): ParameterError | undefined {
  if (!cvvAsked(channel, brand) || !isCardBrand(brand)) return undefined;
  if (typeof cvv !== 'string' || cvv === '') {
    return {
      name: 'card.cvv',
      value: null,
      message: `is required: this channel asks for the stored card's CVV`,
    };
  }
  if (validateCvv(cvv, brand)) return undefined;
  return {
    name: 'card.cvv',
    value: maskValue(cvv, 'secret'),
    message: `must be the card's ${cvvLengthOf(brand)} digits (${cardBrandInfo(brand).cvvLabel} of ${brand})`,
  };
}
