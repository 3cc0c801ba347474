/**
 * Pending payments (spec: Asynchronous payments): a payment whose shopper must act elsewhere (a
 * 3-D Secure challenge, a decoupled authentication in the banking app, or a redirect method)
 * is answered `000.200.000` with `redirect.url` and `redirect.parameters`, and kept with a
 * session (PaymentSession) until the shopper's answer, or 30 minutes, decide its final result.
 * A payment the processor accepted for its provider to decide later (an invoice: the processor
 * answered `000.200.000` itself) is pending without a redirect until the provider answers.
 *
 * Pipeline of the end, like the others: load the session → decide the final state from the
 * shopper's verdict and the plan made when the payment arrived → record it (payment, session,
 * registration in one transaction; the checkout after) → tell the caller where the shopper goes.
 */
import { fromMinor } from '../../money';
import { describe, isSuccess, ResultCodes } from '../../result-codes';
import { paymentChange, registrationChange } from '../answers/notifications';
import { resultUrl } from '../answers/result-url';
import type { EngineDeps } from '../core/deps';
import { NOT_FOUND, type NotFound } from '../core/failure';
import { newId } from '../core/ids';
import type {
  FinalState,
  Payment,
  PaymentSession,
  PaymentSessionKind,
  Registration,
  SessionOutcome,
} from '../core/model';
import type {
  ChannelStore,
  CheckoutStore,
  Decision,
  PaymentSessionStore,
  PaymentStore,
  Processor,
  ProcessorRedirect,
  RedirectMethod,
  RegistrationStore,
  ShopperAction,
  TransactionIds,
} from '../core/ports';
import { type AfterSuccess, withAfterSuccess, withRegisteredThere } from './after-success';
import { askAgain } from './inquiry-schedule';
import { INQUIRY_FIRST_MS } from './processor-uncertain';
import { ASK_LATER, processorVerdict } from './processor-verdict';
import { type RecordDeps, recordPayment } from './record';
import { type Authentication, AuthenticationCodes, PROTOCOL_VERSION } from './three-d-secure';

/** A pending payment times out (100.396.103) this long after it began. */
export const PENDING_VALIDITY_MS = 30 * 60_000;
/** The simulated cardholder answers a decoupled authentication in their banking app after this long. */
export const DECOUPLED_ANSWER_MS = 10_000;
/** The simulated pay-later provider accepts (or refuses) an invoice after its checks, this long after it arrived. */
export const PROVIDER_ANSWER_MS = 60_000;

/** When a connector's uncertain outcome is first asked about (processor-uncertain.ts). */
export { INQUIRY_FIRST_MS } from './processor-uncertain';

/** The simulator pages the redirects point to (served by server/http/routes/simulators/shopper.ts). */
export const SimulatorPaths = {
  challenge: '/simulators/acs/challenge',
  /** Where the app's 3-D Secure SDK exchanges the challenge with the access control server (CReq → CRes). */
  appChallenge: '/simulators/acs/app/challenge',
  redirect: '/simulators/redirect',
} as const;

/**
 * The gateway's own pages for a connector's pending payment (server/http/routes/connector-return.ts):
 * `redirect` sends the shopper on to the processor's page, `return` is where the processor sends
 * them back (its shopperResultUrl), by the payment's id.
 */
export const ConnectorPaths = {
  redirect: '/connectors/redirect',
  return: '/connectors/return',
} as const;

/** What finishing a pending payment needs, decided when it arrived; JSON, never card data. */
export interface PendingPlan {
  readonly brand: string;
  /**
   * The acquirer's verdict on the card, decided while the card data was there (the CVV is
   * never stored), applied once the shopper has authenticated. Absent for redirect methods:
   * their provider decides on its page.
   */
  readonly authorization?: Decision;
  readonly threeDSecure?: {
    readonly ids: TransactionIds;
    readonly mandated: boolean;
    /** Non-payment authentication: nothing to authorize once authenticated. */
    readonly nonPayment: boolean;
  };
  readonly afterSuccess: AfterSuccess;
  /**
   * Where the merchant reads the result, as the shopper's return carries it: a stand-alone
   * authentication's `/v1/threeDSecure/{id}`; a payment's own (or its checkout's) otherwise.
   */
  readonly resourcePath?: string;
  /** A connector's pending payment: where its processor wants the shopper (its challenge, its provider). */
  readonly processorRedirect?: ProcessorRedirect;
}

