/**
 * The adyen kind: a connector to a merchant account on Adyen's Checkout API v71, the kit's
 * contract over the request transformer (request.ts), the client (client.ts), the response
 * transformer (response.ts) and the notifications' verification (notifications.ts).
 *
 * - PA and DB: `/payments` (PA with manual capture, DB captured at once), the gateway's payment
 *   id as `reference`; a redirect brand with its Adyen type; 3-D Secure by Adyen's redirect flow
 *   (RedirectShopper with its `action`, the shopper back at the gateway's return address, then
 *   `/payments/details` in `finish`).
 * - CP, RF: `/payments/{psp}/captures|refunds`; RV: `/cancels` of an authorisation, `/reversals`
 *   of a captured payment. Adyen answers them `received`: the mode's success at once, their
 *   outcome in a CAPTURE/REFUND/CANCELLATION notification (verifyNotification).
 * - RG: a zero-amount `/payments` storing the card (`storePaymentMethod`, the merchant's stable
 *   shopper as `shopperReference`: request.ts shopperReferenceOf); its registration id is
 *   `<storedPaymentMethodId>:<shopperReference>`, both of which a payment with it needs;
 *   merchant-initiated repeats go as `ContAuth`, those of a card stored elsewhere as the card with
 *   its network transaction id (request.ts).
 * - Not supported, said so: CD (Adyen pays out through its Payouts API, not Checkout), RB (Adyen
 *   repeats only stored cards: a registration), `inquire` (the Checkout API has no search by
 *   reference; an uncertain payment is told by Adyen's AUTHORISATION notification, whose
 *   merchantReference is the gateway's id), `settle` (Adyen's settlement details are a report of
 *   the Customer Area, not of this API), stand-alone `authenticate` (Adyen authenticates within
 *   the payment). `inquireRegistration` neither: an uncertain registration is ended by the
 *   AUTHORISATION notification of its zero-amount check or the RECURRING_CONTRACT of its stored card
 *   (notifications.ts), merchantReference the gateway's id of it.
 */
import { randomUUID } from 'node:crypto';
import { brandFlow } from '../../../shared/brands';
import type { AdyenConnectorSettings } from '../../../shared/engine/core/model';
import type { RegisterOrder } from '../../../shared/engine/core/ports';
import { connectorIdOf } from '../../../shared/engine/core/processor';
import { ResultCodes } from '../../../shared/result-codes';
import {
  type Answer,
  type ConnectorContract,
  type InitialOrder,
  notSupported,
  type ReferencedOrder,
  type StoredRegistrationOrder,
} from '../kit/contract';
import { type AdyenClientOptions, type AdyenReply, adyenClient, type Fetch } from './client';
import { verifyAdyenNotification } from './notifications';
import {
  ADYEN_METHODS,
  ADYEN_PATHS,
  type AdyenAmount,
  adyenAmount,
  cardMethod,
  detailsBody,
  field,
  type Json,
  modificationBody,
  type PaymentParts,
  paymentBody,
  shopperReferenceOf,
} from './request';
import {
  type AdyenAnswer,
  errorAnswer,
  modificationAnswer,
  paymentAnswer,
  registrationIdOf,
} from './response';

/**
 * Adyen requires a `returnUrl` on every payment. A payment no shopper is redirected in (a
 * registration's zero-amount check, a merchant-initiated repeat) without a return address of the
 * gateway's or the merchant's sends this reserved, unreachable one (RFC 2606 `.invalid`).
 */
const NO_SHOPPER_RETURN = 'https://return.invalid/';

/** The card brands Adyen processes here, and the catalogue's redirect brands it takes. */
const ADYEN_BRANDS = [
  'VISA',
  'MASTER',
  'AMEX',
  'MAESTRO',
  'DINERS',
  'DISCOVER',
  'JCB',
  ...Object.keys(ADYEN_METHODS),
];

/** The answer of a reply the transport left without one: refused (nothing sent) or uncertain. */
function technicalAnswer(reply: Extract<AdyenReply, { technical: unknown }>): AdyenAnswer {
  return reply.technical === 'refused'
    ? { code: ResultCodes.UNDEFINED_CONNECTOR_ERROR, technical: 'refused' }
    : { code: ResultCodes.TIMEOUT_UNCERTAIN, technical: 'uncertain' };
}

