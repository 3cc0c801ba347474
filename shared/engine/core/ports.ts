/**
 * What the engine needs from the outside world, as interfaces: storage, clock and ids. Adapters
 * live in server/ (SQLite, PostgreSQL); tests may use the in-memory ones.
 */
import type { HistoryCount, HistoryKey, VelocityKind } from '../../risk';
import type {
  AccessToken,
  Channel,
  Checkout,
  CheckoutCompletion,
  FinalState,
  IdempotentResponse,
  Merchant,
  Payment,
  PaymentSession,
  Registration,
  SessionOutcome,
} from './model';
import type { Change, Tell } from './notification';

/*
 * The engine's storage, as role ports: each consumer (an operation, a route, a worker) names the
 * ports it uses; `Store` is all of them, for the composition root and the few that need many.
 * Adapters: server/storage (one module per aggregate); for tests, server/test-kit/engine/memory-store.ts.
 */

/** Payments: written through group commit, read by id, by reference and by the query API. */
export interface PaymentStore {
  /**
   * Writes the payment; resolves only once it is durable (committed to disk or to PostgreSQL).
   * With a claim, the payment takes its request's Idempotency-Key in the same transaction (a
   * CLAIMED response naming the payment, replacing one of the key created before
   * `claim.replaceBefore`); a live response of the key refuses the payment, unwritten. `changes`:
   * what the payment tells the merchant (engine/answers/notifications.ts paymentChanges), written
   * with it (none: it notifies nobody).
   */
  insertPayment(payment: Payment, changes?: readonly Change[], claim?: IdempotencyClaim): Promise<void>;
  getPayment(merchantId: string, id: string): Promise<Payment | undefined>;
  /** Payments referencing `id` (captures, refunds, reversals …), oldest first. */
  listReferencing(merchantId: string, id: string): Promise<Payment[]>;
  /**
   * The query API's search (GET /v1/query): a merchant's payments matching every filter given,
   * oldest first (created_at, then id), at most `limit`.
   */
  queryPayments(query: PaymentQuery): Promise<Payment[]>;
  /**
   * The neighbours of some payments in the reference graph: the merchant's payments that
   * reference one of `ids`, and those that one of `ids` references. Oldest first (created_at, id).
   */
  listLinked(merchantId: string, ids: readonly string[]): Promise<Payment[]>;
}

/** Pending payments' sessions (3-D Secure challenges, decoupled authentications, redirects). */
export interface PaymentSessionStore {
  /** Writes a pending payment's session; resolves once it is durable. Written before its payment. */
  insertPaymentSession(session: PaymentSession): Promise<void>;
  /** By id alone: the session id is the bearer secret of the simulator pages. */
  getPaymentSession(id: string): Promise<PaymentSession | undefined>;
  getPaymentSessionOfPayment(paymentId: string): Promise<PaymentSession | undefined>;
  /**
   * Ends an open session and gives its pending payment its final state, in one transaction
   * (with the registration a createRegistration asked for). False, and nothing changed, when
   * the session had ended already or the payment is no longer pending: of two finishers (the
   * shopper's click and the timeout, or two processes), exactly one wins. `changes`: what the
   * end tells the merchant (the registration's CREATED first, then the payment's UPDATED),
   * written in that transaction.
   */
  finishPaymentSession(
    id: string,
    at: Date,
    outcome: SessionOutcome,
    final: FinalState,
    registration?: Registration,
    changes?: readonly Change[],
  ): Promise<boolean>;
  /**
   * Ends an open session alone, as timed out: for a session whose payment was never written (a
   * crash between the two writes of startPending), so the worker stops claiming it.
   */
  dropPaymentSession(id: string, at: Date): Promise<void>;
  /**
   * Ends the open `inquiry` session of an uncertain registration (its id as the session's
   * paymentId) with the registration's final state (`registration`: its details replaced), in one
   * transaction with `changes` (its REGISTRATION UPDATED). False, and nothing changed, when the
   * session had ended already: of two finishers exactly one wins.
   */
  finishRegistrationSession(
    id: string,
    at: Date,
    registration: Registration,
    changes?: readonly Change[],
  ): Promise<boolean>;
  /**
   * Claims up to `limit` open sessions due at `now`, oldest first, moving their due time to
   * `leaseUntil`, so that no other claimer (in any process on the same database) gets them
   * meanwhile, and a claimer that dies leaves them due again then.
   */
  claimDuePaymentSessions(now: Date, leaseUntil: Date, limit: number): Promise<PaymentSession[]>;
  /**
   * Sets when an open session is due again (an inquiry that could not reach its processor asks
   * again later); null: due never, open (an inquiry that stopped asking, until an operator asks
   * again); nothing when it has ended.
   */
  postponePaymentSession(id: string, dueAt: Date | null): Promise<void>;
  /**
   * The payments still uncertain (open `inquiry` sessions), those still asked about and those
   * the gateway stopped asking about (due never): for the gateway_uncertain_payments gauge.
   */
  countUncertainPayments(): Promise<{ readonly asking: number; readonly stopped: number }>;
}

