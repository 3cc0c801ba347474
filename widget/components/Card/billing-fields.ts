/**
 * The billing fields the card form knows whatever the checkout (their order, when it asks for
 * them) and the billing model's shape. The model itself and its checks (`./billing-address.ts`:
 * the gateway's postcode and state patterns, the country list) come with the billing address's
 * part, fetched only when an address is asked for (`./Card.tsx`).
 *
 * An address is asked for when it is needed (DECISIONS, "Widget and 3-D Secure v2 data"): from
 * the start when the page asks for one (`wpwlOptions.billingAddress`, `mandatoryBillingFields`);
 * otherwise only once the gateway answers a submission with a 400 naming billing fields (an
 * enrolled card on a channel that authenticates, and the checkout lacks them), then exactly those.
 */
import type { ReadonlySignal, Signal } from '@preact/signals';
import type { Session } from '../../core/api';
import type { BillingField, Settings } from '../../core/options';

/** The fields in the form's order; the state follows the country it depends on. */
export const BILLING_FIELDS: readonly BillingField[] = ['street1', 'city', 'postcode', 'country', 'state'];

/** The fields a page's address shows when the session names none: all but the state (by country). */
const ADDRESS: readonly BillingField[] = ['street1', 'city', 'postcode', 'country'];

export type BillingValues = Readonly<Partial<Record<BillingField, string>>>;

export interface BillingModel {
  /** The fields shown, in order. */
  readonly fields: ReadonlySignal<readonly BillingField[]>;
  readonly values: Signal<BillingValues>;
  /** The field must be filled (the gateway asked for it, or mandatoryBillingFields says so). */
  required(field: BillingField): boolean;
  /** The field's error message, or undefined when it is fine. */
  check(field: BillingField): string | undefined;
  /** billing.<field> of the fields shown and filled. */
  params(): [string, string][];
  /** The gateway asked for these: shown from now on, and required. */
  ask(fields: readonly BillingField[]): void;
}

export const isBillingField = (name: string): name is BillingField =>
  (BILLING_FIELDS as readonly string[]).includes(name);

/** Whether the page asks for the address from the start (prefill values, or a mandatory field). */
export const pageAsksForAddress = (settings: Pick<Settings, 'billingAddress' | 'mandatoryBillingFields'>) =>
  Object.values(settings.billingAddress).some((v) => v !== '') ||
  Object.values(settings.mandatoryBillingFields).some((v) => v === true);

/**
 * The fields a page's address shows: those the session says the checkout lacks for 3-D Secure
 * (it has the others), else the whole address.
 */
export function pageAddressFields(
  session: Pick<Session, 'authenticationBillingFields'> | undefined,
): BillingField[] {
  const lacking = (session?.authenticationBillingFields ?? []).filter(isBillingField);
  return lacking.length > 0 ? lacking : [...ADDRESS];
}

/** The v2 billing fields an answer's parameterErrors name (`billing.city` → `city`). */
export const askedBillingFields = (parameters: readonly string[]): BillingField[] =>
  parameters
    .filter((p) => p.startsWith('billing.'))
    .map((p) => p.slice('billing.'.length))
    .filter(isBillingField);