const read = (reply: AdyenReply, answer: (json: unknown) => AdyenAnswer): AdyenAnswer => {
  if ('technical' in reply) return technicalAnswer(reply);
  return reply.status >= 200 && reply.status < 300 ? answer(reply.json) : errorAnswer(reply.json);
};

function parseRegistrationId(id: string): { stored: string; shopperReference: string } | undefined {
  const at = id.indexOf(':');
  return at <= 0 ? undefined : { stored: id.slice(0, at), shopperReference: id.slice(at + 1) };
}

/**
 * Adyen's pspReference of the payment an order references: a capture's own id is its
 * modification's, and its payment's is kept beside it (response.ts, `paymentPspReference`).
 */
function paymentPspOf(order: ReferencedOrder): string {
  const details = (order.referenced.details as { resultDetails?: Record<string, string> } | undefined)
    ?.resultDetails;
  return details?.paymentPspReference ?? order.theirId;
}

/** The gateway's id of an order's payment, Adyen's `reference` (a fresh one when the engine gives none). */
const referenceOf = (order: object): string =>
  (order as { readonly paymentId?: string }).paymentId ??
  field((order as { request: object }).request, 'merchantTransactionId') ??
  randomUUID();

/** What a PA or DB sends; undefined when Adyen cannot take it here (nothing is sent then). */
function initialParts(order: InitialOrder, capture: PaymentParts['capture']): PaymentParts | undefined {
  const onFile = order.cardOnFile;
  if (onFile !== undefined) {
    // a repeat of a card stored elsewhere: the card, ContAuth, the scheme's id of its first payment
    const card = cardMethod(order.decide.instrument);
    return card === undefined
      ? undefined
      : {
          reference: referenceOf(order),
          returnUrl: NO_SHOPPER_RETURN,
          paymentMethod: card,
          capture,
          cardOnFile: { networkTxReference: onFile.networkTransactionId, type: onFile.type },
        };
  }
  const brand = field(order.request, 'paymentBrand');
  const redirectBrand = brand !== undefined && brandFlow(brand) === 'redirect';
  const method = redirectBrand ? ADYEN_METHODS[brand] : undefined;
  const returnUrl = order.returnUrl ?? field(order.request, 'shopperResultUrl');
  // A provider's page needs the shopper sent back to the gateway; an unknown method is Adyen's no.
  if (redirectBrand && (method === undefined || returnUrl === undefined)) return undefined;
  const paymentMethod = method === undefined ? cardMethod(order.decide.instrument) : { type: method };
  if (paymentMethod === undefined) return undefined;
  const register = field(order.request, 'createRegistration') === 'true' && method === undefined;
  return {
    reference: referenceOf(order),
    returnUrl: returnUrl ?? NO_SHOPPER_RETURN,
    paymentMethod,
    capture,
    ...(register ? { store: { shopperReference: shopperReferenceOf(order, referenceOf(order)) } } : {}),
  };
}

/** What a payment with a registration sends: its stored card, for its shopper. */
function storedParts(order: StoredRegistrationOrder): PaymentParts | undefined {
  const registration = parseRegistrationId(order.theirRegistrationId);
  if (registration === undefined) return undefined;
  const cvv = order.decide.instrument.kind === 'storedCard' ? order.decide.instrument.cvv : undefined;
  return {
    reference: referenceOf(order),
    returnUrl: field(order.request, 'shopperResultUrl') ?? NO_SHOPPER_RETURN,
    paymentMethod: {
      type: 'scheme',
      storedPaymentMethodId: registration.stored,
      ...(cvv === undefined ? {} : { cvc: cvv }),
    },
    capture: field(order.request, 'paymentType') === 'PA' ? 'manual' : 'immediate',
    stored: { shopperReference: registration.shopperReference },
  };
}

/** What a registration sends: a zero-amount check of the card, stored for a new shopper reference. */
function registrationParts(order: RegisterOrder): PaymentParts | undefined {
  const paymentMethod = cardMethod(order.decide.instrument);
  if (paymentMethod === undefined) return undefined;
  return {
    reference: referenceOf(order),
    returnUrl: field(order.request, 'shopperResultUrl') ?? NO_SHOPPER_RETURN,
    paymentMethod,
    capture: 'immediate',
    store: { shopperReference: shopperReferenceOf(order, referenceOf(order)) },
    zeroAmountIn: field(order.request, 'currency') ?? 'EUR',
  };
}