/** Registrations: stored payment details. */
export interface RegistrationStore {
  /** Writes the registration with its notifications (`changes`: its CREATED), in one transaction. */
  insertRegistration(registration: Registration, changes?: readonly Change[]): Promise<void>;
  getRegistration(merchantId: string, id: string): Promise<Registration | undefined>;
  /** Deregisters, with what `tell` renders of the registration deregistered (its DELETED), in one transaction. */
  deleteRegistration(merchantId: string, id: string, at: Date, tell?: Tell<Registration>): Promise<boolean>;
  /** The Query API's registrations (its transactions of type RG), deregistered ones too; oldest first (created_at, id). */
  queryRegistrations(query: RegistrationQuery): Promise<Registration[]>;
}

/** Checkouts: created, submitted, completed, their status read. */
export interface CheckoutStore {
  insertCheckout(checkout: Checkout): Promise<void>;
  /** By id alone: the checkout id is the bearer secret of the widget's requests; callers check the merchant. */
  getCheckout(id: string): Promise<Checkout | undefined>;
  /**
   * The engine ran a submission (the pay button was clicked): submittedAt = at, and the
   * shopperResultUrl notification falls due at notifyDueAt unless one is pending already (it
   * keeps its earlier due time). notifiedAt is cleared: this submission has not been notified.
   */
  recordCheckoutSubmission(id: string, at: Date, notifyDueAt: Date): Promise<void>;
  /**
   * A submission made a payment that did not complete the checkout (declined): it is the
   * checkout's latest attempt, whose result the status answers while the checkout is open.
   */
  recordCheckoutAttempt(id: string, paymentId: string, resultCode: string): Promise<void>;
  /**
   * The checkout's pending payment `paymentId` ended with `resultCode`: the checkout stays
   * completed (at `at`) when it succeeded, and opens again for another attempt when not.
   */
  settleCheckoutPayment(
    id: string,
    paymentId: string,
    resultCode: string,
    at: Date,
    completed: boolean,
  ): Promise<void>;
  /**
   * The merchant updated an open checkout (POST /v1/checkouts/{id}): its parameters, money and
   * shopperResultUrl are replaced; false (and nothing changed) when it was completed meanwhile.
   */
  updateCheckout(
    id: string,
    terms: Pick<Checkout, 'parameters' | 'amount' | 'currency' | 'shopperResultUrl'>,
  ): Promise<boolean>;
  /** Completes an open checkout; false (and nothing changed) when it was completed already. */
  completeCheckout(id: string, completion: CheckoutCompletion): Promise<boolean>;
  /** A status GET: recorded, and it cancels a pending notification (the merchant has the status now). */
  recordCheckoutStatusFetched(id: string, at: Date): Promise<void>;
}

/** The shopperResultUrl notifications of checkouts (server/workers/shopper-result-notifier.ts). */
export interface CheckoutNotificationStore {
  /**
   * Claims up to `limit` checkouts whose notification is due at `now` (not notified yet), oldest
   * due first. A claim moves the due time to `leaseUntil` and counts an attempt: a claimer that
   * dies before finishing leaves the checkout due again then (at least once), and no other
   * claimer, in this process or another on the same database, gets it meanwhile.
   */
  claimCheckoutNotifications(now: Date, leaseUntil: Date, limit: number): Promise<Checkout[]>;
  /** The notification was delivered: notifiedAt = at, nothing further due. */
  markCheckoutNotified(id: string, at: Date): Promise<void>;
  /** No notification is due any more (given up after the last attempt). */
  cancelCheckoutNotification(id: string): Promise<void>;
}

/** Merchants. */
export interface MerchantDirectory {
  insertMerchant(merchant: Merchant): Promise<void>;
  getMerchant(id: string): Promise<Merchant | undefined>;
  /** Turns channel dispatching on or off; false when no such merchant. */
  setMerchantDispatching(id: string, on: boolean): Promise<boolean>;
  listMerchants(): Promise<Merchant[]>;
}

/** Merchants' channels and their settings. */
export interface ChannelStore {
  insertChannel(channel: Channel): Promise<void>;
  getChannel(id: string): Promise<Channel | undefined>;
  listChannels(merchantId: string): Promise<Channel[]>;
  updateChannelSettings(id: string, settings: Channel['settings']): Promise<void>;
}

/** Access tokens (their secrets as hashes only). */
export interface TokenStore {
  insertToken(token: AccessToken): Promise<void>;
  getTokenByUserId(userId: string): Promise<AccessToken | undefined>;
  listTokens(merchantId: string): Promise<AccessToken[]>;
  revokeToken(id: string, at: Date): Promise<boolean>;
}

/** Idempotency-Key responses (server/http/middleware/idempotency). */
export interface IdempotencyStore {
  /**
   * Stores the first response under the key, or returns the one already stored. A stored one
   * created before `replaceBefore` has expired: it is replaced, as if the key were new.
   */
  rememberResponse(response: IdempotentResponse, replaceBefore: Date): Promise<IdempotentResponse>;
  getResponse(merchantId: string, key: string, notBefore: Date): Promise<IdempotentResponse | undefined>;
}