/**
 * The session that waits for the shopper's authentication (in the browser, the app, or the banking
 * app); without one, for the processor's provider, who answers without the shopper (an invoice).
 */
export function sessionKindOf(step: Authentication): PaymentSessionKind {
  if (step.kind === 'decoupled') return 'decoupled';
  if (step.kind === 'challenge') return step.device === 'app' ? 'app' : 'challenge';
  return 'provider';
}

/** When a session of `kind` falls due: the answer of a banking app or a provider; else its expiry. */
function answerDelayOf(kind: PaymentSessionKind): number {
  if (kind === 'decoupled') return DECOUPLED_ANSWER_MS;
  if (kind === 'inquiry') return INQUIRY_FIRST_MS;
  return kind === 'provider' ? PROVIDER_ANSWER_MS : PENDING_VALIDITY_MS;
}

/** Sessions the clock answers before their expiry, approving (a forced result code still refuses: finalOf). */
export const ANSWERED_BY_THE_CLOCK: ReadonlySet<PaymentSessionKind> = new Set(['decoupled', 'provider']);

/** Whether the shopper authenticates on the challenge page in their browser (and needs a way back). */
export const inBrowser = (step: Authentication): boolean =>
  step.kind === 'challenge' && step.device === 'browser';

/**
 * An app's challenge session is found by the ACS transaction id the SDK sends (its 32 hex digits):
 * the SDK talks to the access control server, which knows nothing else of the payment.
 */
export const sessionIdOfAcsTransaction = (acsTransID: string): string =>
  acsTransID.replaceAll('-', '').toLowerCase();

export interface PendingStart {
  readonly kind: PaymentSessionKind;
  readonly plan: PendingPlan;
  readonly checkoutId?: string;
  readonly returnUrl?: string;
  /** The gateway's public origin for redirect.url; a relative URL without it. */
  readonly baseUrl?: string;
  /** customer.browser.challengeWindow, for the challenge request (EMV challengeWindowSize). */
  readonly challengeWindow?: string;
  /** A redirect method's provider: what it issues at once (a voucher) is answered as resultDetails. */
  readonly method?: RedirectMethod;
}

const base64Url = (text: string): string =>
  btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/**
 * Records a pending payment with its session: the session first, then the payment, each durable
 * before the answer, so the session a shopper can reach always has its payment, and a crash in
 * between leaves at most a session without one, which the worker drops at its expiry
 * (Store.dropPaymentSession).
 */
export async function startPending(
  deps: RecordDeps & { readonly store: Pick<PaymentSessionStore, 'insertPaymentSession'> },
  payment: Payment,
  start: PendingStart,
): Promise<Payment> {
  const now = payment.createdAt;
  const ids = start.plan.threeDSecure?.ids;
  const session: PaymentSession = {
    id: start.kind === 'app' && ids !== undefined ? sessionIdOfAcsTransaction(ids.acsTransactionId) : newId(),
    paymentId: payment.id,
    merchantId: payment.merchantId,
    kind: start.kind,
    ...(start.checkoutId === undefined ? {} : { checkoutId: start.checkoutId }),
    ...(start.returnUrl === undefined ? {} : { returnUrl: start.returnUrl }),
    plan: start.plan as unknown as Record<string, unknown>,
    createdAt: now,
    expiresAt: new Date(now.getTime() + PENDING_VALIDITY_MS),
    dueAt: new Date(now.getTime() + answerDelayOf(start.kind)),
    finishedAt: null,
  };
  const issued = start.kind === 'redirect' ? start.method?.issue?.(payment.id, session.expiresAt) : undefined;
  const origin = start.baseUrl ?? '';
  const redirect =
    start.kind === 'challenge'
      ? {
          url: `${origin}${SimulatorPaths.challenge}`,
          parameters: [
            {
              name: 'creq',
              value: base64Url(
                JSON.stringify({
                  acsTransID: start.plan.threeDSecure?.ids.acsTransactionId,
                  messageType: 'CReq',
                  messageVersion: PROTOCOL_VERSION,
                  challengeWindowSize: `0${start.challengeWindow ?? '5'}`,
                }),
              ),
            },
            { name: 'threeDSSessionData', value: session.id },
          ],
        }
      : start.kind === 'redirect' || start.kind === 'connector'
        ? {
            url: `${origin}${start.kind === 'connector' ? ConnectorPaths.redirect : SimulatorPaths.redirect}`,
            parameters: [{ name: 'session', value: session.id }],
          }
        : undefined;
  const pending: Payment = {
    ...payment,
    details: {
      ...payment.details,
      ...(redirect === undefined ? {} : { redirect }),
      ...(issued === undefined ? {} : { resultDetails: { ...resultDetailsOf(payment.details), ...issued } }),
      ...(start.kind === 'app' ? { threeDSecure: appChallengeValues(payment, start.plan) } : {}),
    },
  };
  await deps.store.insertPaymentSession(session);
  await recordPayment(deps, pending);
  return pending;
}

