/**
 * Registrations (tokenization): storing payment details (POST /v1/registrations), reading and
 * deleting them, and paying with them (POST /v1/registrations/{id}/payments), including
 * merchant-initiated repeats of a standing instruction.
 */

import { catalogueEntry } from '../../brands';
import { fromMinor } from '../../money';
import type { ParameterError } from '../../params/errors';
import type { RequestOf } from '../../params/requests';
import { isPending, isSuccess, ResultCodes } from '../../result-codes';
import { echoOf } from '../answers/echo';
import { registrationChange } from '../answers/notifications';
import { readAmount, readMoney } from '../core/amounts';
import type { Caller, EngineDeps } from '../core/deps';
import { type Checked, type Invalid, invalid, type Ok, type Refused, refused } from '../core/failure';
import { newId, newPaymentNdc } from '../core/ids';
import {
  billingOf,
  sendsInstrument,
  simulationOf,
  storedBankAccountInstrument,
  storedCard,
  storedCardInstrument,
} from '../core/instruments';
import type { Payment, Registration } from '../core/model';
import type { Decision, Processor } from '../core/ports';
import {
  CONNECTOR_REGISTRATION_ID,
  connectorRegistrationIdOf,
  processorFor,
  REGISTRATION_ANSWER,
  registrationAnswerOf,
  withProcessorDetails,
} from '../core/processor';
import { paymentRecord } from '../core/record';
import { agreementOf, registrationDetails } from '../steps/after-success';
import { checkPaymentMethod } from '../steps/payment-method';
import { isUncertain, pendRegistrationForInquiry, recordDecided } from '../steps/processor-uncertain';
import { recordRegistration } from '../steps/record';
import { riskDecision, riskDetails, screenRisk } from '../steps/risk-check';
import { openWalletToken } from '../steps/wallets';

export type RegistrationOutcome =
  | {
      readonly kind: 'registration';
      readonly registration: Registration;
      readonly code: string;
      readonly ndc: string;
    }
  | Refused
  | Invalid;

/** POST /v1/registrations: checks the account data like a payment would, then stores it. */
export async function createRegistration(
  deps: EngineDeps,
  caller: Caller,
  sent: RequestOf<'registration'>,
): Promise<RegistrationOutcome> {
  const now = deps.clock.now();
  // A wallet token stands for a card: the registration stores that card.
  const unwrapped = openWalletToken(deps.wallets, caller, sent, now);
  if (unwrapped.kind === 'invalid') return unwrapped;
  const { request } = unwrapped;
  // amount and currency move no money; only their precision is checked, as a payment's would be
  const money = moneyOf(request);
  if (money.kind === 'invalid') return money;
  // the payment method: a brand the gateway knows, with the account data its method needs
  const accepted = checkPaymentMethod(request.paymentBrand, request, false, caller.channel);
  if (accepted.kind !== 'ok') return accepted;
  // A registration keeps account data to charge later; a method that takes none (a redirect,
  // PREPAYMENT) leaves nothing to keep, and nothing to charge without the shopper, unless what it
  // keeps is the payer (a boleto's: catalogue.ts registersPayer).
  if (!sendsInstrument(request) && !catalogueEntry(request.paymentBrand ?? '')?.registersPayer)
    return refused(ResultCodes.REGISTRATION_NO_ACCOUNT_DATA);
  const processor = processorFor(deps.processors, caller.channel, request.testMode);
  const id = newId(); // first: a connector keys its requests by it (a retry carries the same key)
  const decision = await processor.register({
    channel: caller.channel,
    request,
    decide: simulationOf(request),
    now,
    paymentId: id,
  });
  const connectorId = decision.resultDetails.ConnectorRegistrationID;
  const card = storedCard(request, deps.seal);
  // A recurring migration registers an agreement made elsewhere: its ids come along (the spec:
  // "a registration (RG) is sent with the data of the INITIAL transaction").
  const agreement = request.recurringMigration === undefined ? undefined : agreementOf(request);
  const ndc = newPaymentNdc(caller.channel.id);
  const registration: Registration = {
    id,
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    paymentBrand: request.paymentBrand ?? '',
    ...(card === undefined ? {} : { card }),
    ...(agreement ?? {}),
    // the Query API finds it by this (an upstream gateway asked about an uncertain registration)
    ...(request.merchantTransactionId === undefined
      ? {}
      : { merchantTransactionId: request.merchantTransactionId }),
    details: {
      ...money.answered,
      ...registrationDetails(request),
      // the connector's own id of the registration, to pay with it there (never answered)
      ...(connectorId === undefined ? {} : { [CONNECTOR_REGISTRATION_ID]: connectorId }),
      // what the creation answers, for its reads, deletion and notifications (never echoed itself)
      [REGISTRATION_ANSWER]: { code: decision.code, ndc },
    },
    deletedAt: null,
    createdAt: now,
  };
  // The processor's answer lost (a timeout, a reset, a 5xx, garbage): pending, never a failure,
  // kept with its inquiry before it is answered (steps/processor-uncertain.ts, registration-inquiry.ts).
  if (isUncertain(decision)) await pendRegistrationForInquiry(deps, registration, decision);
  // A registration the checks refused is answered but not kept: nothing could pay with it.
  else if (isSuccess(decision.code)) await recordRegistration(deps, registration);
  return { kind: 'registration', registration, code: decision.code, ndc };
}

