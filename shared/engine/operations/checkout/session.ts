/** GET /v1/checkouts/{id}/session: what the widget needs to render the checkout. */
import type { CheckoutSessionAnswer } from '../../../contract';
import { fromMinor } from '../../../money';
import { describe } from '../../../result-codes';
import type { EngineDeps } from '../../core/deps';
import type { Channel, Checkout } from '../../core/model';
import { processorFor } from '../../core/processor';
import { offeredBrands } from '../../steps/payment-method';
import { hasExternalAuthentication, missingForV2 } from '../../steps/three-d-secure';
import { usableRegistration } from '../registrations';
import { resourcePathOf, stateOf } from './model';
import { type OfferedRegistration, offeredRegistration } from './stored-cards';

/**
 * What the widget needs to render the checkout: no credentials, no customer data, no card
 * data beyond a stored card's brand and last four digits. The amount is the string the merchant
 * sent ("92.00").
 */
export async function checkoutSession(
  deps: Pick<EngineDeps, 'store' | 'clock'> & Partial<Pick<EngineDeps, 'processors'>>,
  checkout: Checkout,
  /**
   * The checkout's channel: the brands it can take, when it does not take every one, for the
   * widget to draw (payment-method.ts offeredBrands).
   */
  channel?: Pick<Channel, 'settings'> & Partial<Channel>,
): Promise<CheckoutSessionAnswer> {
  const accepted = channel === undefined ? undefined : brandsToDraw(deps, checkout, channel);
  const billing = billingFor3ds(checkout, channel);
  const p = checkout.parameters as {
    amount?: string;
    paymentType?: string;
    registrations?: { id?: string }[];
  };
  const registrations: OfferedRegistration[] = [];
  for (const { id } of p.registrations ?? []) {
    if (id === undefined) continue;
    // Only one that can pay: not deleted since the checkout was created, not still uncertain (its
    // processor's answer lost: offered once its inquiry confirms it), not found never made.
    const usable = await usableRegistration(deps.store, checkout.merchantId, id);
    if (usable.kind !== 'ok') continue;
    const r = usable.registration;
    // A brand the channel no longer accepts could only be refused.
    if (accepted !== undefined && !accepted.includes(r.paymentBrand)) continue;
    // Brand and last four digits only: the session is read without credentials.
    registrations.push(offeredRegistration(r, channel));
  }
  return {
    id: checkout.id,
    kind: checkout.kind,
    state: stateOf(checkout, deps.clock.now()),
    expiresAt: checkout.expiresAt.toISOString(),
    // A registration-only checkout without money shows none.
    ...(checkout.currency === ''
      ? {}
      : { amount: p.amount ?? fromMinor(checkout.amount, checkout.currency), currency: checkout.currency }),
    ...(p.paymentType === undefined ? {} : { paymentType: p.paymentType }),
    ...(checkout.shopperResultUrl === undefined ? {} : { shopperResultUrl: checkout.shopperResultUrl }),
    resourcePath: resourcePathOf(checkout),
    ...(accepted === undefined ? {} : { brands: [...accepted] }),
    // A hint, not a demand: the widget asks for these only once the gateway answers an enrolled
    // card's submission with a 400 naming them (a card that needs no authentication needs none).
    ...(billing.length === 0 ? {} : { authenticationBillingFields: billing }),
    registrations,
    // The latest attempt's result, so the widget can say how a flow elsewhere (3-D Secure, a
    // redirect method) ended: codes and descriptions only.
    ...(checkout.resultCode === undefined
      ? {}
      : { lastResult: { code: checkout.resultCode, description: describe(checkout.resultCode) ?? '' } }),
  };
}

/**
 * The brands the widget draws: those the channel accepts, and of them, on a connector channel,
 * those its connector's processor processes (a button for a brand the processor cannot take could
 * only be refused). Undefined: every brand.
 */
function brandsToDraw(
  deps: Partial<Pick<EngineDeps, 'processors'>>,
  checkout: Checkout,
  channel: Pick<Channel, 'settings'> & Partial<Channel>,
): string[] | undefined {
  const accepted = offeredBrands(channel.settings);
  if (deps.processors === undefined || channel.mode === undefined || channel.settings.connector === undefined)
    return accepted;
  const testMode = (checkout.parameters as { testMode?: string }).testMode;
  const processed = processorFor(deps.processors, channel as Channel, testMode).brands;
  if (processed === undefined) return accepted;
  return accepted === undefined ? [...processed] : accepted.filter((brand) => processed.includes(brand));
}

/**
 * The billing fields (`street1`, `city`, `postcode`, `country`: the catalogue's "mandatory for 3-D
 * Secure v2") the checkout lacks, when its channel authenticates shoppers: an enrolled card's
 * payment would be refused without them, one that is not enrolled needs none. The widget draws
 * nothing for them up front; it may fetch the address's part early. Names only, never values.
 */
function billingFor3ds(checkout: Checkout, channel: Pick<Channel, 'settings'> | undefined): string[] {
  if (channel?.settings.threeDSecure !== true || checkout.kind !== 'payment') return [];
  const request = checkout.parameters as Parameters<typeof missingForV2>[0];
  if (request.threeDSecure?.disable === 'true' || hasExternalAuthentication(request)) return [];
  return missingForV2(request)
    .map((e) => e.name)
    .filter((name) => name.startsWith('billing.'))
    .map((name) => name.slice('billing.'.length));
}