const resultDetailsOf = (details: Readonly<Record<string, unknown>>): Record<string, string> =>
  (details.resultDetails ?? {}) as Record<string, string>;

/**
 * What the merchant's app needs to run the challenge with its 3-D Secure SDK, in the spec's
 * threeDSecure fields: no browser form to post, but the transaction ids of the access control
 * server and the directory server, the protocol version, and whether the challenge is mandated.
 */
function appChallengeValues(payment: Payment, plan: PendingPlan): Record<string, unknown> {
  const three = plan.threeDSecure;
  return {
    ...((payment.details.threeDSecure ?? {}) as Record<string, unknown>),
    ...(three === undefined
      ? {}
      : {
          acsTransactionId: three.ids.acsTransactionId,
          dsTransactionId: three.ids.dsTransactionId,
          version: PROTOCOL_VERSION,
          challengeMandatedIndicator: three.mandated ? 'Y' : 'N',
        }),
  };
}

/** What ends a pending payment: the shopper's action on a simulator page, or the clock. */
export type Verdict = ShopperAction | 'timeout';

/** What ending pending payments needs: their sessions, their payments, the checkouts they settle. */
export interface PendingDeps extends Pick<EngineDeps, 'clock' | 'processors'> {
  readonly store: PaymentSessionStore &
    Pick<ChannelStore, 'getChannel'> &
    Pick<PaymentStore, 'getPayment'> &
    Pick<CheckoutStore, 'settleCheckoutPayment'> &
    Pick<RegistrationStore, 'getRegistration'>;
}

export type Finish =
  /** This verdict decided the payment; `payment` is its final state. */
  | { readonly kind: 'finished'; readonly payment: Payment }
  /** It had ended already (another click, the timeout, another process): `payment` is how. */
  | { readonly kind: 'ended'; readonly payment: Payment | undefined }
  | NotFound;

