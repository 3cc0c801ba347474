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
import type { Payment } from '../../../shared/engine/core/model';
import type {
  ConnectorReply,
  PayOrder,
  ReferenceOrder,
  RegisterOrder,
  RegistrationPayOrder,
} from '../../../shared/engine/core/ports';

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
export type ConnectorAnswer = ConnectorReply;

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
}

/** An initial payment; `theirOriginalId` when it links to one the processor made (referenceUuid). */
export interface InitialOrder extends PayOrder {
  readonly theirOriginalId?: string;
}

/** What the shopper brought back to the gateway's return address after the processor's page. */
export interface ShopperReturn {
  readonly payment: Payment;
  readonly parameters: Readonly<Record<string, string>>;
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
  /** 3-D Secure run by the processor: pending with its challenge as `redirect`. */
  authenticate(order: InitialOrder): Answer;
  /** The verdict of a payment after the shopper came back from the processor's page. */
  finish(returned: ShopperReturn): Answer;
  /** What happened to a payment whose outcome is uncertain (the processor's status or search API). */
  inquire(payment: Payment): Answer;
  /** The processor's records of a day (settlement, FX and fees). */
  settle(day: SettlementDay): Promise<readonly ConnectorAnswer[] | NotSupported>;
  /** Whether a notification is the processor's own (its signature scheme), and what it says. */
  verifyNotification(notification: ProcessorNotification): Answer;
}
