/**
 * An initial payment (POST /v1/payments), as a pipeline: the request arrives validated; the
 * engine reads its money, finds the transaction a referenceUuid links it to, picks who decides
 * (simulator or connector), decides, records the payment durably, and hands back the record to
 * answer.
 */

import type { RequestOf } from '../../params/requests';
import { isSuccess, ResultCodes } from '../../result-codes';
import { echoOf } from '../answers/echo';
import { merchantBankAccount } from '../answers/response';
import { type Money, readMoney } from '../core/amounts';
import type { Caller, EngineDeps, Outcome, PaymentContext } from '../core/deps';
import { type Checked, invalid } from '../core/failure';
import { newId } from '../core/ids';
import {
  giftCardDetails,
  sendsInstrument,
  simulationOf,
  storedCard,
  storedCardInstrument,
} from '../core/instruments';
import type { Payment } from '../core/model';
import type { Decision, Processor, RedirectMethod } from '../core/ports';
import {
  CONNECTOR_REGISTRATION_ID,
  connectorIdOf,
  processorFor,
  testModeOf,
  withProcessorDetails,
} from '../core/processor';
import { type PaymentFacts, paymentRecord } from '../core/record';
import { afterSuccessOf, withAfterSuccess } from '../steps/after-success';
import { inBrowser, sessionKindOf, startPending } from '../steps/asynchronous';
import { linkedPayment, linkRefusal } from '../steps/linked';
import { checkPaymentMethod } from '../steps/payment-method';
import {
  atProcessorsProvider,
  pendWithProcessor,
  returnAddressOf,
  sendsShopperToProcessor,
} from '../steps/processor-pending';
import { recordPayment, recordRegistration } from '../steps/record';
import {
  isStandaloneRisk,
  type RiskStep,
  type RiskSubject,
  riskDecision,
  riskDetails,
  screenRisk,
  standaloneRisk,
} from '../steps/risk-check';
import { externalAuthenticationErrors, returnUrlErrors } from '../steps/shopper-errors';
import { type Authentication, authenticationOf } from '../steps/three-d-secure';
import { openWalletToken } from '../steps/wallets';

export { type Money, readAmount, readMoney } from '../core/amounts';
export type { Caller, EngineDeps, Outcome, PaymentContext } from '../core/deps';

type PaymentRequest = RequestOf<'payment'>;

export type { Decision } from '../core/ports';
export { testModeOf } from '../core/processor';