/** Ends the pending payment of `sessionId` with `verdict`. */
export async function finishPending(
  deps: PendingDeps,
  sessionId: string,
  asked: Verdict,
  /** What the shopper brought back to the gateway's return address (a connector's payment). */
  returned: Readonly<Record<string, string>> = {},
): Promise<Finish> {
  // load
  const session = await deps.store.getPaymentSession(sessionId);
  if (session === undefined) return NOT_FOUND;
  const payment = await deps.store.getPayment(session.merchantId, session.paymentId);
  const now = deps.clock.now();
  if (payment === undefined && session.finishedAt === null && now >= session.expiresAt) {
    await deps.store.dropPaymentSession(session.id, now);
  }
  // An inquiry's session is the processor's to answer (inquiry.ts), never the shopper's or the clock's.
  if (
    session.finishedAt !== null ||
    session.kind === 'inquiry' ||
    payment === undefined ||
    payment.resultCode !== ResultCodes.PENDING
  ) {
    return { kind: 'ended', payment };
  }
  // 30 minutes are 30 minutes, whether the worker has come by yet or not.
  const verdict: Verdict = now >= session.expiresAt ? 'timeout' : asked;

  // decide
  const plan = session.plan as unknown as PendingPlan;
  if (session.kind === 'connector') {
    // the processor's verdict, read from it (processor-verdict.ts); none yet: the payment waits on
    const read = await processorVerdict(deps, payment, verdict, returned, now);
    if (read === ASK_LATER) {
      // due again by the inquiry's schedule; after a week never (pending: an operator's matter)
      await askAgain(deps.store, session.id, now.getTime() - payment.createdAt.getTime(), now);
      return { kind: 'ended', payment };
    }
    return read === undefined
      ? { kind: 'ended', payment }
      : recordEnd(deps, session, payment, withRegisteredThere(plan, read), read, now);
  }
  // Only the simulators leave a payment pending here (their redirect methods and 3-D Secure);
  // a connector's uncertain outcome is ended by its inquiry (inquiry.ts).
  const decided = finalOf(deps.processors.simulator, session, plan, payment, verdict);
  return recordEnd(deps, session, payment, plan, decided, now);
}

/**
 * Records a pending payment's end as `decided`: its final state, what a success leaves (a
 * registration), the notifications, once (the session store's compare-and-set), then the checkout.
 */
export async function recordEnd(
  deps: PendingDeps,
  session: PaymentSession,
  payment: Payment,
  plan: PendingPlan,
  decided: Decided,
  now: Date,
): Promise<Finish> {
  let final: Payment = {
    ...payment,
    resultCode: decided.code,
    resultDescription: describe(decided.code) ?? '',
    details: decided.details,
  };
  const { payment: withIds, registration } = isSuccess(decided.code)
    ? withAfterSuccess(final, plan.afterSuccess)
    : { payment: final, registration: undefined };
  final = withIds;

  // record
  const state: FinalState = {
    resultCode: final.resultCode,
    resultDescription: final.resultDescription,
    details: final.details,
    ...(final.registrationId === undefined ? {} : { registrationId: final.registrationId }),
  };
  const won = await deps.store.finishPaymentSession(
    session.id,
    now,
    decided.outcome,
    state,
    registration,
    endChanges(deps, { ...payment, ...state }, registration, now),
  );
  if (!won)
    return { kind: 'ended', payment: await deps.store.getPayment(session.merchantId, session.paymentId) };
  if (session.checkoutId !== undefined) {
    // A success keeps the checkout paid; anything else opens it again for another attempt
    // (spec: closing a popup lets the shopper continue with another brand).
    await deps.store.settleCheckoutPayment(
      session.checkoutId,
      payment.id,
      final.resultCode,
      now,
      isSuccess(final.resultCode),
    );
  }
  return { kind: 'finished', payment: final };
}

/**
 * What a pending payment's end tells the merchant: the registration it made (CREATED) first, then
 * the payment as stored with its final state (UPDATED).
 */
function endChanges(deps: PendingDeps, ended: Payment, registration: Registration | undefined, at: Date) {
  const payment = paymentChange(ended, at, deps.processors, 'UPDATED');
  return registration === undefined ? [payment] : [registrationChange(registration, 'CREATED', at), payment];
}

export interface Decided {
  readonly code: string;
  readonly outcome: SessionOutcome;
  readonly details: Readonly<Record<string, unknown>>;
}