/** A registration's amount and currency as answered (DEC2 in the currency's exponent); none without them. */
function moneyOf(
  request: RequestOf<'registration'>,
): Checked<{ answered: { readonly amount?: string; readonly currency?: string } }> {
  const { amount, currency } = request;
  if (amount === undefined || currency === undefined) return { kind: 'ok', answered: {} };
  const read = readAmount(amount, currency);
  if (read.kind === 'invalid') return read;
  return { kind: 'ok', answered: { amount: fromMinor(read.amount, currency), currency } };
}

/**
 * DELETE /v1/registrations/{id}: the registration deregistered with its REGISTRATION DELETED
 * notification, in one transaction. False when it was deregistered already (or is not the merchant's).
 */
export function deregister(
  deps: Pick<EngineDeps, 'store' | 'clock'>,
  merchantId: string,
  id: string,
): Promise<boolean> {
  const at = deps.clock.now();
  return deps.store.deleteRegistration(merchantId, id, at, (r) => [registrationChange(r, 'DELETED', at)]);
}

export type RegistrationPaymentOutcome =
  | { readonly kind: 'payment'; readonly payment: Payment }
  | Invalid
  | Refused;

/** POST /v1/registrations/{id}/payments: a payment with stored details. */
export async function payWithRegistration(
  deps: EngineDeps,
  caller: Caller,
  registrationId: string,
  request: RequestOf<'registrationPayment'>,
  /** The checkout whose one-click submission this is, if any. */
  checkoutId?: string,
): Promise<RegistrationPaymentOutcome> {
  const money = readMoney(request);
  if (money.kind === 'invalid') return money;
  const usable = await usableRegistration(deps.store, caller.merchantId, registrationId);
  if (usable.kind === 'refused') return usable;
  const { registration } = usable;
  // Stored before brands were checked, a registration may name one the gateway does not know.
  const accepted = checkPaymentMethod(registration.paymentBrand, request, true, caller.channel);
  if (accepted.kind !== 'ok') return accepted;

  // A merchant-initiated repeat names the agreement it continues; it must be this registration's.
  const agreement = await agreementErrors(deps.store, request.standingInstruction, registration);
  if (agreement.length > 0) return invalid(agreement);

  const now = deps.clock.now();
  const stored = registration.card;
  // screen: the channel's risk rules (risk-check.ts); a stored card has its BIN, not its fingerprint
  const processor = processorFor(deps.processors, caller.channel, request.testMode);
  const testMode = processor.testMode;
  const risk = await screenRisk(
    deps,
    caller,
    {
      request,
      amount: money.amount,
      currency: request.currency ?? '',
      brand: registration.paymentBrand,
      bin: stored?.bin,
      binInfo: processor.binInfo,
    },
    now,
    true,
  );
  if (risk.kind === 'invalid') return risk;
  const unknownThere = unknownAtTheConnector(processor, registration);
  const paymentId = newId(); // first: a connector sends it as its reference, to inquire by it
  const decision =
    riskDecision(risk, testMode) ??
    unknownThere ??
    (await processor.payWithRegistration({
      channel: caller.channel,
      registration,
      request,
      decide: {
        instrument:
          (stored === undefined ? storedBankAccountInstrument(registration.details) : undefined) ??
          storedCardInstrument(registration.paymentBrand, stored, request.card?.cvv),
        ...(request.customParameters === undefined ? {} : { customParameters: request.customParameters }),
        ...billingOf(request.billing),
      },
      now,
      paymentId,
    }));
  // overrideHolder: a holder sent now replaces an empty stored one, for this payment only.
  const holder =
    request.overrideHolder === 'true' && stored?.holder === undefined ? request.card?.holder : stored?.holder;
  const { card: _echoedCard, ...echo } = echoOf(request);
  const instruction = repeatInstruction(request.standingInstruction, registration);
  const payment = paymentRecord(caller, now, {
    id: paymentId,
    paymentType: request.paymentType ?? 'DB',
    paymentBrand: registration.paymentBrand,
    amount: money.amount,
    currency: request.currency,
    code: decision.code,
    registrationId: registration.id,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    checkoutId,
    testMode: decision.testMode,
    card: stored === undefined ? undefined : { ...stored, ...(holder === undefined ? {} : { holder }) },
    details: withProcessorDetails(
      {
        ...echo,
        ...(instruction === undefined ? {} : { standingInstruction: instruction }),
        ...(money.forex === undefined ? {} : { forex: money.forex }),
        ...riskDetails(risk, echo),
      },
      decision,
    ),
    result: decision.result,
    resultDetails: decision.resultDetails,
  });
  // the processor's answer lost: pending until it is asked (steps/processor-uncertain.ts)
  return { kind: 'payment', payment: await recordDecided(deps, payment, decision) };
}

