/**
 * The stripe kind's payments: PA and DB (a PaymentIntent created and confirmed with the card,
 * `capture_method` manual or automatic, a customer along when the payment registers the card),
 * registrations (a customer and a SetupIntent) and payments with them, repeats of a card stored
 * at another connector (off-session, its network transaction id). Each POST carries the
 * idempotency key of the gateway's payment and the operation.
 */
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { ProcessorInstrument } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import {
  type Answer,
  type ConnectorAnswer,
  type ConnectorContract,
  type InitialOrder,
  notSupported,
} from '../kit/contract';
import { call, idempotencyKey } from './client';
import { redirectIntentParams, redirectMethodData, redirectMethodOf } from './redirects';
import {
  AmountError,
  cardData,
  cardOnFileParams,
  customerParams,
  intentParams,
  registers,
  registrationIdOf,
  setupParams,
  storedIntentParams,
  storedOf,
} from './request';
import { intentAnswer, setupAnswer } from './response';

/** The optional members of the engine's orders a connector reads when the engine gives them. */
interface OrderExtras {
  /** The gateway's id of the payment (its metadata and idempotency keys). */
  readonly paymentId?: string;
  /** The gateway's return address, for Stripe's 3-D Secure page to send the shopper back to. */
  readonly returnUrl?: string;
}
export const extrasOf = (order: object) => order as OrderExtras;

/** The gateway's id of what an order makes; a fresh one when the engine does not say (the SDK's retries still share it). */
export const gatewayIdOf = (order: object): string => extrasOf(order).paymentId ?? randomUUID();

/** The registration a payment made along (createRegistration=true): its customer and card. */
function registrationAlong(intent: Stripe.PaymentIntent): string | undefined {
  const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  const method =
    typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
  return customer === undefined || method === undefined ? undefined : registrationIdOf(customer, method);
}

/** The answer of a PaymentIntent made, with the registration it made along when it did. */
function madeAnswer(intent: Stripe.PaymentIntent, registering: boolean): ConnectorAnswer {
  const answer = intentAnswer(intent);
  return registering ? withRegistrationAlong(answer, intent) : answer;
}

/**
 * `answer` of a PaymentIntent that succeeded with the card it set up for later
 * (`setup_future_usage`: the payment registered it along, for the customer of the gateway's it
 * was made with) as its registrationId. Not only the PaymentIntent's own answer tells it: a
 * payment whose answer was lost is ended by a read of it (the inquiry, modifications.ts read) or
 * by Stripe's event of it (notifications.ts), and each keeps that registration.
 */
export function withRegistrationAlong(
  answer: ConnectorAnswer,
  intent: Stripe.PaymentIntent,
): ConnectorAnswer {
  const registrationId = intent.setup_future_usage ? registrationAlong(intent) : undefined;
  return registrationId === undefined || answer.code !== ResultCodes.SUCCESS_LIVE
    ? answer
    : { ...answer, registrationId };
}

/** An amount Stripe cannot take (a currency without ISO minor units): refused before anything is sent. */
export const invalidAmount = (error: unknown): ConnectorAnswer => {
  if (!(error instanceof AmountError)) throw error;
  return { code: ResultCodes.INVALID_PARAMETER, description: error.message };
};

/** PA and DB: a PaymentIntent created and confirmed with the card, or DB with a bank redirect. */
export const pay =
  (stripe: Stripe, capture: 'manual' | 'automatic', operation: 'authorize' | 'debit') =>
  async (order: InitialOrder): Answer => {
    const method = redirectMethodOf(order.request);
    if (method !== undefined) return byRedirect(stripe, order, capture, operation, method);
    const card = cardData(order.decide.instrument as ProcessorInstrument);
    // a linked payment without a card, a redirect or bank method: nothing Stripe's card API takes
    if (card === undefined) return notSupported(operation);
    const gatewayId = gatewayIdOf(order);
    if (order.cardOnFile !== undefined) return cardOnFile(stripe, order, capture, operation, card);
    const { returnUrl } = extrasOf(order);
    const registering = registers(order.request);
    return call(operation, async () => {
      try {
        const customer = registering
          ? (
              await stripe.customers.create(customerParams(order.request, gatewayId), {
                idempotencyKey: idempotencyKey(gatewayId, 'customer'),
              })
            ).id
          : undefined;
        const authenticate = order.channel?.settings?.threeDSecure === true;
        const params = intentParams(
          {
            request: order.request,
            gatewayId,
            capture,
            authenticate,
            ...(returnUrl === undefined ? {} : { returnUrl }),
          },
          card,
          customer,
        );
        const intent = await stripe.paymentIntents.create(params, {
          idempotencyKey: idempotencyKey(gatewayId, operation),
        });
        return madeAnswer(intent, registering);
      } catch (error) {
        return invalidAmount(error);
      }
    });
  };