/** The final result code and response details of a pending payment ended by `verdict`. */
function finalOf(
  processor: Processor,
  session: PaymentSession,
  plan: PendingPlan,
  payment: Payment,
  verdict: Verdict,
): Decided {
  // The redirect was only for the pending state; result and resultDetails are the final ones
  // (beside what a provider issued at once: a voucher stays the payment's).
  const { redirect: _redirect, result: _result, resultDetails: pendingDetails, ...kept } = payment.details;
  const details = (extra: Record<string, unknown>) => ({ ...kept, ...extra });
  if (verdict === 'timeout') {
    return { code: ResultCodes.PENDING_TIMED_OUT, outcome: 'timedOut', details: details({}) };
  }
  if (verdict === 'cancel') {
    return { code: ResultCodes.CANCELLED_BY_USER, outcome: 'cancelled', details: details({}) };
  }

  const three = plan.threeDSecure;
  if (session.kind === 'redirect' || three === undefined) {
    const forced = (kept.customParameters as Record<string, string> | undefined)?.forceResultCode;
    const code =
      verdict === 'decline'
        ? (processor.redirectMethod?.(plan.brand)?.declineCode ?? '800.100.152')
        : forced !== undefined && !isSuccess(forced)
          ? forced
          : ResultCodes.SUCCESS_INTERNAL;
    return {
      code,
      outcome: isSuccess(code) ? 'approved' : 'failed',
      details: details({
        resultDetails: {
          ...(session.kind === 'redirect' ? (pendingDetails as Record<string, string> | undefined) : {}),
          AcquirerResponse: verdict === 'decline' ? 'DECLINED' : 'APPROVED',
          clearingInstituteName: 'Simulator',
        },
      }),
    };
  }

  // 3-D Secure: the shopper authenticated (or failed to); then the acquirer's verdict applies.
  const echoed = (kept.threeDSecure ?? {}) as Record<string, unknown>;
  const authType = session.kind === 'decoupled' ? '04' : '02';
  const status = verdict === 'approve' ? 'Y' : 'N';
  const acs = processor.accessControlServer;
  if (acs === undefined) throw new Error('a pending authentication without an access control server');
  const result = acs.authenticationResult(plan.brand, status, three.ids, {
    authType,
    challengeMandated: three.mandated,
  });
  const threeDSecure = { ...echoed, ...result };
  if (status === 'N') {
    return {
      code: AuthenticationCodes.CHALLENGE_FAILED,
      outcome: 'failed',
      details: details({ threeDSecure }),
    };
  }
  // A non-payment authentication authorizes nothing: the acquirer's verdict, decided when the
  // payment arrived, is not this payment's (as for a frictionless one in initial-payment.ts).
  const authorization = three.nonPayment ? undefined : plan.authorization;
  const code = authorization === undefined ? ResultCodes.SUCCESS_INTERNAL : authorization.code;
  return {
    code,
    outcome: isSuccess(code) ? 'approved' : 'failed',
    details: details({
      threeDSecure,
      ...(authorization === undefined || Object.keys(authorization.result).length === 0
        ? {}
        : { result: authorization.result }),
      resultDetails: authorization?.resultDetails ?? { clearingInstituteName: 'Simulator' },
    }),
  };
}

/**
 * Where the shopper goes once the session has ended: the shopperResultUrl with `id` and
 * `resourcePath`, those of the checkout for a checkout's payment (the widget's contract), else
 * the payment's own. Undefined when no result URL was given.
 */
export function shopperReturnOf(session: PaymentSession): string | undefined {
  if (session.returnUrl === undefined) return undefined;
  const own = (session.plan as { resourcePath?: unknown }).resourcePath;
  const [id, resourcePath] =
    session.checkoutId === undefined
      ? [session.paymentId, typeof own === 'string' ? own : `/v1/payments/${session.paymentId}`]
      : [session.checkoutId, `/v1/checkouts/${session.checkoutId}/payment`];
  try {
    return resultUrl(session.returnUrl, id, resourcePath);
  } catch {
    return undefined; // validated as a URL when it came; never trusted blindly
  }
}

/** What a simulator page shows about the payment: never card data beyond the last four digits. */
export interface PageFacts {
  readonly amount?: string;
  readonly currency?: string;
  readonly brand?: string;
  readonly last4?: string;
  readonly descriptor?: string;
}

export function pageFacts(payment: Payment): PageFacts {
  return {
    ...(payment.amount === null || payment.currency === undefined
      ? {}
      : { amount: fromMinor(payment.amount, payment.currency), currency: payment.currency }),
    ...(payment.paymentBrand === undefined ? {} : { brand: payment.paymentBrand }),
    ...(payment.card === undefined ? {} : { last4: payment.card.last4Digits }),
    ...(payment.descriptor === undefined ? {} : { descriptor: payment.descriptor }),
  };
}
