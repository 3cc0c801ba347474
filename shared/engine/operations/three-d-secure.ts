/**
 * Stand-alone 3-D Secure (POST /v1/threeDSecure; GET /v1/threeDSecure/{id} reads it): the card is
 * authenticated and nothing is paid. The spec's service "performs 3-D Secure authentication", and
 * the family keeps such a request as a transaction of its own type, `3D` ("stand-alone 3-D
 * Secure", facts §2.1; the spec's query paymentTypes list it): it is recorded as one, so it is
 * durable before the answer, readable by id, found by the Query API and told in notifications
 * like the merchant's other transactions, and it is never settled or referenced (no money moves).
 *
 * Pipeline as initial-payment.ts: validate (money, brand and card) → who authenticates (only the
 * simulator of test mode INTERNAL has an access control server: connectors, so live and
 * EXTERNAL, are refused with 600.200.201) → the access control server (steps/three-d-secure.ts
 * authenticateCard) → record: at once (frictionless, failed, not enrolled) or pending with the
 * challenge session of steps/asynchronous.ts, the same challenge page (or app exchange) and end
 * as a payment's → answer.
 *
 * The result is used by a later payment as the spec shows: its threeDSecure.* values (eci,
 * verificationId, authenticationStatus, dsTransactionId, version) sent with the payment are an
 * external authentication's, passed on to the acquirer without a second authentication.
 */

import type { Minor } from '../../money';
import type { RequestOf } from '../../params/requests';
import { ResultCodes } from '../../result-codes';
import { echoOf } from '../answers/echo';
import { readMoney } from '../core/amounts';
import type { Caller, EngineDeps, Outcome, PaymentContext } from '../core/deps';
import { invalid } from '../core/failure';
import { newId } from '../core/ids';
import { storedCard } from '../core/instruments';
import type { Payment } from '../core/model';
import type { Processor } from '../core/ports';
import { processorFor, testModeOf } from '../core/processor';
import { type PaymentFacts, paymentRecord } from '../core/record';
import { inBrowser, sessionKindOf, startPending } from '../steps/asynchronous';
import { checkPaymentMethod } from '../steps/payment-method';
import { pendWithProcessor, returnAddressOf, sendsShopperToProcessor } from '../steps/processor-pending';
import { recordPayment } from '../steps/record';
import { AUTHENTICATION_PAYMENT_TYPE, type Authentication, authenticateCard } from '../steps/three-d-secure';

export { AUTHENTICATION_PAYMENT_TYPE };

/** Where the merchant reads an authentication; the shopper's return after a challenge carries it. */
export const authenticationPath = (id: string): string => `/v1/threeDSecure/${id}`;

/** facts §6.1: the family's simulator answers a card it has no 3-D Secure 2 data for with this. */
const NOT_ENROLLED = '000.400.109';

type AuthenticationRequest = RequestOf<'threeDSecure'>;

export async function authenticateStandalone(
  deps: EngineDeps,
  caller: Caller,
  request: AuthenticationRequest,
  context: Pick<PaymentContext, 'baseUrl'> = {},
): Promise<Outcome> {
  // validate: the money, and a brand the gateway knows and the channel accepts, with its card
  const money = readMoney(request);
  if (money.kind === 'invalid') return money;
  // required by the request kind
  const brand = request.paymentBrand ?? '';
  const method = checkPaymentMethod(brand, request, false, caller.channel);
  if (method.kind === 'invalid') return method;

  // decide who authenticates: the simulator's access control server, the connector's processor
  const processor = processorFor(deps.processors, caller.channel, request.testMode);
  if (method.kind !== 'refused' && processor.authenticate !== undefined)
    return byTheProcessor(deps, caller, request, money.amount, processor.authenticate, context);
  const acs = processor.accessControlServer;
  const refused =
    method.kind === 'refused'
      ? method.code
      : acs === undefined
        ? ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD
        : undefined;
  const step: Authentication =
    refused !== undefined || acs === undefined ? { kind: 'none' } : authenticateCard(acs, brand, request);
  if (step.kind === 'invalid') return step;
  if (inBrowser(step) && request.shopperResultUrl === undefined) {
    return invalid([
      {
        name: 'shopperResultUrl',
        value: null,
        message:
          'is required: the card issuer asks the shopper to authenticate (3-D Secure challenge), and the shopper returns there',
      },
    ]);
  }

  // record
  const now = deps.clock.now();
  const echo = echoOf(request);
  const facts: Omit<PaymentFacts, 'code' | 'details'> = {
    paymentType: AUTHENTICATION_PAYMENT_TYPE,
    paymentBrand: brand,
    amount: money.amount,
    currency: request.currency,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    testMode: testModeOf(caller.channel, request.testMode),
    // refused before anything was decided: recorded without its account data, as a payment is
    card: refused === undefined ? storedCard(request, deps.seal) : undefined,
  };
  if (step.kind === 'challenge' || step.kind === 'decoupled') {
    const payment = paymentRecord(caller, now, { ...facts, code: ResultCodes.PENDING, details: echo });
    return { kind: 'payment', payment: await pend(deps, payment, step, request, context) };
  }
  const { threeDSecure, ...ended } = endedAtOnce(step, refused);
  const echoed = (echo.threeDSecure ?? {}) as Record<string, unknown>;
  const payment = paymentRecord(caller, now, {
    ...facts,
    ...ended,
    details: {
      ...echo,
      ...(threeDSecure === undefined ? {} : { threeDSecure: { ...echoed, ...threeDSecure } }),
    },
  });
  await recordPayment(deps, payment);
  return { kind: 'payment', payment };
}