export async function createPayment(
  deps: EngineDeps,
  caller: Caller,
  sent: PaymentRequest,
  context: PaymentContext = {},
): Promise<Outcome> {
  // validate: a wallet token opened into the card it stands for, the money (formats and rules
  // were checked by the parameter model) and the link
  const unwrapped = openWalletToken(deps.wallets, caller, sent, deps.clock.now());
  if (unwrapped.kind === 'invalid') return unwrapped;
  const { request } = unwrapped;
  const money = readMoney(request);
  if (money.kind === 'invalid') return money;
  if (isStandaloneRisk(request.paymentType)) {
    const testMode = testModeOf(caller.channel, request.testMode);
    return standaloneRisk(deps, caller, request, money.amount, testMode, context.checkoutId);
  }
  const linked =
    request.referenceUuid === undefined
      ? undefined
      : await linkedPayment(deps.store, caller, request.referenceUuid);
  if (linked?.kind === 'invalid') return linked;
  const original = linked?.original;
  // Without account data of its own, a linked payment charges the original's stored card.
  const reused = original !== undefined && !sendsInstrument(request) ? original : undefined;
  const paymentBrand = request.paymentBrand ?? reused?.paymentBrand;

  // the payment method: a brand the gateway knows, with the account data its method needs
  const accepted = checkPaymentMethod(paymentBrand, request, reused !== undefined, caller.channel);
  if (accepted.kind === 'invalid') return accepted;
  if (accepted.kind === 'refused')
    return refuse(deps, caller, request, money, accepted.code, original, context);

  // decide whom the shopper deals with first: a redirect method's provider, the card issuer's
  // 3-D Secure, or nobody (only the simulators of test mode INTERNAL are here to deal with)
  const processor = processorFor(deps.processors, caller.channel, request.testMode);
  const shopper = whomTheShopperMeets(
    processor,
    caller,
    request,
    context,
    paymentBrand,
    original !== undefined,
  );
  if (shopper.kind === 'invalid') return shopper;
  const { method, authentication } = shopper;

  // screen: the channel's risk rules, before anyone authenticates or authorizes (risk-check.ts)
  const now = deps.clock.now();
  const subject = riskSubject(request, money, paymentBrand, reused, processor);
  const risk = await screenRisk(deps, caller, subject, now, true);
  if (risk.kind === 'invalid') return risk;
  const rejected = risk.kind === 'rejected';

  // decide: the acquirer's verdict (a redirect method's provider decides on its own page)
  const paymentId = newId(); // first: a connector sends it as its reference, to inquire by it
  const decision: Decision =
    riskDecision(risk, testModeOf(caller.channel, request.testMode)) ??
    (method === undefined
      ? await decideInitial(processor, caller, request, original, reused, now, paymentId, context)
      : { testMode: 'INTERNAL', code: ResultCodes.PENDING, result: {}, resultDetails: {} });
  // An invalid card (or one the risk check rejected) is refused before anyone is asked to authenticate it.
  const step = decision.code.startsWith('100.100.') || rejected ? NO_AUTHENTICATION : authentication;

  // record
  const echo = echoOf(request);
  const facts = {
    id: paymentId,
    paymentType: request.paymentType ?? 'DB',
    paymentBrand,
    amount: money.amount,
    currency: request.currency,
    referencedId: original?.id,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    checkoutId: context.checkoutId,
    testMode: decision.testMode,
    card: storedCard(request, deps.seal) ?? reused?.card,
  };
  const details = detailsOf(caller, request, money, paymentBrand, echo, risk);

  // Pending also when the processor accepted it for its provider to decide later (an invoice).
  if (
    (method !== undefined && !rejected) ||
    step.kind === 'challenge' ||
    step.kind === 'decoupled' ||
    decision.code === ResultCodes.PENDING
  )
    return pend(deps, caller, now, request, context, { facts, details, method, step, decision });

  const decided = withProcessorDetails(details, decision);
  let payment = decidedRecord(caller, now, facts, decided, authenticatedDecision(step, decision, echo));
  if (isSuccess(payment.resultCode)) payment = await keepAfterSuccess(deps, request, payment);
  await recordPayment(deps, payment);
  return { kind: 'payment', payment };
}

/**
 * The record of a payment decided now. One literal with every field, not facts spread and more
 * added: fields added to a spread copy took most of createPayment's own time (profiled), and
 * paymentRecord reads it faster too.
 */
function decidedRecord(
  caller: Caller,
  now: Date,
  facts: Omit<PaymentFacts, 'code' | 'details'>,
  details: Record<string, unknown>,
  authenticated: ReturnType<typeof authenticatedDecision>,
): Payment {
  return paymentRecord(caller, now, {
    id: facts.id,
    paymentType: facts.paymentType,
    paymentBrand: facts.paymentBrand,
    amount: facts.amount,
    currency: facts.currency,
    referencedId: facts.referencedId,
    merchantTransactionId: facts.merchantTransactionId,
    descriptor: facts.descriptor,
    checkoutId: facts.checkoutId,
    testMode: facts.testMode,
    card: facts.card,
    code: authenticated.code,
    result: authenticated.result,
    resultDetails: authenticated.resultDetails,
    details: hasFields(authenticated.details) ? { ...details, ...authenticated.details } : details,
  });
}

