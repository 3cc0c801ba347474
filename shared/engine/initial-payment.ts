/**
 * An initial payment (POST /v1/payments), as a pipeline: the request arrives validated; the
 * engine reads its money, finds the transaction a referenceUuid links it to, picks who decides
 * (simulator or connector), decides, records the payment durably, and hands back the record to
 * answer.
 */

import { exponentOf, fromMinor, isToMinorError, type Minor, toMinor } from '../money';
import type { ParameterError } from '../params/errors';
import type { RequestOf } from '../params/requests';
import { isSuccess, ResultCodes } from '../result-codes';
import { decide, type SimulatorRequest } from '../simulators/acquirer';
import { decideExternal } from './connector';
import { echoOf } from './echo';
import { newId, newSchemeReference } from './ids';
import {
  giftCardDetails,
  type Seal,
  sendsInstrument,
  simulationOf,
  storedCard,
  storedCardInstrument,
} from './instruments';
import { connectorIdOf, linkedPayment, linkRefusal } from './linked';
import type { Channel, Payment, Registration, TestMode } from './model';
import type { Clock, Connector, Store } from './ports';
import { paymentRecord } from './record';

export interface EngineDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Encrypts a card number for storage (server/security/vault). */
  readonly seal: Seal;
  /** Forwards testMode=EXTERNAL requests; without it they are refused. */
  readonly connector?: Connector;
}

export interface Caller {
  readonly merchantId: string;
  readonly channel: Channel;
}

export type Outcome =
  | { readonly kind: 'payment'; readonly payment: Payment }
  | { readonly kind: 'invalid'; readonly errors: ParameterError[] };

type PaymentRequest = RequestOf<'payment'>;

/** Reads `amount` in the currency's minor units; the AMT format is already checked. */
export function readAmount(amount: string, currency: string, name = 'amount'): Minor | ParameterError {
  const minor = toMinor(amount, currency);
  if (!isToMinorError(minor)) return minor;
  const message =
    minor.error === 'precision'
      ? `has more decimals than ${currency} has (${exponentOf(currency)})`
      : `cannot be read in ${currency}`;
  return { name, value: amount, message };
}

/** The money of a payment in minor units; forex.amount answered as DEC2, like amount. */
export interface Money {
  readonly amount: Minor;
  readonly forex?: { readonly amount: string; readonly currency: string };
}

/**
 * Reads `amount` and `forex.amount` (each in its own currency) the same way, reporting both
 * faults at once. The AMT formats and the forex pair were already checked by the catalogue.
 */
export function readMoney(
  request: Pick<PaymentRequest, 'amount' | 'currency' | 'forex'>,
): Money | { readonly errors: ParameterError[] } {
  const errors: ParameterError[] = [];
  const amount = readAmount(request.amount ?? '', request.currency ?? '');
  if (typeof amount !== 'number') errors.push(amount);
  const { forex } = request;
  let forexMinor: Minor | ParameterError | undefined;
  if (forex?.amount !== undefined && forex.currency !== undefined) {
    forexMinor = readAmount(forex.amount, forex.currency, 'forex.amount');
    if (typeof forexMinor !== 'number') errors.push(forexMinor);
  }
  if (errors.length > 0 || typeof amount !== 'number') return { errors };
  return typeof forexMinor === 'number' && forex?.currency !== undefined
    ? { amount, forex: { amount: fromMinor(forexMinor, forex.currency), currency: forex.currency } }
    : { amount };
}

export interface Decision {
  readonly testMode?: TestMode;
  readonly code: string;
  /** avsResponse and cvvResponse, beside result.code. */
  readonly result: Record<string, string>;
  readonly resultDetails: Record<string, string>;
}

/** Test channels run INTERNAL unless EXTERNAL is asked for; live channels have no test mode. */
export const testModeOf = (channel: Channel, requested: string | undefined): TestMode | undefined =>
  channel.mode === 'TEST' ? ((requested as TestMode | undefined) ?? 'INTERNAL') : undefined;

/**
 * decide: test channels simulate (INTERNAL) or forward (EXTERNAL); live channels need an
 * acquirer. Without a connector or acquirer the request is refused, never simulated.
 */
export function decideFor(
  channel: Channel,
  requestedTestMode: string | undefined,
  simulation: SimulatorRequest,
  now: Date,
): Decision {
  const testMode = testModeOf(channel, requestedTestMode);
  if (testMode !== 'INTERNAL') {
    return {
      ...(testMode === undefined ? {} : { testMode }),
      code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
      result: {},
      resultDetails: {},
    };
  }
  const decision = decide(simulation, now);
  return {
    testMode,
    code: decision.code,
    result: {
      ...(decision.avsResponse === undefined ? {} : { avsResponse: decision.avsResponse }),
      ...(decision.cvvResponse === undefined ? {} : { cvvResponse: decision.cvvResponse }),
    },
    resultDetails: { AcquirerResponse: decision.acquirerResponse, clearingInstituteName: 'Simulator' },
  };
}

