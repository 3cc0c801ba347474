/**
 * An initial payment (POST /v1/payments), as a pipeline: the request arrives validated; the
 * engine reads its money, picks who decides (simulator or connector), decides, records the
 * payment durably, and hands back the record to answer.
 */
import { binOf, last4Of } from '../brands';
import { exponentOf, isToMinorError, type Minor, toMinor } from '../money';
import type { ParameterError } from '../params/errors';
import type { RequestOf } from '../params/requests';
import { describe, ResultCodes } from '../result-codes';
import { decide, type SimulatedInstrument } from '../simulators/acquirer';
import { echoOf } from './echo';
import { newId, newPaymentNdc, newShortId } from './ids';
import type { Channel, Payment, StoredCard, TestMode } from './model';
import type { Clock, Store } from './ports';

export interface EngineDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Encrypts a card number for storage (server/security/vault). */
  readonly seal: (plain: string) => string;
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

function instrumentOf(request: PaymentRequest): SimulatedInstrument {
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

function storedCard(request: PaymentRequest, seal: EngineDeps['seal']): StoredCard | undefined {
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

export async function createPayment(
  deps: EngineDeps,
  caller: Caller,
  request: PaymentRequest,
): Promise<Outcome> {
  // validate: the money (formats and rules were checked by the parameter model)
  const amount = readAmount(request.amount ?? '', request.currency ?? '');
  if (typeof amount !== 'number') return { kind: 'invalid', errors: [amount] };

  // decide: test channels simulate (INTERNAL) or forward (EXTERNAL); live channels need an acquirer
  const now = deps.clock.now();
  const testMode: TestMode | undefined =
    caller.channel.mode === 'TEST' ? ((request.testMode as TestMode | undefined) ?? 'INTERNAL') : undefined;
  let code: string;
  let result: Record<string, string> = {};
  let resultDetails: Record<string, string> = {};
  if (testMode === 'INTERNAL') {
    const decision = decide(
      {
        instrument: instrumentOf(request),
        ...(request.customParameters === undefined ? {} : { customParameters: request.customParameters }),
        billingSent: request.billing !== undefined,
      },
      now,
    );
    code = decision.code;
    result = {
      ...(decision.avsResponse === undefined ? {} : { avsResponse: decision.avsResponse }),
      ...(decision.cvvResponse === undefined ? {} : { cvvResponse: decision.cvvResponse }),
    };
    resultDetails = { AcquirerResponse: decision.acquirerResponse, clearingInstituteName: 'Simulator' };
  } else {
    // No connector and no acquirer is configured for this channel: refused, never simulated.
    code = ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD;
  }

  // record
  const shortId = newShortId();
  const echo = echoOf(request);
  const card = storedCard(request, deps.seal);
  const payment: Payment = {
    id: newId(),
    merchantId: caller.merchantId,
    channelId: caller.channel.id,
    paymentType: request.paymentType ?? 'DB',
    ...(request.paymentBrand === undefined ? {} : { paymentBrand: request.paymentBrand }),
    amount,
    ...(request.currency === undefined ? {} : { currency: request.currency }),
    resultCode: code,
    resultDescription: describe(code) ?? '',
    ...(request.merchantTransactionId === undefined
      ? {}
      : { merchantTransactionId: request.merchantTransactionId }),
    shortId,
    descriptor: request.descriptor ?? `${shortId} ${caller.channel.name}`,
    ndc: newPaymentNdc(caller.channel.id),
    ...(testMode === undefined ? {} : { testMode }),
    ...(card === undefined ? {} : { card }),
    details: {
      ...echo,
      ...(Object.keys(result).length === 0 ? {} : { result }),
      ...(Object.keys(resultDetails).length === 0 ? {} : { resultDetails }),
      risk: { score: '0' },
    },
    createdAt: now,
  };
  await deps.store.insertPayment(payment);
  return { kind: 'payment', payment };
}
