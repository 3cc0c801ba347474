/**
 * The connector kit's contract: what every connector kind implements, one operation per thing a
 * processor does for a payment (DECISIONS, "Connectors and processors"; issue 32 point 7). On the
 * Hyperswitch model: every connector behind this one interface, and inside its folder
 * (`server/connectors/<kind>/`) a request transformer (the engine's order → the processor's
 * request), a response transformer (the processor's answer → `ConnectorAnswer`) and the client
 * (the transport). `kit/processor.ts` turns any connector into the engine's Processor port
 * (shared/engine/core/processor-port.ts) and maps its answers onto the family's result codes, so
 * a connector never decides what the merchant is told.
 *
 * An operation a kind cannot do answers `notSupported(operation)`, never throws: the kit answers
 * it as 600.200.201 (the channel is not configured for it) before anything is sent anywhere.
 */
import type { Payment, Registration } from '../../../shared/engine/core/model';
import type {
  ConnectorReply,
  PayOrder,
  ReferenceOrder,
  RegisterOrder,
  RegistrationPayOrder,
  Technical,
} from '../../../shared/engine/core/ports';
import type { Minor } from '../../../shared/money';

/** The operations of the contract, in the words of the issue. */
export const OPERATIONS = [
  'authorize',
  'debit',
  'credit',
  'capture',
  'reverse',
  'refund',
  'rebill',
  'register',
  'payWithRegistration',
  'authenticate',
  'finish',
  'inquire',
  'inquireRegistration',
  'settle',
  'verifyNotification',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/**
 * What a processor answered, in the family's terms: the response transformer's output (the
 * engine's ConnectorReply). `code` is the family's code for what the processor said (a success as
 * any success code, refusals as the §1 decline codes, 900.100.300 when the outcome is uncertain);
 * the kit turns a success into the mode's own code. `processorCode` is the processor's own code
 * (resultDetails.AcquirerResponse), `id` its reference (resultDetails.ConnectorTxID1), then
 * avsResponse/cvvResponse (`result`), the issuer's `card` details, `risk.score` and its other
 * `resultDetails`.
 */
export type ConnectorAnswer = ConnectorReply & {
  /** What a verified notification names (verifyNotification's answer only). */
  readonly notice?: NotificationNotice;
};

/**
 * What `verifyNotification` says a notification is about, for the processors' notification route
 * (server/http/routes/connector-notifications.ts): the payment, by the gateway's id (the
 * reference the connector sent) or else the processor's (its ConnectorTxID1). A notification
 * whose signature is not the processor's answers 800.900.300 (INVALID_AUTH) and no notice: the
 * route answers 401 and changes nothing.
 */
export interface NotificationNotice {
  /** The processor's key of this event (the same key again is the same notification). */
  readonly eventId: string;
  /** The gateway's id of the payment it is about. */
  readonly gatewayId?: string;
  /** The processor's id of the payment when the gateway's is not said. */
  readonly theirId?: string;
  /** The body the processor expects in the answer ("[accepted]" for Adyen); none: an empty 200. */
  readonly acknowledgement?: string;
}

/*
 * `technical` (ConnectorReply.technical), what a transport failure leaves known; every kind's
 * client sets it, and the kit and the routing read it:
 * - `refused`: nothing reached the processor (connection refused, no such host, no route, the
 *   connection not made in time, the egress policy, a proxy's 4xx without the processor's answer):
 *   a known failure (999.999.999); the routing may try the next connector.
 * - `uncertain`: the request may have been processed (no answer in time, a connection reset or
 *   closed mid-answer, a 5xx, an unreadable or truncated answer): code 900.100.300, never a
 *   failure and never sent again. An initial payment is pending (000.200.000) until `inquire`
 *   says what happened (kit/processor.ts uncertainDecisionOf, shared/engine/steps/inquiry.ts);
 *   the routing never falls back after it.
 */

/** The typed "not supported" answer of an operation a kind does not do. */
export interface NotSupported {
  readonly notSupported: Operation;
}

export const notSupported = (operation: Operation): NotSupported => ({ notSupported: operation });

export function isNotSupported(answer: ConnectorAnswer | NotSupported): answer is NotSupported {
  return 'notSupported' in answer;
}

export type Answer = Promise<ConnectorAnswer | NotSupported>;

/** A payment of the processor's, by its own id, with the order that references it. */
export interface ReferencedOrder extends ReferenceOrder {
  /** The processor's id of the referenced payment (its ConnectorTxID1). */
  readonly theirId: string;
}

/** A payment with a registration the processor stored, by its id. */
export interface StoredRegistrationOrder extends RegistrationPayOrder {
  readonly theirRegistrationId: string;
  /**
   * The scheme's network transaction id of the cardholder's first payment, when the routing kept
   * it (routing/held.ts): a merchant-initiated repeat quotes it (the gateway's own agreement ids are
   * not the processor's).
   */
  readonly networkTransactionId?: string;
}

/**
 * A merchant-initiated repeat of a card registered at another connector (routing/migrate.ts):
 * the card itself goes (`decide.instrument`, no CVV) as a stored credential, with the scheme's
 * network transaction id of the cardholder-initiated payment that stored it.
 */
export interface CardOnFile {
  readonly networkTransactionId: string;
  /** The standing instruction's type: the schemes' category of the repeat. */
  readonly type: 'RECURRING' | 'UNSCHEDULED' | 'INSTALLMENT';
}

/**
 * An initial payment; `theirOriginalId` when it links to one the processor made (referenceUuid);
 * `cardOnFile` when it is a merchant-initiated repeat of a card stored elsewhere.
 */
export interface InitialOrder extends PayOrder {
  readonly theirOriginalId?: string;
  readonly cardOnFile?: CardOnFile;
}

/** What the shopper brought back to the gateway's return address after the processor's page. */
export interface ShopperReturn {
  readonly payment: Payment;
  readonly parameters: Readonly<Record<string, string>>;
  /** No return within the payment's 30 minutes: its last ask (FinishOrder.abandoned). */
  readonly abandoned?: true;
}

/** A notification as the processor sent it, for its own signature scheme. */
export interface ProcessorNotification {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One day of the processor's records, for the settlement run. */
export interface SettlementDay {
  readonly day: string;
}

/**
 * What the processor settled for one of its payments on the day (its reconciliation records of
 * that payment): the settlement run writes these amounts, rate and fee instead of computing its
 * own. Money in minor units of the currency beside it, never a float.
 */
export interface ProcessorSettlement {
  /** The processor's id of the payment (the gateway's ConnectorTxID1 of it). */
  readonly theirId: string;
  /** The gateway's id of the payment, when the processor's record carries the reference sent. */
  readonly gatewayId?: string;
  /** The family's payment type the processor's record is of (DB, RF, CD, CB, CR; PA, RV: a fee only). */
  readonly paymentType: 'DB' | 'RF' | 'CD' | 'CB' | 'CR' | 'PA' | 'RV';
  /** The payment as the processor processed it. */
  readonly amount: Minor;
  readonly currency: string;
  readonly brand?: string;
  readonly requestTime?: Date;
  /** What was settled, in the settlement currency. */
  readonly settlement: {
    readonly currency: string;
    /** Undefined for a payment that only cost a fee (PA, RV). */
    readonly amount?: Minor;
    readonly fee?: Minor;
    /** Units of the settlement currency per unit of the payment's, as the processor wrote it. */
    readonly fxRate: string;
    readonly status: 'SUCCESS' | 'FAILED';
  };
}

/** The processor's records of a day; `reported: false` while it has not settled the day yet. */
export interface ProcessorDay {
  readonly reported: boolean;
  readonly settlements: readonly ProcessorSettlement[];
}

/** The processor could not be asked (its records are read again on the next run). */
export interface ProcessorUnreachable {
  readonly technical: Technical;
}

/**
 * One connector of a kind, bound to a channel's credentials. Every operation is required: a kind
 * says `notSupported` explicitly, and the scenario suite's table
 * (server/test-kit/connectors/scenarios.ts) shows what each kind does.
 */
export interface ConnectorContract {
  /** authorize (PA): money held for a later capture. */
  authorize(order: InitialOrder): Answer;
  /** debit (DB): authorised and captured at once. */
  debit(order: InitialOrder): Answer;
  /** credit (CD): money paid to the account. */
  credit(order: InitialOrder): Answer;
  /** capture (CP) of an authorisation, in full or in part. */
  capture(order: ReferencedOrder): Answer;
  /** reverse (RV): an authorisation or a same-day payment undone. */
  reverse(order: ReferencedOrder): Answer;
  /** refund (RF) of a captured payment, in full or in part; over its amount the processor refuses. */
  refund(order: ReferencedOrder): Answer;
  /** rebill (RB): a repeat charge of a payment the processor made. */
  rebill(order: ReferencedOrder): Answer;
  /** register (RG): the account data stored with the processor, answering its registration id. */
  register(order: RegisterOrder): Answer;
  /** A payment with a registration the processor stored (one-click, merchant-initiated repeats). */
  payWithRegistration(order: StoredRegistrationOrder): Answer;
  /**
   * Stand-alone 3-D Secure run by the processor (POST /v1/threeDSecure): its results at once, or
   * pending with its challenge as `redirect` (the shopper sent back to `order.returnUrl`).
   */
  authenticate(order: InitialOrder): Answer;
  /**
   * The verdict of a payment the processor answered pending with a `redirect` (its challenge, its
   * provider), once the shopper came back to the gateway's return address: the processor's own
   * state of the payment, with its 3-D Secure results; pending while it has no verdict yet.
   */
  finish(returned: ShopperReturn): Answer;
  /**
   * What happened to a payment whose outcome is uncertain (the processor's status or search API),
   * found by the gateway's own id (`payment.id`), which the connector sent as its reference with
   * the payment (opp: merchantTransactionId; a kind's own reference or idempotency field else).
   * Answers the processor's answer of that payment as `debit`/`authorize` would have; pending
   * (000.200.000) while the processor decides; 700.400.580 when it has no such payment; a
   * `technical` failure when it could not be asked (the gateway asks again later). A capture,
   * refund, reversal or rebill comes with `referenced`, the payment it modified (Stripe reads the
   * PaymentIntent; opp searches by the modification's own reference).
   */
  inquire(payment: Payment, referenced?: Payment): Answer;
  /**
   * What happened to a registration whose outcome is uncertain, found by the gateway's own id
   * (`registration.id`, sent as its reference with the registration): the processor's answer of
   * it as `register` would have given it (its id the registration's there), 700.400.580 when it
   * has none, pending while it decides, a `technical` failure when it could not be asked;
   * `notSupported` when the processor offers no way to ask (the gateway stops asking a week on).
   */
  inquireRegistration(registration: Registration): Answer;
  /** The processor's records of a day (settlement, FX and fees), for the settlement run. */
  settle(day: SettlementDay): Promise<ProcessorDay | ProcessorUnreachable | NotSupported>;
  /** Whether a notification is the processor's own (its signature scheme), and what it says. */
  verifyNotification(notification: ProcessorNotification): Answer;
  /**
   * The brands the processor processes (the catalogue's names); the live widget offers only
   * these on the channel. Undefined: every brand of the catalogue (a gateway of the family).
   */
  readonly brands?: readonly string[];
  /**
   * The kind charges a merchant-initiated repeat of a card stored elsewhere (`InitialOrder.cardOnFile`:
   * the card as a stored credential with the scheme's network transaction id); a kind without it
   * is never sent one (server/connectors/routing/migrate.ts).
   */
  readonly takesCardOnFile?: boolean;
}