/**
 * The connector's processor authenticates (its own stand-alone 3-D Secure): its results at once,
 * or pending on its challenge, the shopper sent there by the gateway's redirect and back to the
 * gateway's return address (steps/processor-pending.ts), where its verdict is read.
 */
async function byTheProcessor(
  deps: EngineDeps,
  caller: Caller,
  request: AuthenticationRequest,
  amount: Minor | null,
  authenticate: NonNullable<Processor['authenticate']>,
  context: Pick<PaymentContext, 'baseUrl'>,
): Promise<Outcome> {
  const now = deps.clock.now();
  const id = newId();
  const decision = await authenticate({
    channel: caller.channel,
    request,
    decide: { instrument: { kind: 'other' } },
    now,
    paymentId: id,
    ...(returnAddressOf(context, id) === undefined ? {} : { returnUrl: returnAddressOf(context, id) }),
  });
  const echo = echoOf(request);
  const facts: PaymentFacts = {
    id,
    paymentType: AUTHENTICATION_PAYMENT_TYPE,
    paymentBrand: request.paymentBrand,
    amount,
    currency: request.currency,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    testMode: decision.testMode,
    card: storedCard(request, deps.seal),
    code: decision.code,
    resultDetails: decision.resultDetails,
    details:
      decision.threeDSecure === undefined
        ? echo
        : { ...echo, threeDSecure: { ...(echo.threeDSecure as object), ...decision.threeDSecure } },
  };
  if (sendsShopperToProcessor(decision)) {
    const payment = paymentRecord(caller, now, { ...facts, code: ResultCodes.PENDING });
    const pending = await pendWithProcessor(
      deps,
      payment,
      decision,
      {
        afterSuccess: {},
        ...(request.shopperResultUrl === undefined ? {} : { shopperResultUrl: request.shopperResultUrl }),
      },
      { ...context, resourcePath: authenticationPath(id) },
    );
    return { kind: 'payment', payment: pending };
  }
  const payment = paymentRecord(caller, now, facts);
  await recordPayment(deps, payment);
  return { kind: 'payment', payment };
}

/**
 * The shopper answers first (the challenge page, the app's SDK, or the banking app): the same
 * pending session as a payment's challenge, with nothing to authorize once authenticated (no
 * acquirer's verdict in the plan) and this authentication's path for the shopper's return.
 */
function pend(
  deps: EngineDeps,
  payment: Payment,
  step: Extract<Authentication, { kind: 'challenge' | 'decoupled' }>,
  request: AuthenticationRequest,
  context: Pick<PaymentContext, 'baseUrl'>,
): Promise<Payment> {
  return startPending(deps, payment, {
    kind: sessionKindOf(step),
    plan: {
      brand: payment.paymentBrand ?? '',
      afterSuccess: {},
      threeDSecure: { ids: step.ids, mandated: step.mandated, nonPayment: step.nonPayment },
      resourcePath: authenticationPath(payment.id),
    },
    ...(request.shopperResultUrl === undefined ? {} : { returnUrl: request.shopperResultUrl }),
    ...(context.baseUrl === undefined ? {} : { baseUrl: context.baseUrl }),
    ...(request.customer?.browser?.challengeWindow === undefined
      ? {}
      : { challengeWindow: request.customer.browser.challengeWindow }),
  });
}

/** The result of an authentication that ended at once, with the access control server's values. */
function endedAtOnce(
  step: Authentication,
  refused: string | undefined,
): Pick<PaymentFacts, 'code' | 'resultDetails'> & { readonly threeDSecure?: Record<string, unknown> } {
  if (refused !== undefined) return { code: refused };
  switch (step.kind) {
    case 'authenticated':
      return {
        code: ResultCodes.SUCCESS_INTERNAL,
        resultDetails: { clearingInstituteName: 'Simulator' },
        threeDSecure: { ...step.result },
      };
    case 'failed':
      return { code: step.code, ...(step.result === undefined ? {} : { threeDSecure: { ...step.result } }) };
    default:
      // not enrolled: the access control server has nothing for this card
      return { code: NOT_ENROLLED };
  }
}
