/**
 * The record stage: a payment or a registration written with what it tells the merchant, both
 * in one transaction (the store's outbox). The engine renders the notifications here, where it
 * records the change, and hands them to the store as data; storage renders nothing.
 */
import { paymentChanges, registrationChange } from '../answers/notifications';
import type { IssuerLookup } from '../answers/response';
import type { Payment, Registration } from '../core/model';
import type { PaymentStore, RegistrationStore } from '../core/ports';

export interface RecordDeps {
  readonly store: Pick<PaymentStore, 'insertPayment'>;
  /** The issuer lookup of the notifications' card.type, card.level, card.issuer.* (the processors). */
  readonly processors?: IssuerLookup;
}

/** Writes a new payment with its PAYMENT notification (and RISK when its risk check tells the merchant). */
export function recordPayment(deps: RecordDeps, payment: Payment): Promise<void> {
  return deps.store.insertPayment(payment, paymentChanges(payment, payment.createdAt, deps.processors));
}

/** Writes a new registration with its REGISTRATION CREATED notification. */
export function recordRegistration(
  deps: { readonly store: Pick<RegistrationStore, 'insertRegistration'> },
  registration: Registration,
): Promise<void> {
  return deps.store.insertRegistration(registration, [
    registrationChange(registration, 'CREATED', registration.createdAt),
  ]);
}