/** Whether an object has a field of its own: paymentRecord copies the details, so none need merging. */
function hasFields(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/** What the risk check screens of an initial payment; a reused card has its BIN, not its number. */
function riskSubject(
  request: PaymentRequest,
  money: Money,
  paymentBrand: string | undefined,
  reused: Payment | undefined,
  processor: Processor,
): RiskSubject {
  return {
    request,
    amount: money.amount,
    currency: request.currency ?? '',
    brand: paymentBrand,
    cardNumber: request.card?.number,
    bin: reused?.card?.bin,
    binInfo: processor.binInfo,
  };
}

/** The payment's details: the echoed request, the merchant's bank account, forex, gift card and risk. */
function detailsOf(
  caller: Caller,
  request: PaymentRequest,
  money: Money,
  paymentBrand: string | undefined,
  echo: Record<string, unknown>,
  risk: RiskStep,
): Record<string, unknown> {
  // As `{ ...echo, ...bankAccount, ...forex, ...giftCard, ...risk }` would, field by field: several
  // spreads into one literal are V8's slow path (profiled on every payment).
  const details: Record<string, unknown> = {};
  copyInto(details, echo);
  copyInto(details, merchantBankAccount(caller.channel.settings, paymentBrand, echo));
  if (money.forex !== undefined) details.forex = money.forex;
  copyInto(details, giftCardDetails(request, echo));
  copyInto(details, riskDetails(risk, echo));
  return details;
}

function copyInto(into: Record<string, unknown>, from: Readonly<Record<string, unknown>>): void {
  for (const name of Object.keys(from)) into[name] = from[name];
}

/**
 * Whom the shopper deals with first: a redirect method's provider, the card issuer's 3-D Secure,
 * or nobody; a linked payment authenticates nothing. Errors for what that needs and is missing.
 */
function whomTheShopperMeets(
  processor: Processor,
  caller: Caller,
  request: PaymentRequest,
  context: PaymentContext,
  paymentBrand: string | undefined,
  linked: boolean,
): Checked<{ method: RedirectMethod | undefined; authentication: Authentication }> {
  const method = !linked && paymentBrand !== undefined ? processor.redirectMethod?.(paymentBrand) : undefined;
  const providerPage = method !== undefined || (!linked && atProcessorsProvider(processor, paymentBrand));
  const authentication: Authentication = !linked
    ? authenticationOf(
        caller.channel,
        processor.accessControlServer,
        paymentBrand ?? '',
        request,
        context.checkoutId !== undefined,
      )
    : { kind: 'none' };
  const errors = [
    ...(authentication.kind === 'invalid' ? authentication.errors : []),
    ...externalAuthenticationErrors(request, authentication),
    ...returnUrlErrors(request, context, providerPage, inBrowser(authentication)),
  ];
  return errors.length > 0 ? invalid(errors) : { kind: 'ok', method, authentication };
}

/**
 * A payment the shopper finishes first (a redirect method's provider, or a 3-D Secure challenge or
 * decoupled authentication), or the processor's provider later (an invoice): recorded pending,
 * with the session that finishes it.
 */
async function pend(
  deps: EngineDeps,
  caller: Caller,
  now: Date,
  request: PaymentRequest,
  context: PaymentContext,
  at: {
    facts: Omit<PaymentFacts, 'code' | 'details'>;
    details: Record<string, unknown>;
    /** A redirect method's provider finishes it (else the shopper's 3-D Secure, or the processor's provider). */
    method: RedirectMethod | undefined;
    step: Authentication;
    decision: Decision;
  },
): Promise<Outcome> {
  const { facts, details, method, step, decision } = at;
  const redirect = method !== undefined;
  const paymentBrand = facts.paymentBrand;
  const payment = paymentRecord(caller, now, { ...facts, code: ResultCodes.PENDING, details });
  // the connector's processor sends the shopper to its own page first (its challenge, its provider)
  if (sendsShopperToProcessor(decision))
    return { kind: 'payment', payment: await pendWithProcessor(deps, payment, decision, request, context) };
  const pending = await startPending(deps, payment, {
    // an uncertain outcome at the connector: pending until the processor is asked (steps/inquiry.ts)
    kind: redirect ? 'redirect' : decision.technical === 'uncertain' ? 'inquiry' : sessionKindOf(step),
    plan: {
      brand: paymentBrand ?? '',
      // planned now: the request is gone when the payment succeeds later
      afterSuccess: afterSuccessOf(request),
      ...(redirect ? {} : { authorization: decision }),
      ...(step.kind === 'challenge' || step.kind === 'decoupled'
        ? { threeDSecure: { ids: step.ids, mandated: step.mandated, nonPayment: step.nonPayment } }
        : {}),
    },
    ...optional('checkoutId', context.checkoutId),
    ...optional('returnUrl', request.shopperResultUrl),
    ...optional('baseUrl', context.baseUrl),
    ...optional('challengeWindow', request.customer?.browser?.challengeWindow),
    ...optional('method', method),
  });
  return { kind: 'payment', payment: pending };
}

/** A first payment that succeeded: what it leaves (agreement ids, a registration), kept along. */
async function keepAfterSuccess(
  deps: EngineDeps,
  request: PaymentRequest,
  payment: Payment,
): Promise<Payment> {
  const after = afterSuccessOf(request);
  // A connector that registered the card along keeps it under its own id: paid with it there.
  const theirs = payment.details.resultDetails as Record<string, string> | undefined;
  const registeredThere = theirs?.ConnectorRegistrationID;
  const along = withAfterSuccess(
    payment,
    after.register === undefined || registeredThere === undefined
      ? after
      : { ...after, register: { ...after.register, [CONNECTOR_REGISTRATION_ID]: registeredThere } },
  );
  if (along.registration !== undefined) await recordRegistration(deps, along.registration);
  return along.payment;
}

const NO_AUTHENTICATION: Authentication = { kind: 'none' };

/**
 * A payment refused before anything is decided (a brand the gateway does not know): recorded
 * with the refusal's code like any rejected payment, without its account data.
 */
async function refuse(
  deps: EngineDeps,
  caller: Caller,
  request: PaymentRequest,
  money: Money,
  code: string,
  original: Payment | undefined,
  context: PaymentContext,
): Promise<Outcome> {
  const echo = echoOf(request);
  const payment = paymentRecord(caller, deps.clock.now(), {
    paymentType: request.paymentType ?? 'DB',
    paymentBrand: request.paymentBrand,
    amount: money.amount,
    currency: request.currency,
    code,
    referencedId: original?.id,
    merchantTransactionId: request.merchantTransactionId,
    descriptor: request.descriptor,
    checkoutId: context.checkoutId,
    testMode: testModeOf(caller.channel, request.testMode),
    details: { ...echo, ...optional('forex', money.forex) },
  });
  await recordPayment(deps, payment);
  return { kind: 'payment', payment };
}

/**
 * The result of a payment whose authentication ended at once: rejected by 3-D Secure (no
 * acquirer asked), or authenticated and then the acquirer's verdict, with the authentication's
 * values in `threeDSecure`. A non-payment authentication authorizes nothing: it succeeds.
 */
function authenticatedDecision(
  authentication: Authentication,
  decision: Decision,
  echo: Record<string, unknown>,
): Pick<PaymentFacts, 'code' | 'result' | 'resultDetails'> & { details: Record<string, unknown> } {
  const echoed = (echo.threeDSecure ?? {}) as Record<string, unknown>;
  if (authentication.kind === 'failed') {
    return {
      code: authentication.code,
      details:
        authentication.result === undefined ? {} : { threeDSecure: { ...echoed, ...authentication.result } },
    };
  }
  if (authentication.kind === 'authenticated') {
    const threeDSecure = { ...echoed, ...authentication.result };
    if (authentication.nonPayment) {
      return {
        code: ResultCodes.SUCCESS_INTERNAL,
        resultDetails: { clearingInstituteName: 'Simulator' },
        details: { threeDSecure },
      };
    }
    return {
      code: decision.code,
      result: decision.result,
      resultDetails: decision.resultDetails,
      details: { threeDSecure },
    };
  }
  return { code: decision.code, result: decision.result, resultDetails: decision.resultDetails, details: {} };
}

/**
 * decide, for an initial payment: an original that cannot be built on refuses the link; else
 * the processor: a connector (told the original by its own id) or the simulator, which charges
 * the original's stored card when the request sends no instrument.
 */
async function decideInitial(
  processor: Processor,
  caller: Caller,
  request: PaymentRequest,
  original: Payment | undefined,
  reused: Payment | undefined,
  now: Date,
  paymentId: string,
  context: Pick<PaymentContext, 'baseUrl'>,
): Promise<Decision> {
  const forwarded = processor.kind === 'connector' || processor.testMode === 'EXTERNAL';
  const refusal =
    original === undefined
      ? undefined
      : (linkRefusal(original, request.currency) ??
        (forwarded && connectorIdOf(original) === undefined ? ResultCodes.REFERENCE_NOT_FOUND : undefined));
  if (refusal !== undefined) {
    return { ...optional('testMode', processor.testMode), code: refusal, result: {}, resultDetails: {} };
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
  return processor.pay({
    channel: caller.channel,
    request,
    decide: { ...simulation, instrument },
    ...optional('original', original),
    now,
    paymentId,
    ...optional('returnUrl', returnAddressOf(context, paymentId)),
  });
}

/** `{ [name]: value }`, or nothing when the value is undefined (records keep no undefined fields). */
const optional = <K extends string, V>(name: K, value: V | undefined) =>
  (value === undefined ? {} : { [name]: value }) as Partial<Record<K, V>>;