/**
 * A bank redirect (redirects.ts): DB only (Stripe captures these at once, so a PA would be a
 * capture the merchant never asked for), pending with the bank's page; without the gateway's
 * return address there is nowhere to send the shopper back, so nothing is sent.
 */
function byRedirect(
  stripe: Stripe,
  order: InitialOrder,
  capture: 'manual' | 'automatic',
  operation: 'authorize' | 'debit',
  method: NonNullable<ReturnType<typeof redirectMethodOf>>,
): Answer {
  const { returnUrl } = extrasOf(order);
  if (capture === 'manual' || returnUrl === undefined) return Promise.resolve(notSupported(operation));
  const made = redirectMethodData(method, order.request);
  if ('code' in made) return Promise.resolve({ code: made.code });
  const gatewayId = gatewayIdOf(order);
  return createIntent(stripe, operation, gatewayId, () =>
    redirectIntentParams({ request: order.request, gatewayId, capture, returnUrl }, made.data),
  );
}

/** A repeat of a card stored at another connector: off-session, with the scheme's network id. */
function cardOnFile(
  stripe: Stripe,
  order: InitialOrder,
  capture: 'manual' | 'automatic',
  operation: 'authorize' | 'debit',
  card: Stripe.PaymentIntentCreateParams.PaymentMethodData,
): Answer {
  const gatewayId = gatewayIdOf(order);
  const networkId = order.cardOnFile?.networkTransactionId ?? '';
  return createIntent(stripe, operation, gatewayId, () =>
    cardOnFileParams({ request: order.request, gatewayId, capture }, card, networkId),
  );
}

/**
 * A PaymentIntent created (and confirmed) under the gateway's idempotency key of the operation,
 * answered as its state; parameters the request's amount cannot make (`params` throws) refused.
 */
function createIntent(
  stripe: Stripe,
  operation: 'authorize' | 'debit',
  gatewayId: string,
  params: () => Stripe.PaymentIntentCreateParams,
): Answer {
  return call(operation, async () => {
    try {
      const made = params();
      return intentAnswer(
        await stripe.paymentIntents.create(made, { idempotencyKey: idempotencyKey(gatewayId, operation) }),
      );
    } catch (error) {
      return invalidAmount(error);
    }
  });
}

/** RG: a customer, and the card set up with it for payments without the shopper (a SetupIntent). */
export const register =
  (stripe: Stripe): ConnectorContract['register'] =>
  async (order) => {
    const card = cardData(order.decide.instrument as ProcessorInstrument);
    if (card === undefined) return notSupported('register');
    const gatewayId = gatewayIdOf(order);
    const { returnUrl } = extrasOf(order);
    return call('register', async () => {
      const customer = await stripe.customers.create(customerParams(order.request, gatewayId), {
        idempotencyKey: idempotencyKey(gatewayId, 'customer'),
      });
      const setup = await stripe.setupIntents.create(setupParams(customer.id, card, gatewayId, returnUrl), {
        idempotencyKey: idempotencyKey(gatewayId, 'register'),
      });
      const method =
        typeof setup.payment_method === 'string' ? setup.payment_method : setup.payment_method?.id;
      return setupAnswer(setup, method === undefined ? undefined : registrationIdOf(customer.id, method));
    });
  };

/** A payment with a registration: the customer and its card; off-session when the merchant initiates it. */
export const payWithRegistration =
  (stripe: Stripe): ConnectorContract['payWithRegistration'] =>
  async (order) => {
    const stored = storedOf(order.theirRegistrationId);
    if (stored === undefined) return { code: ResultCodes.REGISTRATION_NOT_FOUND };
    const gatewayId = gatewayIdOf(order);
    const { returnUrl } = extrasOf(order);
    const paymentType = (order.request as { readonly paymentType?: string }).paymentType;
    const capture = paymentType === 'PA' ? 'manual' : 'automatic';
    return call('payWithRegistration', async () => {
      try {
        const params = storedIntentParams(
          { request: order.request, gatewayId, capture, ...(returnUrl === undefined ? {} : { returnUrl }) },
          stored,
        );
        return intentAnswer(
          await stripe.paymentIntents.create(params, {
            idempotencyKey: idempotencyKey(gatewayId, 'payWithRegistration'),
          }),
        );
      } catch (error) {
        return invalidAmount(error);
      }
    });
  };