export async function createPayment(
  deps: EngineDeps,
  caller: Caller,
  request: PaymentRequest,
): Promise<Outcome> {
  // validate: the money (formats and rules were checked by the parameter model) and the link
  const money = readMoney(request);
  if ('errors' in money) return { kind: 'invalid', errors: money.errors };
  const original =
    request.referenceUuid === undefined
      ? undefined
      : await linkedPayment(deps.store, caller, request.referenceUuid);
  if (original !== undefined && 'message' in original) return { kind: 'invalid', errors: [original] };
  // Without account data of its own, a linked payment charges the original's stored card.
  const reused = original !== undefined && !sendsInstrument(request) ? original : undefined;
  const paymentBrand = request.paymentBrand ?? reused?.paymentBrand;

  // decide
  const now = deps.clock.now();
  const decision = await decideInitial(deps, caller, request, original, reused, now);
  const { code, result, resultDetails, testMode } = decision;

  // record
  const echo = echoOf(request);
  const payment = paymentRecord(caller, now, {
    paymentType: request.paymentType ?? 'DB',
    paymentBrand,
    amount: money.amount,
    currency: request.currency,
    code,
    referencedId: original?.id,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    testMode,
    card: storedCard(request, deps.seal) ?? reused?.card,
    details: {
      ...echo,
      ...optional('forex', money.forex),
      ...giftCardDetails(request, echo),
      risk: { score: '0' },
    },
    result,
    resultDetails,
  });
  const registered = await registerAlong(deps, caller, request, payment);
  await deps.store.insertPayment(registered);
  return { kind: 'payment', payment: registered };
}

/**
 * decide, for an initial payment: an original that cannot be built on refuses the link; else
 * the connector (EXTERNAL, told the original by its own id) or the simulator, which charges the
 * original's stored card when the request sends no instrument.
 */
async function decideInitial(
  deps: EngineDeps,
  caller: Caller,
  request: PaymentRequest,
  original: Payment | undefined,
  reused: Payment | undefined,
  now: Date,
): Promise<Decision> {
  const external = caller.channel.mode === 'TEST' && request.testMode === 'EXTERNAL';
  const connectorId = original === undefined ? undefined : connectorIdOf(original);
  const refusal =
    original === undefined
      ? undefined
      : (linkRefusal(original, request.currency) ??
        (external && connectorId === undefined ? ResultCodes.REFERENCE_NOT_FOUND : undefined));
  if (refusal !== undefined) {
    const testMode = testModeOf(caller.channel, request.testMode);
    return { ...optional('testMode', testMode), code: refusal, result: {}, resultDetails: {} };
  }
  if (external) {
    const extra: Record<string, string> = connectorId === undefined ? {} : { referenceUuid: connectorId };
    return decideExternal(deps.connector, caller.channel, '/v1/payments', request, extra);
  }
  const simulation = simulationOf(request);
  const instrument =
    reused === undefined
      ? simulation.instrument
      : storedCardInstrument(
          request.paymentBrand ?? reused.paymentBrand ?? '',
          reused.card,
          request.card?.cvv,
        );
  return decideFor(caller.channel, request.testMode, { ...simulation, instrument }, now);
}

/** `{ [name]: value }`, or nothing when the value is undefined (records keep no undefined fields). */
const optional = <K extends string, V>(name: K, value: V | undefined) =>
  (value === undefined ? {} : { [name]: value }) as Partial<Record<K, V>>;

const wantsRegistration = (value: string | undefined) => value === 'true' || value === '1';

/**
 * After a successful payment: the scheme reference of a cardholder-initiated first payment or
 * of a migrated one (`standingInstruction.initialTransactionId`, see agreementOf), and with createRegistration the stored
 * registration, whose id the payment answers as registrationId.
 */
async function registerAlong(
  deps: EngineDeps,
  caller: Caller,
  request: PaymentRequest,
  payment: Payment,
): Promise<Payment> {
  if (!isSuccess(payment.resultCode)) return payment;
  const instruction = request.standingInstruction;
  const { initialTransactionId, agreementId } = agreementOf(request) ?? {};
  let withIds = payment;
  if (initialTransactionId !== undefined) {
    withIds = {
      ...payment,
      details: {
        ...payment.details,
        standingInstruction: { ...(instruction ?? {}), initialTransactionId, agreementId },
      },
    };
  }
  if (!wantsRegistration(request.createRegistration) || payment.paymentBrand === undefined) return withIds;
  const registration: Registration = {
    id: newId(),
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    paymentBrand: payment.paymentBrand,
    ...(payment.card === undefined ? {} : { card: payment.card }),
    details: registrationDetails(request),
    ...(initialTransactionId === undefined ? {} : { initialTransactionId }),
    ...(agreementId === undefined ? {} : { agreementId }),
    deletedAt: null,
    createdAt: payment.createdAt,
  };
  await deps.store.insertRegistration(registration);
  return { ...withIds, registrationId: registration.id };
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
