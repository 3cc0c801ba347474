/**
 * The billing address the card form asks for when it is needed (`./billing-fields.ts`): street1,
 * city, postcode, country, and the state where the country's addresses have one.
 * `wpwlOptions.billingAddress` prefills them, `mandatoryBillingFields` says which must be filled
 * (those the gateway asked for always must). Checked with the gateway's formats (shared/params),
 * posted as billing.* with the card through the number frame's submission. Bundled into the
 * billing address's part (`./BillingAddress.tsx`): only forms that ask for an address load these
 * checks and the country list.
 */
import { computed, signal } from '@preact/signals';
import { POSTCODE, STATE } from '../../../shared/params/catalogue/dsl';
import type { Leaf } from '../../../shared/params/nodes';
import { fits } from '../../core/checks';
import type { BillingField, Settings } from '../../core/options';
import type { ErrorMessages } from '../../language';
import { BILLING_FIELDS, type BillingModel, type BillingValues } from './billing-fields';
import { COUNTRY_CODES } from './countries';

export { BILLING_FIELDS, type BillingModel, type BillingValues };

/** Countries whose addresses name a state or province: the form asks for it there. */
export const STATE_COUNTRIES: readonly string[] = ['US', 'CA', 'AU', 'BR', 'IN', 'MX'];

/** The catalogue's pattern of a leaf (billing.postcode and billing.state are patterns). */
const patternOf = (leaf: Leaf): RegExp => (leaf.format as { re: RegExp }).re;
const POSTCODE_RE = patternOf(POSTCODE());
const STATE_RE = patternOf(STATE());

/** The fields to show at first, and those of them the gateway asked for (required). */
export interface BillingStart {
  readonly shown: readonly BillingField[];
  readonly asked: readonly BillingField[];
}

const union = (a: readonly BillingField[], b: readonly BillingField[]): BillingField[] =>
  BILLING_FIELDS.filter((f) => a.includes(f) || b.includes(f));

/** The form's billing address: the fields of `start`, and those the gateway asks for later. */
export function billingModel(
  settings: Pick<Settings, 'billingAddress' | 'mandatoryBillingFields'>,
  messages: ErrorMessages,
  start: BillingStart,
): BillingModel {
  const mandatory = settings.mandatoryBillingFields;
  const prefill = settings.billingAddress;
  const shown = signal<readonly BillingField[]>(union(start.shown, start.asked));
  const asked = signal<readonly BillingField[]>(union([], start.asked));
  const values = signal<BillingValues>(
    Object.fromEntries(
      BILLING_FIELDS.map((f) => [f, f === 'country' ? (prefill[f] ?? '').toUpperCase() : (prefill[f] ?? '')]),
    ),
  );
  const fields = computed(() => {
    const base = shown.value;
    const country = values.value.country ?? '';
    const state = mandatory.state === true || (base.includes('country') && STATE_COUNTRIES.includes(country));
    return BILLING_FIELDS.filter((f) => base.includes(f) || (f === 'state' && state));
  });
  const required = (f: BillingField) =>
    asked.peek().includes(f) || mandatory[f] === true || (f === 'state' && mandatory.state !== false);
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
    ask(more) {
      asked.value = union(asked.peek(), more);
      shown.value = union(shown.peek(), more);
    },
  };
}
