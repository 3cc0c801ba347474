/**
 * The fake's Checkout API, as state and answers (no HTTP here: server.ts carries it): payments,
 * stored cards, the shopper's pages (3-D Secure 2 challenge, a redirect method's provider), the
 * details after the shopper's return, and modifications accepted as `received` whose outcome is
 * told later in a standard notification (notifications.ts), as Adyen does.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ADYEN_TEST_CARDS, refusalOf } from './cards';

type Json = Record<string, unknown>;
export interface Amount {
  readonly value: number;
  readonly currency: string;
}

/** An answer of the Checkout API: its status and body. */
export interface Answer {
  readonly status: number;
  readonly body: Json;
}

/** A notification item the fake will send (notifications.ts signs it). */
export interface PendingNotice {
  readonly eventCode: string;
  readonly success: boolean;
  readonly pspReference: string;
  readonly originalReference?: string;
  readonly merchantReference: string;
  readonly amount: Amount;
  readonly reason?: string;
  /** RECURRING_CONTRACT: the pspReference of the payment that stored the card. */
  readonly originalPsp?: string;
  /** What the item's additionalData tells beside its signature (a stored card's ids). */
  readonly additionalData?: Readonly<Record<string, string>>;
}

interface FakePayment {
  readonly psp: string;
  readonly reference: string;
  readonly amount: Amount;
  readonly manualCapture: boolean;
  state: 'authorised' | 'refused' | 'pending' | 'cancelled';
  captured: number;
  refunded: number;
}