/** Serialisation of tasks by key, across processes on PostgreSQL. */
export interface Exclusive {
  /**
   * Runs the task while no other task with the same key runs, in this process or (PostgreSQL)
   * in any process on the same database: references to one payment, retries of one
   * Idempotency-Key.
   */
  exclusive<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/** Every storage role port, and close(): what the composition root opens. */
export interface Store
  extends PaymentStore,
    PaymentSessionStore,
    RegistrationStore,
    CheckoutStore,
    CheckoutNotificationStore,
    MerchantDirectory,
    ChannelStore,
    TokenStore,
    IdempotencyStore,
    Exclusive {
  close(): Promise<void>;
}

/**
 * The Idempotency-Key of the request a payment is made for (server/http/middleware/idempotency): written
 * with the payment, so that a crash cannot keep the one and lose the other.
 */
export interface IdempotencyClaim {
  readonly merchantId: string;
  readonly key: string;
  /** Hash of method, path and body: the same key with another request is refused. */
  readonly requestHash: string;
  readonly createdAt: Date;
  /** A response of the key created before this has expired: the claim replaces it. */
  readonly replaceBefore: Date;
}

/** What GET /v1/query searches for; every filter given must match. */
export interface PaymentQuery {
  readonly merchantId: string;
  /** Only payments on these channels; all of the merchant's when undefined (none when empty). */
  readonly channelIds?: readonly string[];
  readonly merchantTransactionId?: string;
  /** created_at at or after this instant. */
  readonly from?: Date;
  /** created_at before this instant (exclusive). */
  readonly until?: Date;
  readonly shortId?: string;
  readonly paymentTypes?: readonly string[];
  /** Only payments of these brands (none when empty). */
  readonly paymentBrands?: readonly string[];
  /** Only payments after this one in the order (created_at, id): the next page. */
  readonly after?: { readonly createdAt: Date; readonly id: string };
  readonly limit: number;
}

/** A search of the Query API among registrations: PaymentQuery's anchors and filters that apply to one. */
export type RegistrationQuery = Pick<
  PaymentQuery,
  'merchantId' | 'channelIds' | 'merchantTransactionId' | 'from' | 'until' | 'paymentBrands' | 'limit'
>;

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export type * from './processor-port';

/** What a wallet's encrypted token holds, once opened: the card it stands for and its cryptogram. */
export interface WalletPayload {
  readonly number: string;
  readonly expiryMonth: string;
  readonly expiryYear: string;
  /** The network's cryptogram (CAVV-like, 28 characters): threeDSecure.verificationId. */
  readonly cryptogram: string;
  readonly eci: string;
  readonly network: string;
  readonly type: string;
}

/** Why a token does not open: not a token, changed, or issued for another wallet, merchant or time. */
export type WalletTokenRefusal = 'malformed' | 'altered' | 'other-wallet' | 'other-merchant' | 'expired';

/**
 * Opens wallet payment tokens (walletX.paymentToken, decisions: Wallets). Tokens are bound to the
 * wallet group and the channel (entityId) they were issued for, and expire.
 */
export interface WalletTokens {
  open(
    wallet: string,
    token: string,
    entityId: string,
    now: Date,
  ): WalletPayload | { readonly refused: WalletTokenRefusal };
}

/** One screened payment under one of its velocity keys (the key's value already hashed, never PII). */
export interface RiskEvent {
  readonly merchantId: string;
  readonly channelId: string;
  readonly kind: VelocityKind;
  /** The card fingerprint, or the keyed hash of the e-mail address or IP (engine/steps/risk-check.ts). */
  readonly value: string;
  /** The screened amount (risk.amount when sent) in minor units of `currency`. */
  readonly amount: number;
  readonly currency: string;
  readonly at: Date;
}

/**
 * The history of screened payments that velocity limits count (risk_events), per channel: the
 * channel's limits count the channel's payments. Keys arrive hashed (engine/steps/risk-check.ts).
 */
export interface RiskLedger {
  /** The channel's events of `key` at or after `since`: how many, and their volume per currency. */
  countRiskEvents(channelId: string, key: HistoryKey, since: Date): Promise<HistoryCount>;
  recordRiskEvents(events: readonly RiskEvent[]): Promise<void>;
  /**
   * The check and the record of velocity keys as one step: runs `task` while no other task holding
   * one of the channel's `keys` runs — in this process, and on PostgreSQL in every process on the
   * database —; `task` counts through the `count` it is given, and the events it returns are
   * recorded before the keys are let go (PostgreSQL: in the transaction that holds them). Two
   * concurrent attempts of one card thus never see the same count.
   */
  exclusiveRiskKeys<T>(
    channelId: string,
    keys: readonly HistoryKey[],
    task: (count: RiskLedger['countRiskEvents']) => Promise<RiskStepResult<T>>,
  ): Promise<T>;
}

/** What a task under exclusiveRiskKeys gives back: its result, and the events to record with it. */
export interface RiskStepResult<T> {
  readonly result: T;
  readonly events: readonly RiskEvent[];
}
