/**
 * What a first payment leaves behind once it succeeds: the standing-instruction agreement it
 * starts and, with createRegistration, a stored registration. Used by payments that succeed at
 * once (initial-payment.ts) and by pending ones that succeed later (asynchronous.ts).
 */
import type { RequestOf } from '../../params/requests';
import { isSuccess } from '../../result-codes';
import { echoOf } from '../answers/echo';
import { newId, newSchemeReference } from '../core/ids';
import type { Payment, Registration } from '../core/model';
import { CONNECTOR_REGISTRATION_ID, REGISTRATION_ANSWER, successCodeOf } from '../core/processor';

type PaymentRequest = RequestOf<'payment'>;

const wantsRegistration = (value: string | undefined) => value === 'true' || value === '1';

/**
 * What a first payment leaves behind once it succeeds: the standing-instruction agreement it
 * starts (see agreementOf) and, with createRegistration, the stored registration. Worked out
 * from the request up front, because a pending payment succeeds later, when the request is
 * gone; plain JSON, so a pending payment's session can keep it.
 */
export interface AfterSuccess {
  readonly agreement?: {
    readonly initialTransactionId: string;
    readonly agreementId: string;
    readonly instruction: Readonly<Record<string, string>>;
  };
  /** The registration's details besides its card (registrationDetails). */
  readonly register?: Readonly<Record<string, unknown>>;
}

export function afterSuccessOf(request: PaymentRequest): AfterSuccess {
  const agreement = agreementOf(request);
  return {
    ...(agreement === undefined
      ? {}
      : { agreement: { ...agreement, instruction: { ...(request.standingInstruction ?? {}) } } }),
    ...(wantsRegistration(request.createRegistration) ? { register: registrationDetails(request) } : {}),
  };
}

/**
 * A succeeded payment with what AfterSuccess asks for: the scheme reference of a
 * cardholder-initiated first payment (or of a migrated one) in `standingInstruction`, and the
 * registration to store, whose id the payment answers as registrationId.
 */
export function withAfterSuccess(
  payment: Payment,
  after: AfterSuccess,
): { readonly payment: Payment; readonly registration?: Registration } {
  const { agreement, register } = after;
  const withIds: Payment =
    agreement === undefined
      ? payment
      : {
          ...payment,
          details: {
            ...payment.details,
            standingInstruction: {
              ...agreement.instruction,
              initialTransactionId: agreement.initialTransactionId,
              agreementId: agreement.agreementId,
            },
          },
        };
  if (register === undefined || payment.paymentBrand === undefined) return { payment: withIds };
  const registration: Registration = {
    id: newId(),
    merchantId: payment.merchantId,
    channelId: payment.channelId,
    paymentBrand: payment.paymentBrand,
    ...(payment.card === undefined ? {} : { card: payment.card }),
    // what its creation answered, for its reads, deletion and notifications (registrations.ts
    // keeps the same): the payment that made it, so the REGISTRATION payload carries its ndc
    details: {
      ...register,
      [REGISTRATION_ANSWER]: { code: successCodeOf(payment.testMode), ndc: payment.ndc },
    },
    ...(agreement === undefined ? {} : { initialTransactionId: agreement.initialTransactionId }),
    ...(agreement === undefined ? {} : { agreementId: agreement.agreementId }),
    deletedAt: null,
    createdAt: payment.createdAt,
  };
  return { payment: { ...withIds, registrationId: registration.id }, registration };
}

/**
 * The ids of a standing-instruction agreement a first payment starts: the scheme reference of
 * the cardholder-initiated INITIAL payment and the agreement id, which merchant-initiated
 * repeats quote. A recurring migration (deprecated) is an INITIAL that happened at another
 * provider: the merchant brings the agreement along, so the ids it already holds are kept
 * (standingInstruction.initialTransactionId, else the acquirer's connectorTxId1 of that
 * INITIAL) and its customers' repeats go on quoting them unchanged.
 */
export function agreementOf(request: {
  readonly standingInstruction?: {
    readonly mode?: string;
    readonly initialTransactionId?: string;
    readonly agreementId?: string;
  };
  readonly recurringType?: string;
  readonly recurringMigration?: { readonly connectorTxId1?: string };
}): { readonly initialTransactionId: string; readonly agreementId: string } | undefined {
  const instruction = request.standingInstruction;
  const migration = request.recurringMigration;
  if (migration !== undefined) {
    return {
      initialTransactionId:
        instruction?.initialTransactionId ?? migration.connectorTxId1 ?? newSchemeReference(),
      agreementId: instruction?.agreementId ?? newId(),
    };
  }
  if (instruction?.mode !== 'INITIAL' && request.recurringType !== 'INITIAL') return undefined;
  return { initialTransactionId: newSchemeReference(), agreementId: instruction?.agreementId ?? newId() };
}

/** What a registration keeps besides its card: the bank account and the shopper's groups. */
export function registrationDetails(request: object): Record<string, unknown> {
  const echo = echoOf(request) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of [
    'bankAccount',
    'virtualAccount',
    'tokenAccount',
    'customer',
    'billing',
    'card',
    'recurringMigration',
  ]) {
    if (echo[key] !== undefined) kept[key] = echo[key];
  }
  return kept;
}

/**
 * A connector's payment with createRegistration=true that its processor made, ended after the
 * shopper's return, by its inquiry or by the processor's notification: the registration it keeps is
 * the processor's too (its ConnectorRegistrationID, as initial-payment.ts keepAfterSuccess keeps).
 * A success that names no card stored there makes none: a registration without the processor's
 * id of it could never be paid with (a payment with it has nothing to name there), so the
 * payment answers no registrationId and tells no REGISTRATION CREATED, and the merchant
 * registers the card again rather than holding one that fails every payment.
 */
export function withRegisteredThere<Plan extends { readonly afterSuccess?: AfterSuccess }>(
  plan: Plan,
  decided: { readonly code: string; readonly details: Readonly<Record<string, unknown>> },
): Plan {
  const after = plan.afterSuccess;
  const register = after?.register;
  const details = decided.details.resultDetails as Record<string, unknown> | undefined;
  const theirs = details?.ConnectorRegistrationID;
  if (after === undefined || register === undefined || !isSuccess(decided.code)) return plan;
  if (typeof theirs !== 'string') {
    const { register: _none, ...rest } = after;
    return { ...plan, afterSuccess: rest };
  }
  return {
    ...plan,
    afterSuccess: { ...after, register: { ...register, [CONNECTOR_REGISTRATION_ID]: theirs } },
  };
}
