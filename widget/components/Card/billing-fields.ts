/**
 * The billing fields the card form knows whatever the checkout (their order, which ones the session
 * asks for) and the billing model's shape. The model itself and its checks (`./billing-address.ts`:
 * the gateway's postcode and state patterns, the country list) come with the billing address's
 * part, fetched only when a session asks for an address (`./Card.tsx`).
 */
import type { ReadonlySignal, Signal } from '@preact/signals';
import type { Session } from '../../core/api';
import type { BillingField } from '../../core/options';

/** The fields in the form's order; the state follows the country it depends on. */
export const BILLING_FIELDS: readonly BillingField[] = ['street1', 'city', 'postcode', 'country', 'state'];

export type BillingValues = Readonly<Partial<Record<BillingField, string>>>;

export interface BillingModel {
  /** The fields shown, in order. */
  readonly fields: ReadonlySignal<readonly BillingField[]>;
  readonly values: Signal<BillingValues>;
  /** The field must be filled (3-D Secure needs it, or mandatoryBillingFields says so). */
  required(field: BillingField): boolean;
  /** The field's error message, or undefined when it is fine. */
  check(field: BillingField): string | undefined;
  /** billing.<field> of the fields shown and filled. */
  params(): [string, string][];
}

export const isBillingField = (name: string): name is BillingField =>
  (BILLING_FIELDS as readonly string[]).includes(name);

/** The billing fields 3-D Secure needs and the checkout lacks (none: the form asks for no address). */
export const neededFields = (session: Pick<Session, 'requiredBillingFields'> | undefined): BillingField[] =>
  (session?.requiredBillingFields ?? []).filter(isBillingField);
