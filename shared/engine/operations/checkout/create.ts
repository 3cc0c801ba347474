/**
 * POST /v1/checkouts: the checkout created from the payment's parameters, refused when the
 * channel cannot take its payments.
 */

import { isKnownBrand } from '../../../brands';
import type { Minor } from '../../../money';
import type { ParameterError } from '../../../params/errors';
import { INITIAL_PAYMENT_TYPES, type RequestOf } from '../../../params/requests';
import { ResultCodes } from '../../../result-codes';
import { readMoney } from '../../core/amounts';
import type { Caller } from '../../core/deps';
import { type Checked, type Invalid, invalid, type Refused, refused } from '../../core/failure';
import { newCheckoutId } from '../../core/ids';
import type { Channel, Checkout, CheckoutKind } from '../../core/model';
import { channelRefusal } from '../../steps/payment-method';
import { usableRegistration } from '../registrations';
import { CHECKOUT_VALIDITY_MS, type CheckoutDeps } from './model';
import { NEVER_KEPT } from './parameters';

export type CheckoutCreation =
  | { readonly kind: 'checkout'; readonly checkout: Checkout }
  | Invalid
  /** Nothing stored: the channel cannot take this checkout's payments (its mode, brand or currency). */
  | Refused;

/** overridePaymentType values: the two-letter initial types (PA.CP has no two-letter form). */
const OVERRIDE_TYPES: readonly string[] = INITIAL_PAYMENT_TYPES.filter((t) => /^[A-Z]{2}$/.test(t));

export async function createCheckout(
  deps: CheckoutDeps,
  caller: Caller,
  request: RequestOf<'checkout'>,
): Promise<CheckoutCreation> {
  // validate and decide: what the checkout charges, and whether the channel can take it
  const checked = await checkCheckout(deps, caller, request);
  if (checked.kind !== 'ok') return checked;

  // record
  const now = deps.clock.now();
  const checkout: Checkout = {
    id: newCheckoutId(deps.nodeName),
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    kind: checked.checkoutKind,
    ...checkoutTerms(request, checked.amount),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHECKOUT_VALIDITY_MS),
    submittedAt: null,
    completedAt: null,
    statusFetchedAt: null,
    notifyDueAt: null,
    notifyAttempts: 0,
    notifiedAt: null,
  };
  await deps.store.insertCheckout(checkout);
  return { kind: 'checkout', checkout };
}

/** What a checkout request leaves stored: its parameters (no credentials), money and return URL. */
export function checkoutTerms(
  request: RequestOf<'checkout'>,
  amount: Minor,
): Pick<Checkout, 'parameters' | 'amount' | 'currency' | 'shopperResultUrl'> {
  return {
    parameters: Object.fromEntries(Object.entries(request).filter(([name]) => !NEVER_KEPT.has(name))),
    amount,
    currency: request.currency ?? '',
    ...(request.shopperResultUrl === undefined ? {} : { shopperResultUrl: request.shopperResultUrl }),
  };
}

export type CheckoutCheck = Checked<{ amount: Minor; checkoutKind: CheckoutKind }> | Refused;

/**
 * What the catalogue cannot check alone (money in the currency, override types, registrations
 * offered for one-click that exist), all faults at once; then whether the channel can take this
 * checkout's payments at all, so the shopper is not asked for account data that could only be
 * refused. Creation and update (update.ts) check the same way.
 */
export async function checkCheckout(
  deps: Pick<CheckoutDeps, 'store'>,
  caller: Caller,
  request: RequestOf<'checkout'>,
): Promise<CheckoutCheck> {
  const errors: ParameterError[] = [];
  // A registration-only checkout may come without money (the request kind's rule allows it):
  // it charges nothing, so it is recorded with 0 and no currency.
  const money =
    request.paymentType === undefined && request.amount === undefined
      ? { kind: 'ok' as const, amount: 0 as Minor }
      : readMoney(request);
  if (money.kind === 'invalid') errors.push(...money.errors);
  for (const [brand, type] of Object.entries(request.overridePaymentType ?? {})) {
    if (!OVERRIDE_TYPES.includes(type)) {
      errors.push({
        name: `overridePaymentType[${brand}]`,
        value: type,
        message: `must be one of ${OVERRIDE_TYPES.join(', ')}`,
      });
    }
  }
  const offered = request.registrations ?? [];
  for (const [i, item] of offered.entries()) {
    const usable =
      item.id === undefined ? undefined : await usableRegistration(deps.store, caller.merchantId, item.id);
    // One still uncertain may be confirmed before the shopper picks (the session offers it only
    // then); one missing, deregistered or never made at its processor could never pay.
    if (
      usable === undefined ||
      (usable.kind === 'refused' && usable.code !== ResultCodes.REGISTRATION_NOT_CONFIRMED)
    ) {
      errors.push({
        name: `registrations[${i}].id`,
        value: item.id ?? null,
        message: 'matches no stored registration of this merchant',
      });
    }
  }
  if (errors.length > 0 || money.kind === 'invalid') return invalid(errors);

  const code = creationRefusal(caller.channel, request);
  if (code !== undefined) return refused(code);

  // a checkout with createRegistration=true and no paymentType only registers (the request
  // kind's rule made sure one of the two is there)
  const checkoutKind: CheckoutKind = request.paymentType === undefined ? 'registration' : 'payment';
  return { kind: 'ok', amount: money.amount, checkoutKind };
}

/**
 * testMode=EXTERNAL on a test channel without a connector (600.200.700: "not configured for the
 * requested transaction mode"), a paymentBrand the channel does not accept (600.200.201), a
 * currency it does not accept (600.200.500). A brand the gateway does not know is left to the
 * submission (600.200.100), as before.
 */
function creationRefusal(channel: Channel, request: RequestOf<'checkout'>): string | undefined {
  if (channel.mode === 'TEST' && request.testMode === 'EXTERNAL' && channel.settings.connector === undefined)
    return ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_MODE;
  const brand = request.paymentBrand;
  return channelRefusal(
    channel.settings,
    brand !== undefined && isKnownBrand(brand) ? brand : undefined,
    request.currency,
  );
}