/** A shopper sent to one of the fake's pages, and what they chose there. */
interface ShopperSession {
  readonly kind: 'challenge' | 'provider';
  readonly psp: string;
  readonly returnUrl: string;
  readonly card?: Json;
  readonly store?: { shopperReference: string; storedId: string };
  outcome?: 'approve' | 'decline';
  verdict?: Answer;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A pspReference: 16 characters of Adyen's alphabet. */
export function pspReference(): string {
  return Array.from(randomBytes(16), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** Adyen's ServiceError body. */
export const serviceError = (
  status: number,
  errorCode: string,
  message: string,
  errorType: string,
): Answer => ({
  status,
  body: { status, errorCode, message, errorType, pspReference: pspReference() },
});

export interface CheckoutOptions {
  /** Where the shopper's pages are served (http://127.0.0.1:port). */
  readonly origin: string;
  readonly merchantAccount: string;
  /** A notification to send: the server queues, signs and delivers it. */
  readonly notify: (notice: PendingNotice) => void;
  /**
   * Whether a stored card is told in a RECURRING_CONTRACT notification too (an event Adyen sends
   * only when the merchant enables it in the Customer Area), after its AUTHORISATION.
   */
  readonly recurringContracts?: () => boolean;
}

export function fakeCheckout(options: CheckoutOptions) {
  const payments = new Map<string, FakePayment>();
  const stored = new Map<string, { shopperReference: string; card: Json }>();
  const sessions = new Map<string, ShopperSession>();
  const results = new Map<string, string>();
  let charges = 0;

  const authorised = (payment: FakePayment, extra: Json = {}, card?: Json): Answer => {
    payment.state = 'authorised';
    charges += 1;
    if (!payment.manualCapture) payment.captured = payment.amount.value;
    const brand = ADYEN_TEST_CARDS[String(card?.number ?? '')]?.brand;
    return {
      status: 200,
      body: {
        additionalData: {
          ...(card?.cvc === undefined ? { cvcResult: '6 No CVC/CVV provided' } : { cvcResult: '1 Matches' }),
          avsResult: '4 AVS not supported for this card type',
          authCode: String(100000 + (charges % 899999)),
          fundingSource: 'CREDIT',
          issuerCountry: 'NL',
          networkTxReference: `${Date.now()}${charges}`.slice(-15),
          ...(brand === undefined ? {} : { paymentMethod: brand }),
          ...extra,
        },
        pspReference: payment.psp,
        resultCode: 'Authorised',
        merchantReference: payment.reference,
        amount: payment.amount,
      },
    };
  };

  const refused = (
    payment: FakePayment,
    refusal: { reason: string; code: string; resultCode?: string },
  ): Answer => {
    payment.state = refusal.resultCode === 'Cancelled' ? 'cancelled' : 'refused';
    return {
      status: 200,
      body: {
        pspReference: payment.psp,
        resultCode: refusal.resultCode ?? 'Refused',
        refusalReason: refusal.reason,
        refusalReasonCode: refusal.code,
        merchantReference: payment.reference,
        amount: payment.amount,
      },
    };
  };

  /**
   * A payment's final answer, told in an AUTHORISATION notification too (Adyen sends one for every
   * payment), a card it stored in its additionalData (the tokenization fields, as the answer's),
   * and in a RECURRING_CONTRACT when those are enabled.
   */
  const told = (payment: FakePayment, answer: Answer): Answer => {
    const body = answer.body;
    if (body.resultCode !== 'Authorised' && body.resultCode !== 'Refused') return answer;
    const tokenization = Object.fromEntries(
      Object.entries((body.additionalData ?? {}) as Json).filter(
        (entry): entry is [string, string] =>
          entry[0].startsWith('tokenization.') && typeof entry[1] === 'string',
      ),
    );
    options.notify({
      eventCode: 'AUTHORISATION',
      success: body.resultCode === 'Authorised',
      pspReference: payment.psp,
      merchantReference: payment.reference,
      amount: payment.amount,
      ...(typeof body.refusalReason === 'string' ? { reason: body.refusalReason } : {}),
      ...(Object.keys(tokenization).length === 0 ? {} : { additionalData: tokenization }),
    });
    const storedId = tokenization['tokenization.storedPaymentMethodId'];
    const shopperReference = tokenization['tokenization.shopperReference'];
    if (options.recurringContracts?.() === true && storedId !== undefined && shopperReference !== undefined)
      options.notify({
        eventCode: 'RECURRING_CONTRACT',
        success: true,
        pspReference: storedId,
        originalPsp: payment.psp,
        merchantReference: payment.reference,
        amount: payment.amount,
        additionalData: { shopperReference },
      });
    return answer;
  };

  /** The shopper sent to a page of the fake: RedirectShopper with its action. */
  const redirect = (payment: FakePayment, session: Omit<ShopperSession, 'psp'>, type: string): Answer => {
    const id = pspReference();
    sessions.set(id, { ...session, psp: payment.psp });
    payment.state = 'pending';
    return {
      status: 200,
      body: {
        pspReference: payment.psp,
        resultCode: 'RedirectShopper',
        merchantReference: payment.reference,
        action: {
          paymentMethodType: type,
          url: `${options.origin}/pages/${session.kind}?session=${id}`,
          method: 'GET',
          type: 'redirect',
        },
      },
    };
  };

  const storeFor = (body: Json): { shopperReference: string; storedId: string } | undefined =>
    body.storePaymentMethod === true && typeof body.shopperReference === 'string'
      ? { shopperReference: body.shopperReference, storedId: pspReference() }
      : undefined;

  const tokenized = (store: { shopperReference: string; storedId: string } | undefined, card: Json): Json => {
    if (store === undefined) return {};
    stored.set(store.storedId, { shopperReference: store.shopperReference, card });
    return {
      'tokenization.shopperReference': store.shopperReference,
      'tokenization.storedPaymentMethodId': store.storedId,
      'tokenization.store.operationType': 'created',
    };
  };

  /** A card payment: a stored card, a test card's refusal, a challenge, or authorised. */
  const card = (payment: FakePayment, body: Json, method: Json): Answer => {
    let card = method;
    if (typeof method.storedPaymentMethodId === 'string') {
      const found = stored.get(method.storedPaymentMethodId);
      if (found === undefined || found.shopperReference !== body.shopperReference)
        return serviceError(422, '800', 'Contract not found', 'validation');
      card = { ...found.card, ...(method.cvc === undefined ? {} : { cvc: method.cvc }) };
    }
    const refusal = refusalOf(card as never);
    if (refusal !== undefined) return told(payment, refused(payment, refusal));
    const store = storeFor(body);
    const challenge = ADYEN_TEST_CARDS[String(card.number)]?.challenge === true;
    // a merchant-initiated repeat (ContAuth) has no shopper to authenticate
    if (challenge && body.shopperInteraction !== 'ContAuth')
      return redirect(
        payment,
        { kind: 'challenge', returnUrl: String(body.returnUrl), card, ...(store ? { store } : {}) },
        'scheme',
      );
    const frictionless =
      ADYEN_TEST_CARDS[String(card.number)]?.frictionless === true && body.shopperInteraction !== 'ContAuth';
    return told(
      payment,
      authorised(
        payment,
        { ...(frictionless ? threeDSecureResults() : {}), ...tokenized(store, card) },
        card,
      ),
    );
  };

  /** The verdict of a shopper's session, decided once (when the shopper chose): later asks get the same. */
  const verdict = (session: ShopperSession, payment: FakePayment): Answer => {
    if (session.verdict !== undefined) return session.verdict;
    const decided =
      session.outcome === 'decline'
        ? session.kind === 'challenge'
          ? refused(payment, { reason: '3D Not Authenticated', code: '11' })
          : refused(payment, { reason: 'Shopper Cancelled', code: '16', resultCode: 'Cancelled' })
        : session.kind === 'provider'
          ? authorised(payment)
          : authorised(
              payment,
              { ...threeDSecureResults(), ...tokenized(session.store, session.card ?? {}) },
              session.card,
            );
    session.verdict = told(payment, decided);
    return session.verdict;
  };

  return {
    charges: () => charges,
    payments: () => [...payments.values()],

    /** POST /payments. */
    pay(body: Json): Answer {
      if (body.merchantAccount !== options.merchantAccount)
        return serviceError(403, '901', 'Invalid Merchant Account', 'security');
      if (typeof body.returnUrl !== 'string')
        return serviceError(422, '14_030', 'Return URL is missing.', 'validation');
      const amount = body.amount as Amount;
      const payment: FakePayment = {
        psp: pspReference(),
        reference: String(body.reference),
        amount,
        manualCapture: (body.additionalData as Json | undefined)?.manualCapture === 'true',
        state: 'pending',
        captured: 0,
        refunded: 0,
      };
      payments.set(payment.psp, payment);
      const method = (body.paymentMethod ?? {}) as Json;
      if (method.type === 'scheme') return card(payment, body, method);
      return redirect(payment, { kind: 'provider', returnUrl: String(body.returnUrl) }, String(method.type));
    },

    /** The shopper's choice on a page; the address they go back to with their `redirectResult`. */
    choose(sessionId: string, outcome: 'approve' | 'decline'): string | undefined {
      const session = sessions.get(sessionId);
      if (session === undefined) return undefined;
      session.outcome = outcome;
      // a provider tells Adyen at once, whether the shopper comes back or not (AUTHORISATION)
      const payment = payments.get(session.psp);
      if (session.kind === 'provider' && payment !== undefined) verdict(session, payment);
      const result = `${pspReference()}${pspReference()}`;
      results.set(result, sessionId);
      const separator = session.returnUrl.includes('?') ? '&' : '?';
      return `${session.returnUrl}${separator}redirectResult=${encodeURIComponent(result)}`;
    },
    session: (id: string) => sessions.get(id),

    /** POST /payments/details. */
    details(body: Json): Answer {
      const result = String((body.details as Json | undefined)?.redirectResult ?? '');
      const session = sessions.get(results.get(result) ?? '');
      const payment = session === undefined ? undefined : payments.get(session.psp);
      if (session === undefined || payment === undefined || session.outcome === undefined)
        return serviceError(422, '14_018', 'Invalid payload provided', 'validation');
      return verdict(session, payment);
    },

    /** POST /payments/{psp}/captures|refunds|cancels|reversals: received, told later. */
    modify(kind: 'captures' | 'refunds' | 'cancels' | 'reversals', psp: string, body: Json): Answer {
      if (body.merchantAccount !== options.merchantAccount)
        return serviceError(403, '901', 'Invalid Merchant Account', 'security');
      const payment = payments.get(psp);
      if (payment === undefined || payment.state !== 'authorised')
        return serviceError(422, '167', 'Original pspReference required for this operation', 'validation');
      const amount = (body.amount as Amount | undefined) ?? payment.amount;
      const own = pspReference();
      const outcome = settle(payment, kind, amount.value);
      options.notify({
        eventCode: EVENT_CODES[kind],
        success: outcome === undefined,
        pspReference: own,
        originalReference: psp,
        merchantReference: String(body.reference ?? ''),
        amount,
        ...(outcome === undefined ? {} : { reason: outcome }),
      });
      return {
        status: 201,
        body: {
          merchantAccount: options.merchantAccount,
          paymentPspReference: psp,
          pspReference: own,
          ...(body.reference === undefined ? {} : { reference: body.reference }),
          status: 'received',
          ...(kind === 'captures' || kind === 'refunds' ? { amount } : {}),
        },
      };
    },
  };
}

/** An authenticated payment's 3-D Secure 2 results, as Adyen's additionalData answers them. */
function threeDSecureResults(): Json {
  return {
    threeDAuthenticated: 'true',
    threeDOffered: 'true',
    threeDAuthenticatedResponse: 'Y',
    eci: '05',
    cavv: randomBytes(20).toString('base64'),
    dsTransID: randomUUID(),
    threeDSVersion: '2.2.0',
    liabilityShift: 'true',
  };
}

const EVENT_CODES = {
  captures: 'CAPTURE',
  refunds: 'REFUND',
  cancels: 'CANCELLATION',
  reversals: 'CANCEL_OR_REFUND',
} as const;

/** A modification applied to the payment; the reason it failed, or undefined when it was done. */
function settle(payment: FakePayment, kind: keyof typeof EVENT_CODES, value: number): string | undefined {
  switch (kind) {
    case 'captures':
      if (payment.captured + value > payment.amount.value)
        return 'Insufficient in-process funds on paymentPspReference';
      payment.captured += value;
      return undefined;
    case 'refunds':
      if (payment.refunded + value > payment.captured)
        return 'Insufficient in-process funds on paymentPspReference';
      payment.refunded += value;
      return undefined;
    case 'cancels':
      if (payment.captured > 0) return 'Payment is already captured';
      payment.state = 'cancelled';
      return undefined;
    case 'reversals':
      payment.state = 'cancelled';
      return undefined;
  }
}
