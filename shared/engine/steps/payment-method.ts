/**
 * The payment method of a brand, checked before anything is decided (decisions, "Payment methods
 * and environments"): a brand the gateway does not know is refused with 600.200.100, a brand the
 * channel does not accept (ChannelSettings.brands) with 600.200.201, a currency it does not accept
 * (ChannelSettings.currencies) with 600.200.500, a brand paid to the merchant's own account
 * (PREPAYMENT) on a channel without one with 600.200.201, and a known brand is never decided
 * without the account data its method needs. Every way a payment or a
 * registration reaches the engine passes here: POST /v1/payments, the checkout's submissions,
 * /v1/registrations, registration payments, one-click and scheduled runs. The parameter model
 * names the same missing data first (requests.ts, accountDataNeeded); this is the engine's own
 * guard, so no caller can skip it.
 */
import { isKnownBrand, listBrands, paysToMerchantAccount } from '../../brands';
import { accountDataNeeded } from '../../params/requests';
import { ResultCodes } from '../../result-codes';
import { checked, type Invalid, type Ok, type Refused, refused } from '../core/failure';
import { sendsInstrument } from '../core/instruments';
import type { ChannelSettings } from '../core/model';

export type MethodCheck =
  | Ok
  /** Nothing is decided: the brand names no payment method the gateway knows, or the channel refuses it. */
  | Refused
  /** 400 naming the account data the method needs. */
  | Invalid;

/**
 * Whether a payment or registration of `brand` may be decided. `request` is what was sent;
 * `stored` says the account data comes from elsewhere (a referenced payment's card, a registration).
 * With `channel`, its brands and currencies (ChannelSettings) are checked too: unknown brand
 * (600.200.100) → a brand the channel does not accept (600.200.201) → a currency it does not
 * accept (600.200.500) → missing account data (400).
 */
export function checkPaymentMethod(
  brand: string | undefined,
  request: object,
  stored = false,
  channel?: { readonly settings: ChannelSettings },
): MethodCheck {
  if (brand === undefined || !isKnownBrand(brand)) {
    return refused(ResultCodes.INVALID_PAYMENT_METHOD);
  }
  if (channel !== undefined) {
    const currency = (request as { currency?: unknown }).currency;
    const code = channelRefusal(channel.settings, brand, typeof currency === 'string' ? currency : undefined);
    if (code !== undefined) return refused(code);
  }
  return checked(stored || sendsInstrument(request) ? [] : accountDataNeeded(brand));
}

/**
 * The code refusing `brand` or `currency` on a channel with these settings, or undefined when the
 * channel accepts both (undefined brands or currencies: all). A brand the shopper pays by transfer
 * to the merchant's own account (PREPAYMENT, SEPA) needs that account configured on the channel: without
 * it the shopper would be told to pay with nowhere to pay to, so the channel is not configured for
 * the method. Checkout creation asks this too.
 */
export function channelRefusal(
  settings: ChannelSettings,
  brand: string | undefined,
  currency: string | undefined,
): string | undefined {
  if (brand !== undefined && settings.brands !== undefined && !settings.brands.includes(brand))
    return ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD;
  if (settings.bankAccount === undefined && paysToMerchantAccount(brand))
    return ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD;
  if (
    currency !== undefined &&
    currency !== '' &&
    settings.currencies !== undefined &&
    !settings.currencies.includes(currency)
  )
    return ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_CURRENCY;
  return undefined;
}

/**
 * The brands a checkout on a channel with these settings can be paid with, for the widget to draw
 * (the session's `brands`): the channel's list (none: every known brand) without those
 * channelRefusal would refuse, so no button is drawn that could only be refused (PREPAYMENT on a
 * channel without the merchant's account). Undefined when the channel takes every brand.
 */
export function offeredBrands(settings: ChannelSettings): string[] | undefined {
  const listed = settings.brands;
  if (listed === undefined && settings.bankAccount !== undefined) return undefined;
  return (listed ?? listBrands()).filter((brand) => channelRefusal(settings, brand, undefined) === undefined);
}
