/**
 * An initial payment (POST /v1/payments), as a pipeline: the request arrives validated; the
 * engine reads its money, picks who decides (simulator or connector), decides, records the
 * payment durably, and hands back the record to answer.
 */

import { binOf, last4Of } from '../brands';
import { exponentOf, isToMinorError, type Minor, toMinor } from '../money';
import type { ParameterError } from '../params/errors';
import type { RequestOf } from '../params/requests';
import { isSuccess, ResultCodes } from '../result-codes';
import { decide, type SimulatedInstrument, type SimulatorRequest } from '../simulators/acquirer';
import { decideExternal } from './connector';
import { echoOf } from './echo';
import { newId } from './ids';
import type { Channel, Payment, Registration, StoredCard, TestMode } from './model';
import type { Clock, Connector, Store } from './ports';
import { paymentRecord } from './record';

export interface EngineDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Encrypts a card number for storage (server/security/vault). */
  readonly seal: (plain: string) => string;
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

/** What the simulator decides a request on. */
export function simulationOf(
  request: Pick<PaymentRequest, 'card' | 'bankAccount' | 'paymentBrand' | 'customParameters' | 'billing'>,
): SimulatorRequest {
  return {
    instrument: instrumentOf(request),
    ...(request.customParameters === undefined ? {} : { customParameters: request.customParameters }),
    billingSent: request.billing !== undefined,
  };
}

/** The account data a request carries, for the simulator. */
export function instrumentOf(
  request: Pick<PaymentRequest, 'card' | 'bankAccount' | 'paymentBrand'>,
): SimulatedInstrument {
  const card = request.card;
  if (card?.number !== undefined) {
    return {
      kind: 'card',
      brand: request.paymentBrand ?? '',
      number: card.number,
      expiryMonth: card.expiryMonth ?? '',
      expiryYear: card.expiryYear ?? '',
      ...(card.cvv === undefined ? {} : { cvv: card.cvv }),
      ...(card.holder === undefined ? {} : { holder: card.holder }),
    };
  }
  if (request.bankAccount !== undefined) {
    return {
      kind: 'bankAccount',
      ...(request.bankAccount.iban === undefined ? {} : { iban: request.bankAccount.iban }),
      ...(request.bankAccount.holder === undefined ? {} : { holder: request.bankAccount.holder }),
    };
  }
  return { kind: 'other' };
}

export function storedCard(
  request: { card?: PaymentRequest['card'] },
  seal: EngineDeps['seal'],
): StoredCard | undefined {
  const card = request.card;
  if (card?.number === undefined) return undefined;
  return {
    bin: binOf(card.number),
    last4Digits: last4Of(card.number),
    ...(card.holder === undefined ? {} : { holder: card.holder }),
    expiryMonth: card.expiryMonth ?? '',
    expiryYear: card.expiryYear ?? '',
    encryptedNumber: seal(card.number),
  };
}

export interface Decision {
  readonly testMode?: TestMode;
  readonly code: string;
  /** avsResponse and cvvResponse, beside result.code. */
  readonly result: Record<string, string>;
  readonly resultDetails: Record<string, string>;
}

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
  const testMode: TestMode | undefined =
    channel.mode === 'TEST' ? ((requestedTestMode as TestMode | undefined) ?? 'INTERNAL') : undefined;
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
  // validate: the money (formats and rules were checked by the parameter model)
  const amount = readAmount(request.amount ?? '', request.currency ?? '');
  if (typeof amount !== 'number') return { kind: 'invalid', errors: [amount] };

  const now = deps.clock.now();
  const decision =
    caller.channel.mode === 'TEST' && request.testMode === 'EXTERNAL'
      ? await decideExternal(deps.connector, caller.channel, '/v1/payments', request)
      : decideFor(caller.channel, request.testMode, simulationOf(request), now);
  const { code, result, resultDetails, testMode } = decision;

  // record
  const payment = paymentRecord(caller, now, {
    paymentType: request.paymentType ?? 'DB',
    paymentBrand: request.paymentBrand,
    amount,
    currency: request.currency,
    code,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    testMode,
    card: storedCard(request, deps.seal),
    details: { ...echoOf(request), risk: { score: '0' } },
    result,
    resultDetails,
  });
  const registered = await registerAlong(deps, caller, request, payment);
  await deps.store.insertPayment(registered);
  return { kind: 'payment', payment: registered };
}

const wantsRegistration = (value: string | undefined) => value === 'true' || value === '1';

/**
 * After a successful payment: the scheme reference of a cardholder-initiated first payment
 * (`standingInstruction.initialTransactionId`), and with createRegistration the stored
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
  const initial = instruction?.mode === 'INITIAL' || request.recurringType === 'INITIAL';
  const initialTransactionId = initial ? newSchemeReference() : undefined;
  const agreementId = initial ? (instruction?.agreementId ?? newId()) : undefined;
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
  if (!wantsRegistration(request.createRegistration) || request.paymentBrand === undefined) return withIds;
  const registration: Registration = {
    id: newId(),
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    paymentBrand: request.paymentBrand,
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

/** What a registration keeps besides its card: the bank account and the shopper's groups. */
export function registrationDetails(request: object): Record<string, unknown> {
  const echo = echoOf(request) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of ['bankAccount', 'virtualAccount', 'customer', 'billing', 'card']) {
    if (echo[key] !== undefined) kept[key] = echo[key];
  }
  return kept;
}

/** A scheme reference as acquirers return them: 15 digits. */
function newSchemeReference(): string {
  const bytes = new Uint8Array(15);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => String(b % 10)).join('');
}
