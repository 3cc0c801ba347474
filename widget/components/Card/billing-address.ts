/**
 * The billing address the card form asks for when the checkout's channel authenticates shoppers
 * with 3-D Secure and the checkout lacks the address 3-D Secure needs (the session's
 * requiredBillingFields): street1, city, postcode, country, and the state where the country's
 * addresses have one. `wpwlOptions.billingAddress` prefills them, `mandatoryBillingFields` says
 * which must be filled (those 3-D Secure needs always must). Checked with the gateway's formats
 * (shared/params), posted as billing.* with the card through the number frame's submission.
 * Bundled into the billing address's part (`./BillingAddress.tsx`): only checkouts that ask for an
 * address load these checks and the country list.
 */
import { computed, signal } from '@preact/signals';
import { POSTCODE, STATE } from '../../../shared/params/catalogue/dsl';
import type { Leaf } from '../../../shared/params/nodes';
import type { Session } from '../../core/api';
import { fits } from '../../core/checks';
import type { BillingField, Settings } from '../../core/options';
import type { ErrorMessages } from '../../language';
import { BILLING_FIELDS, type BillingModel, type BillingValues, neededFields } from './billing-fields';
import { COUNTRY_CODES } from './countries';

export { BILLING_FIELDS, type BillingModel, type BillingValues, neededFields };

/** Countries whose addresses name a state or province: the form asks for it there. */
export const STATE_COUNTRIES: readonly string[] = ['US', 'CA', 'AU', 'BR', 'IN', 'MX'];

/** The catalogue's pattern of a leaf (billing.postcode and billing.state are patterns). */
const patternOf = (leaf: Leaf): RegExp => (leaf.format as { re: RegExp }).re;
const POSTCODE_RE = patternOf(POSTCODE());
const STATE_RE = patternOf(STATE());

/** The form's billing address, or undefined when the checkout needs none from the shopper. */
export function billingModel(
  settings: Pick<Settings, 'billingAddress' | 'mandatoryBillingFields'>,
  session: Pick<Session, 'requiredBillingFields'> | undefined,
  messages: ErrorMessages,
): BillingModel | undefined {
  const needed = neededFields(session);
  if (needed.length === 0) return undefined;
  const mandatory = settings.mandatoryBillingFields;
  const prefill = settings.billingAddress;
  const values = signal<BillingValues>(
    Object.fromEntries(
      BILLING_FIELDS.map((f) => [f, f === 'country' ? (prefill[f] ?? '').toUpperCase() : (prefill[f] ?? '')]),
    ),
  );
  const fields = computed(() => {
    const country = values.value.country ?? '';
    const state =
      mandatory.state === true || (needed.includes('country') && STATE_COUNTRIES.includes(country));
    return BILLING_FIELDS.filter((f) => needed.includes(f) || (f === 'state' && state));
  });
  const required = (f: BillingField) =>
    needed.includes(f) || mandatory[f] === true || (f === 'state' && mandatory.state !== false);
  const check = (f: BillingField): string | undefined => {
    const value = (values.peek()[f] ?? '').trim();
    if (value === '')
      return required(f) ? (f === 'country' ? messages.countryError : messages.billingRequired) : undefined;
    switch (f) {
      case 'street1':
      case 'city':
        return fits(`billing.${f}`, value) ? undefined : messages.billingRequired;
      case 'postcode':
        return POSTCODE_RE.test(value) ? undefined : messages.postcodeError;
      case 'state':
        return STATE_RE.test(value) ? undefined : messages.stateError;
      case 'country':
        return COUNTRY_CODES.includes(value) ? undefined : messages.countryError;
    }
  };
  return {
    fields,
    values,
    required,
    check,
    params: () =>
      fields
        .peek()
        .map((f): [string, string] => [`billing.${f}`, (values.peek()[f] ?? '').trim()])
        .filter(([, v]) => v !== ''),
  };
}
