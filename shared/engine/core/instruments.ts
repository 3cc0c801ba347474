/**
 * The payment instrument a request carries, seen three ways: what the simulator decides on, what
 * is stored (numbers only sealed, security codes, cryptograms and PINs never), and what of it a
 * response may show beyond the echoed request groups.
 */
import { binOf, last4Of } from '../../brands';
import { INSTRUMENT_GROUPS } from '../../params/catalogue';
import type { RequestOf } from '../../params/requests';
import type { StoredCard } from './model';
import type {
  ProcessorInstrument as SimulatedInstrument,
  ProcessorRequest as SimulatorRequest,
} from './ports';

type PaymentRequest = RequestOf<'payment'>;
type InstrumentFields = 'card' | 'bankAccount' | 'tokenAccount' | 'virtualAccount' | 'giftCard';

/** Encrypts a number for storage (server/security/vault). */
export type Seal = (plain: string) => string;

/** What the simulator decides a request on. */
export function simulationOf(
  request: Pick<PaymentRequest, InstrumentFields | 'paymentBrand' | 'customParameters' | 'billing'>,
): SimulatorRequest {
  return {
    instrument: instrumentOf(request),
    ...(request.customParameters === undefined ? {} : { customParameters: request.customParameters }),
    ...billingOf(request.billing),
  };
}

/** The billing lines address verification compares, when a billing address was sent. */
export function billingOf(
  billing: PaymentRequest['billing'],
): Pick<SimulatorRequest, 'billing'> | Record<string, never> {
  if (billing === undefined) return {};
  return {
    billing: {
      ...(billing.street1 === undefined ? {} : { street1: billing.street1 }),
      ...(billing.postcode === undefined ? {} : { postcode: billing.postcode }),
    },
  };
}

/** The account data a request carries, for the simulator. */
export function instrumentOf(
  request: Pick<PaymentRequest, InstrumentFields | 'paymentBrand'>,
): SimulatedInstrument {
  const brand = request.paymentBrand ?? '';
  const { card, tokenAccount, virtualAccount, giftCard, bankAccount } = request;
  if (card?.number !== undefined) {
    return {
      kind: 'card',
      brand,
      number: card.number,
      expiryMonth: card.expiryMonth ?? '',
      expiryYear: card.expiryYear ?? '',
      ...(card.cvv === undefined ? {} : { cvv: card.cvv }),
      ...(card.holder === undefined ? {} : { holder: card.holder }),
    };
  }
  if (tokenAccount?.number !== undefined) {
    return {
      kind: 'tokenAccount',
      brand,
      number: tokenAccount.number,
      ...(tokenAccount.expiryMonth === undefined ? {} : { expiryMonth: tokenAccount.expiryMonth }),
      ...(tokenAccount.expiryYear === undefined ? {} : { expiryYear: tokenAccount.expiryYear }),
    };
  }
  if (virtualAccount !== undefined) {
    return { kind: 'virtualAccount', brand, accountId: virtualAccount.accountId ?? '' };
  }
  if (giftCard !== undefined) {
    return { kind: 'giftCard', hasNumber: giftCard.number !== undefined, hasPin: giftCard.pin !== undefined };
  }
  if (bankAccount !== undefined) {
    return {
      kind: 'bankAccount',
      ...(bankAccount.iban === undefined ? {} : { iban: bankAccount.iban }),
      ...(bankAccount.holder === undefined ? {} : { holder: bankAccount.holder }),
    };
  }
  // Wallets, redirects, or nothing at all (see sendsInstrument).
  return { kind: 'other' };
}

/**
 * A stored card charged again (a registration, the original of a referenceUuid): its number was
 * checked when it was stored; only a CVV the shopper adds now can be checked.
 */
export function storedCardInstrument(
  brand: string,
  card: StoredCard | undefined,
  cvv: string | undefined,
): SimulatedInstrument {
  if (card === undefined) return { kind: 'other' };
  return {
    kind: 'storedCard',
    brand,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    ...(cvv === undefined ? {} : { cvv }),
  };
}

/**
 * A stored bank account charged again (a SEPA registration): the IBAN storage opened from its
 * sealed form is checked as a new one would be. Undefined when the details hold no bank account.
 */
export function storedBankAccountInstrument(
  details: Readonly<Record<string, unknown>>,
): SimulatedInstrument | undefined {
  const bank = details.bankAccount;
  if (bank === null || typeof bank !== 'object') return undefined;
  const { iban, holder } = bank as Record<string, unknown>;
  return {
    kind: 'bankAccount',
    ...(typeof iban === 'string' ? { iban } : {}),
    ...(typeof holder === 'string' ? { holder } : {}),
  };
}

/** Whether a request carries account data of its own (a referenceUuid may supply it otherwise). */
export function sendsInstrument(request: object): boolean {
  return INSTRUMENT_GROUPS.some((g) => (request as Record<string, unknown>)[g] !== undefined);
}

/**
 * The number to keep, sealed: a card's PAN, or a token account's token. A token is stored like a
 * PAN (and answered as `card.bin`/`card.last4Digits`, see response.ts) because it is one to the
 * scheme: a device PAN that later payments (registrations, referenceUuid) charge again.
 */
export function storedCard(
  request: Partial<Pick<PaymentRequest, 'card' | 'tokenAccount'>>,
  seal: Seal,
): StoredCard | undefined {
  const card = request.card;
  if (card?.number !== undefined) {
    // Two literals, not a spread amid one (V8's slow path, on every card payment).
    const bin = binOf(card.number);
    const last4Digits = last4Of(card.number);
    const expiryMonth = card.expiryMonth ?? '';
    const expiryYear = card.expiryYear ?? '';
    const encryptedNumber = seal(card.number);
    return card.holder === undefined
      ? { bin, last4Digits, expiryMonth, expiryYear, encryptedNumber }
      : { bin, last4Digits, holder: card.holder, expiryMonth, expiryYear, encryptedNumber };
  }
  const token = request.tokenAccount;
  if (token?.number !== undefined) {
    return {
      bin: binOf(token.number),
      last4Digits: last4Of(token.number),
      // A token's expiry is optional; empty means none was sent (the response leaves it out).
      expiryMonth: token.expiryMonth ?? '',
      expiryYear: token.expiryYear ?? '',
      encryptedNumber: seal(token.number),
    };
  }
  return undefined;
}

/**
 * What a response shows of a gift card beyond its echo (which never holds number or PIN, both
 * masked in the catalogue): the last four characters of the number, so the shopper can tell
 * cards apart. Nothing else of the number is kept: no later payment charges a gift card again.
 */
export function giftCardDetails(
  request: Pick<PaymentRequest, 'giftCard'>,
  echoed: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const number = request.giftCard?.number;
  if (number === undefined) return {};
  const echo = (echoed.giftCard ?? {}) as Record<string, unknown>;
  return { giftCard: { ...echo, last4Digits: number.slice(-4) } };
}