/** The amount of a modification: the one sent, else the whole referenced payment (in minor units). */
function modificationAmount(order: ReferencedOrder): AdyenAmount | undefined {
  const { amount: whole, currency } = order.referenced;
  return (
    adyenAmount(order.request) ??
    (whole === null || currency === undefined ? undefined : { value: whole, currency })
  );
}

/** The adyen connector of one channel's settings, over `fetch` (the egress-guarded one). */
export function adyenConnector(
  settings: Omit<AdyenConnectorSettings, 'kind'>,
  fetch: Fetch,
  options: AdyenClientOptions = {},
): ConnectorContract {
  const client = adyenClient(settings, fetch, options);
  const account = { merchantAccount: settings.merchantAccount };
  const post = async (path: string, body: Json, key: string, answer: (json: unknown) => AdyenAnswer) =>
    read(await client.post(path, body, key), answer);

  /** A `/payments` request; a stored card is kept as the answer's registrationId. */
  const payments = async (request: object, parts: PaymentParts): Answer => {
    const body = paymentBody(account, request, parts);
    if (body === undefined) return { code: ResultCodes.INVALID_PARAMETER, description: 'amount' };
    const answer = await post(ADYEN_PATHS.payments, body, `${parts.reference}:payment`, paymentAnswer);
    const { storedPaymentMethodId, ...rest } = answer;
    if (parts.store === undefined || storedPaymentMethodId === undefined) return rest;
    return { ...rest, registrationId: registrationIdOf(storedPaymentMethodId, parts.store.shopperReference) };
  };
  const pay =
    (capture: PaymentParts['capture'], operation: 'authorize' | 'debit') => (order: InitialOrder) => {
      const parts = initialParts(order, capture);
      return parts === undefined ? Promise.resolve(notSupported(operation)) : payments(order.request, parts);
    };
  const modify = (path: (psp: string) => string, withAmount: boolean) => (order: ReferencedOrder) => {
    const reference = referenceOf(order);
    // a modification is always of Adyen's payment, also when it references a capture of it
    const body = modificationBody(account, reference, withAmount ? modificationAmount(order) : undefined);
    return post(path(paymentPspOf(order)), body, `${reference}:modification`, modificationAnswer);
  };

  return {
    authorize: pay('manual', 'authorize'),
    debit: pay('immediate', 'debit'),
    credit: async () => notSupported('credit'),
    capture: modify(ADYEN_PATHS.captures, true),
    refund: modify(ADYEN_PATHS.refunds, true),
    // an authorisation is cancelled; a captured payment reversed (Adyen cancels or refunds it)
    reverse: (order) =>
      modify(
        order.referenced.paymentType === 'PA' ? ADYEN_PATHS.cancels : ADYEN_PATHS.reversals,
        false,
      )(order),
    rebill: async () => notSupported('rebill'),
    register: async (order) => {
      const parts = registrationParts(order);
      return parts === undefined ? notSupported('register') : payments(order.request, parts);
    },
    payWithRegistration: async (order) => {
      const parts = storedParts(order);
      return parts === undefined
        ? { code: ResultCodes.REGISTRATION_NOT_FOUND }
        : payments(order.request, parts);
    },
    authenticate: async () => notSupported('authenticate'),
    finish: async ({ payment, parameters }) => {
      const body = detailsBody(parameters);
      // nothing of Adyen's came back (the shopper closed the page): no verdict yet
      if (body === undefined) return { code: ResultCodes.PENDING };
      const key = `${payment.id}:details:${connectorIdOf(payment) ?? ''}`;
      return post(ADYEN_PATHS.details, body, key, paymentAnswer);
    },
    inquire: async () => notSupported('inquire'),
    // no search by reference either: an uncertain registration is ended by Adyen's notification of
    // it (notifications.ts), asked about meanwhile to no avail, and no longer a week on
    inquireRegistration: async () => notSupported('inquireRegistration'),
    settle: async () => notSupported('settle'),
    verifyNotification: async (notification) => verifyAdyenNotification(notification, settings),
    brands: ADYEN_BRANDS,
    takesCardOnFile: true,
  };
}