/** A registration made before the channel had its connector: the connector has nothing to charge. */
function unknownAtTheConnector(processor: Processor, registration: Registration): Decision | undefined {
  if (processor.kind !== 'connector' || connectorRegistrationIdOf(registration) !== undefined)
    return undefined;
  const testMode = processor.testMode;
  return {
    ...(testMode === undefined ? {} : { testMode }),
    code: ResultCodes.REGISTRATION_NOT_FOUND,
    result: {},
    resultDetails: {},
  };
}

/**
 * The merchant's registration to pay with; the engine's refusal for a missing or deregistered
 * one, for one still uncertain (100.150.201 "registration is not confirmed yet") and for one its
 * processor never made (the inquiry's failure: 100.150.200).
 */
export async function usableRegistration(
  store: Pick<EngineDeps['store'], 'getRegistration'>,
  merchantId: string,
  registrationId: string,
): Promise<Ok<{ registration: Registration }> | Refused> {
  const registration = await store.getRegistration(merchantId, registrationId);
  if (registration === undefined) return refused(ResultCodes.REGISTRATION_NOT_FOUND);
  if (registration.deletedAt !== null) return refused(ResultCodes.REGISTRATION_DEREGISTERED);
  const { code } = registrationAnswerOf(registration);
  // its processor's answer lost: not usable until the inquiry says it was made
  if (isPending(code)) return refused(ResultCodes.REGISTRATION_NOT_CONFIRMED);
  // the inquiry found the processor never made it (or declined it): nothing to pay with
  if (!isSuccess(code)) return refused(ResultCodes.REGISTRATION_NOT_FOUND);
  return { kind: 'ok', registration };
}

/**
 * A merchant-initiated repeat continues this registration's agreement: the ids it quotes must name
 * it. A stand-alone registration (POST /v1/registrations, a recurring migration included) is the
 * cardholder's initial agreement itself, and so is one that began none: a repeat on it may quote
 * nothing and the registration's own ids are used (decisions, Fidelity). Only a registration made
 * by an initial payment that answered its ids needs them quoted. As initialTransactionId the
 * family's clients also quote the id of the answer that set the agreement up (Hyperswitch's ACI
 * connector: the registration's id, or the id of the CIT payment that made it), which names it too.
 */
async function agreementErrors(
  store: Pick<EngineDeps['store'], 'getPayment'>,
  instruction: RequestOf<'registrationPayment'>['standingInstruction'],
  registration: Registration,
): Promise<ParameterError[]> {
  if (instruction?.source !== 'MIT') return [];
  const sentInitial = instruction.initialTransactionId;
  const sentAgreement = instruction.agreementId;
  const quoted = sentInitial !== undefined || sentAgreement !== undefined;
  const matches = quoted
    ? (sentInitial === undefined || (await namesAgreement(store, sentInitial, registration))) &&
      (sentAgreement === undefined || sentAgreement === registration.agreementId)
    : isOwnAgreement(registration);
  if (matches) return [];
  return [
    {
      name:
        sentInitial !== undefined
          ? 'standingInstruction.initialTransactionId'
          : 'standingInstruction.agreementId',
      value: sentInitial ?? sentAgreement ?? null,
      message:
        'must be the initialTransactionId or agreementId returned for the initial payment of this registration',
    },
  ];
}

/** Whether a quoted initialTransactionId names the registration's agreement (see agreementErrors). */
async function namesAgreement(
  store: Pick<EngineDeps['store'], 'getPayment'>,
  quoted: string,
  registration: Registration,
): Promise<boolean> {
  if (quoted === registration.initialTransactionId || quoted === registration.id) return true;
  if (!/^[0-9a-f]{32}$/.test(quoted)) return false;
  const payment = await store.getPayment(registration.merchantId, quoted);
  return payment?.registrationId === registration.id;
}

/** Whether the registration is its own initial agreement (see agreementErrors). */
const isOwnAgreement = (registration: Registration): boolean =>
  (registration.initialTransactionId === undefined && registration.agreementId === undefined) ||
  registration.details.recurringMigration !== undefined;

/**
 * The standing instruction a repeat is recorded with: as sent, with the registration's own ids
 * where the merchant quoted none (as a schedule's runs carry them).
 */
function repeatInstruction(
  instruction: RequestOf<'registrationPayment'>['standingInstruction'],
  registration: Registration,
): Record<string, unknown> | undefined {
  if (instruction?.source !== 'MIT') return undefined;
  const out: Record<string, unknown> = { ...instruction };
  if (out.initialTransactionId === undefined && registration.initialTransactionId !== undefined)
    out.initialTransactionId = registration.initialTransactionId;
  if (out.agreementId === undefined && registration.agreementId !== undefined)
    out.agreementId = registration.agreementId;
  return out;
}
