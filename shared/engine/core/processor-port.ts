/**
 * The processor port: who decides a payment (the simulator for test mode INTERNAL, the channel's
 * connector for EXTERNAL and live) and what the engine asks of it (pay, reference, register, pay
 * with a registration; 3-D Secure, redirect providers, BIN lookup, FX). Re-exported by ports.ts.
 */
import type {
  Channel,
  ConnectorSettings,
  OppConnectorSettings,
  Payment,
  Registration,
  TestMode,
} from './model';
/** The credentials the opp client (the Connector port) sends with: another gateway of the family. */
export type ConnectorTarget = OppConnectorSettings;
/** A channel's connector settings of any kind (server/connectors/registry.ts). */
export type AnyConnectorTarget = ConnectorSettings;

// ---- The processor port --------------------------------------------------------------------------

/** What a processor decided: the result code, avs/cvv answers beside it, and resultDetails. */
export interface Decision {
  readonly testMode?: TestMode;
  readonly code: string;
  /** avsResponse and cvvResponse, beside result.code. */
  readonly result: Record<string, string>;
  readonly resultDetails: Record<string, string>;
  /**
   * The issuer's card details the processor answered (type, level, country, issuer.*, …), answered
   * as `card.*` beside the gateway's own bin and last4Digits; a connector's, never simulated.
   */
  readonly card?: Readonly<Record<string, unknown>>;
  /** The processor's risk verdict (risk.score), answered over the gateway's own score. */
  readonly risk?: Readonly<Record<string, string>>;
  /**
   * A technical failure, and what is known of it (server/connectors/kit/contract.ts): `refused`,
   * nothing reached the processor (a known failure, another connector may be tried); `uncertain`,
   * the request may have been processed (the payment is pending until the processor is asked).
   */
  readonly technical?: Technical;
  /**
   * Where the processor wants the shopper (its 3-D Secure challenge, its provider's page) when it
   * answered pending: kept with the payment; the merchant is answered a redirect of the gateway's
   * own (engine/steps/processor-pending.ts), never this one.
   */
  readonly redirect?: ProcessorRedirect;
  /** The processor's 3-D Secure results (eci, authenticationStatus, xid, dsTransactionId …). */
  readonly threeDSecure?: Readonly<Record<string, string>>;
}

/** A processor's redirect: where the shopper goes, by what method, with what parameters. */
export interface ProcessorRedirect {
  readonly url: string;
  /** POST unless the processor says GET. */
  readonly method?: string;
  readonly parameters: readonly { readonly name: string; readonly value: string }[];
}

/** A payment a processor left pending with its redirect, once the shopper came back to the gateway. */
export interface FinishOrder {
  readonly channel: Channel;
  readonly payment: Payment;
  /** What the shopper brought back (the return address's query or form). */
  readonly parameters: Readonly<Record<string, string>>;
  readonly now: Date;
  /**
   * The payment's 30 minutes are over without the shopper's return: the processor is asked a last
   * time, and one that keeps an unfinished payment open (Stripe's requires_action) is told to drop
   * it, so that the shopper's late word there charges nothing the merchant was told had timed out.
   */
  readonly abandoned?: true;
}

/** What a technical failure leaves known: nothing was sent (`refused`), or it may have been processed. */
export type Technical = 'refused' | 'uncertain';

/** The account data a processor decides on, as the engine hands it over (instruments.ts). */
export type ProcessorInstrument =
  | {
      readonly kind: 'card';
      readonly brand: string;
      readonly number: string;
      readonly expiryMonth: string;
      readonly expiryYear: string;
      readonly cvv?: string;
      readonly holder?: string;
    }
  | { readonly kind: 'bankAccount'; readonly iban?: string; readonly holder?: string }
  /** A network or provider token: a card number with an optional expiry and no CVV. */
  | {
      readonly kind: 'tokenAccount';
      readonly brand: string;
      readonly number: string;
      readonly expiryMonth?: string;
      readonly expiryYear?: string;
    }
  | { readonly kind: 'virtualAccount'; readonly brand: string; readonly accountId: string }
  /** Whether the gift card came with its number and PIN; the values themselves are not needed. */
  | { readonly kind: 'giftCard'; readonly hasNumber: boolean; readonly hasPin: boolean }
  /** A card stored with a registration: its number was checked when it was stored. */
  | {
      readonly kind: 'storedCard';
      readonly brand: string;
      readonly expiryMonth: string;
      readonly expiryYear: string;
      readonly cvv?: string;
    }
  | { readonly kind: 'other' };

/** The instrument and the few request fields a processor that decides locally reads. */
export interface ProcessorRequest {
  readonly instrument: ProcessorInstrument;
  readonly customParameters?: Readonly<Record<string, string>>;
  /**
   * The billing address lines address verification compares (the AVS letter); undefined when the
   * request sent no billing address.
   */
  readonly billing?: BillingAddress;
}

/** What address verification (AVS) reads of `billing.*`. */
export interface BillingAddress {
  readonly street1?: string;
  readonly postcode?: string;
}

/** An initial payment (PA authorise, DB debit, CD credit, PA/DB on a referenceUuid). */
export interface PayOrder {
  readonly channel: Channel;
  /** The validated request as sent (a forwarding processor sends it on, without our credentials). */
  readonly request: object;
  /** The instrument to decide on (a linked original's stored card when the request sends none). */
  readonly decide: ProcessorRequest;
  /** The original a referenceUuid links to, when there is one (already checked by the engine). */
  readonly original?: Payment;
  readonly now: Date;
  /**
   * The id the payment will have here, known before the processor is asked: a connector sends
   * it as its own reference, to find the payment by it when the answer was lost (inquire).
   */
  readonly paymentId?: string;
  /**
   * The gateway's own return address for this payment (absolute): a processor that sends the
   * shopper to a page of its own (3-D Secure, a provider) sends them back there, never to the
   * merchant's shopperResultUrl, so that the gateway hears of it and finishes the payment.
   */
  readonly returnUrl?: string;
}

/** CP capture, RF refund, RV reverse, RB rebill of a payment this processor made. */
export interface ReferenceOrder {
  readonly channel: Channel;
  readonly paymentType: 'CP' | 'RF' | 'RV' | 'RB';
  readonly referenced: Payment;
  readonly request: object;
  /** The workflow's verdict was ok: the simulator accepts; a connector asks its system. */
  readonly now: Date;
  /** The id the new payment (the CP, RF, RV, RB) will have here: as PayOrder.paymentId. */
  readonly paymentId?: string;
}

/** RG: storing account data (a connector registers it on its side and answers its id). */
export interface RegisterOrder {
  readonly channel: Channel;
  readonly request: object;
  readonly decide: ProcessorRequest;
  readonly now: Date;
  /**
   * The id the registration will have here, known before the processor is asked (as
   * PayOrder.paymentId): a connector's reference and idempotency keys, the same on a retry.
   */
  readonly paymentId?: string;
}

/** A payment with a stored registration (one-click, MIT repeats, scheduled runs). */
export interface RegistrationPayOrder {
  readonly channel: Channel;
  readonly registration: Registration;
  readonly request: object;
  readonly decide: ProcessorRequest;
  readonly now: Date;
  /** The id the payment will have here: as PayOrder.paymentId. */
  readonly paymentId?: string;
}

/** What an issuer lookup says about a card's 6-digit BIN. */
export interface BinInfo {
  /** CREDIT, DEBIT or PREPAID. */
  readonly type: string;
  /** The scheme's product level. */
  readonly level: string;
  readonly issuer: { readonly bank: string; readonly phone: string; readonly website: string };
  /** The issuer's ISO 3166 alpha-2 country: the card country the risk checks screen. */
  readonly country: string;
  /** Whether the card's interchange is capped by regulation (card.regulatedFlag). */
  readonly regulated: boolean;
}

/** EMV 3-D Secure transStatus: authenticated, attempted, unavailable, not authenticated, rejected. */
export type AuthenticationStatus = 'Y' | 'A' | 'U' | 'N' | 'R';

/** How an access control server treats a card. */
export type CardProfile =
  /** The ACS decides without the shopper. */
  | { readonly flow: 'frictionless'; readonly status: AuthenticationStatus; readonly methodData: boolean }
  /** The ACS asks the shopper (one-time code on the challenge page). */
  | { readonly flow: 'challenge'; readonly methodData: boolean }
  /** The card is in an enrolled range, but its issuer takes no part: 000.400.101. */
  | { readonly flow: 'not-participating' };

/** What an ACS is asked about a card. */
export interface AuthenticationRequest {
  readonly number: string;
  /** The amount authenticated (risk.amount, else threeDSecure.amount, else amount), decimal as sent. */
  readonly amount?: string;
  readonly currency?: string;
  readonly customParameters?: Readonly<Record<string, string>>;
  readonly challengeIndicator?: string;
  readonly exemptionFlag?: string;
}

/** What an authentication answers, as `threeDSecure.*` of the payment. */
export interface AuthenticationResult {
  readonly eci?: string;
  /** CAVV / AAV: 28 characters (20 bytes, base64). Only when authenticated or attempted. */
  readonly verificationId?: string;
  readonly authenticationStatus: AuthenticationStatus;
  readonly dsTransactionId: string;
  readonly acsTransactionId: string;
  readonly version: string;
  readonly authType?: string;
  readonly transactionStatusReason?: string;
  readonly challengeMandatedIndicator?: string;
}

/** The ids a directory server and an ACS give one authentication (version 4 UUIDs, 36 characters). */
export interface TransactionIds {
  readonly dsTransactionId: string;
  readonly acsTransactionId: string;
}

/** 3-D Secure 2 as the gateway runs it: the directory server and the issuer's ACS it asks. */
export interface AccessControlServer {
  /** The card's enrolment and flow; undefined when the card is not enrolled. */
  profileOf(request: AuthenticationRequest): CardProfile | undefined;
  newTransactionIds(): TransactionIds;
  /** The ACS's result of an authentication that ended with `status`. */
  authenticationResult(
    brand: string,
    status: AuthenticationStatus,
    ids: TransactionIds,
    how?: { readonly authType?: string; readonly challengeMandated?: boolean },
  ): AuthenticationResult;
}

export type RedirectMethodKind = 'onlineTransfer' | 'wallet' | 'payLater';

/** A payment method whose shopper approves on the provider's page (redirect providers). */
export interface RedirectMethod {
  readonly kind: RedirectMethodKind;
  /** What the provider's page calls the provider. */
  readonly title: string;
  /** What the shopper does there, in a few words. */
  readonly step: string;
  /** The catalogue code of a decline at the provider. */
  readonly declineCode: string;
  /**
   * What the provider issues the moment the payment is created, for the merchant's answer as
   * `resultDetails` (name/value pairs): a voucher's reference and due date, the voucher due by
   * `dueBy` (when the pending payment would time out). Absent: nothing is issued.
   */
  issue?(paymentId: string, dueBy: Date): Readonly<Record<string, string>>;
}

/** What the shopper can do on a provider's or issuer's page. */
export type ShopperAction = 'approve' | 'decline' | 'cancel';

/**
 * Who decides a payment: the one port between the engine and the outside world of money.
 * Test mode INTERNAL: the simulators (server/processors/simulator); EXTERNAL and live: the
 * channel's connector (server/connectors). The engine validates, loads, screens, asks the
 * processor, records and answers; it never knows which processor it asked.
 *
 * A decision never throws: transport failures come back as result codes (900.100.300).
 * `kind` names who decided, for resultDetails.clearingInstituteName and the logs.
 */
export interface Processor {
  readonly kind: 'simulator' | 'connector' | 'none';
  /** The environment the processor decides in: INTERNAL, EXTERNAL, or undefined for live. */
  readonly testMode: TestMode | undefined;
  /** authorise (PA), debit (DB), credit (CD) and linked payments (referenceUuid). */
  pay(order: PayOrder): Promise<Decision>;
  /** capture (CP), refund (RF), reverse (RV), rebill (RB). */
  reference(order: ReferenceOrder): Promise<Decision>;
  /**
   * Registration (RG): checks the account data; a connector stores it on its side and answers
   * its own id as resultDetails.ConnectorRegistrationID.
   */
  register(order: RegisterOrder): Promise<Decision>;
  /** A payment with a registration this processor accepted. */
  payWithRegistration(order: RegistrationPayOrder): Promise<Decision>;
  /** The issuer lookup (card.type, card.level, card.issuer.*, the risk checks' card country). */
  binInfo?(bin: string): BinInfo | undefined;
  /**
   * 3-D Secure run by the gateway (a challenge or decoupled authentication leaves the payment
   * pending); a processor without one authenticates on its side, or not at all.
   */
  readonly accessControlServer?: AccessControlServer;
  /** The redirect method of a brand, whose shopper approves on the provider's page. */
  redirectMethod?(brand: string): RedirectMethod | undefined;
  /** Units of `to` per unit of `from` (6 decimals) as the processor converts; undefined when unknown. */
  fxRate?(from: string, to: string): string | undefined;
  /**
   * What happened to a payment whose outcome was uncertain, asked of the processor by the
   * gateway's own id: its verdict; 700.400.580 when it has no such payment; pending (000.200.000)
   * while it decides; `technical` set when it could not be asked.
   */
  inquire?(payment: Payment, channel: Channel, referenced?: Payment): Promise<Decision>;
  /**
   * What happened to a registration whose outcome was uncertain (pending, 000.200.000), asked of
   * the processor by the gateway's own registration id: its verdict (a success with its own id
   * as resultDetails.ConnectorRegistrationID), 700.400.580 when it has none, pending while it
   * decides, `technical` set when it could not be asked (refused: this processor cannot be asked).
   */
  inquireRegistration?(registration: Registration, channel: Channel): Promise<Decision>;
  /**
   * The verdict of a payment this processor left pending with its redirect, once the shopper came
   * back (a connector reads it from its processor); pending again while the processor has none.
   */
  finish?(order: FinishOrder): Promise<Decision>;
  /** Stand-alone 3-D Secure run by the processor (POST /v1/threeDSecure on a connector channel). */
  authenticate?(order: PayOrder): Promise<Decision>;
  /** The brands the processor processes; undefined: every brand of the catalogue. */
  readonly brands?: readonly string[];
}

/**
 * The processors a gateway has: the simulators of test mode INTERNAL, and the connector of a
 * channel (EXTERNAL, LIVE), if it has one. The engine picks one per payment (engine/core/processor.ts).
 */
export interface Processors {
  readonly simulator: Processor;
  /** The channel's connector for the environment; undefined when the channel has none. */
  connector(channel: Channel, environment: 'EXTERNAL' | 'LIVE'): Processor | undefined;
}

/** What a connector answered, in the family's terms. */
export interface ConnectorReply {
  readonly code: string;
  readonly description?: string;
  /** The connector's own id of the transaction, to reference it later. */
  readonly id?: string;
  /** The registration the connector made along (createRegistration=true), by its own id. */
  readonly registrationId?: string;
  /** The processor's own result or response code (resultDetails.AcquirerResponse). */
  readonly processorCode?: string;
  /** result.avsResponse and result.cvvResponse as the processor answered them. */
  readonly result?: Readonly<Record<string, string>>;
  /** The issuer's card details the processor knows: type, level, country, issuer.*, regulatedFlag. */
  readonly card?: Readonly<Record<string, unknown>>;
  /** The processor's risk verdict: risk.score. */
  readonly risk?: Readonly<Record<string, string>>;
  /** The processor's other resultDetails, passed on (the gateway's own win on the same name). */
  readonly resultDetails?: Readonly<Record<string, string>>;
  /** A technical failure: nothing sent (`refused`), or an outcome unknown (`uncertain`). */
  readonly technical?: Technical;
  /** Where the processor sends the shopper when it answered pending (its challenge, its provider). */
  readonly redirect?: ProcessorRedirect;
  /** The processor's 3-D Secure results. */
  readonly threeDSecure?: Readonly<Record<string, string>>;
}

/** A GET of the processor's API (the Query API): its JSON, or the technical failure that left none. */
export type ConnectorFetched = { readonly json: unknown } | { readonly technical: Technical };

/**
 * testMode=EXTERNAL: forwards a request to the channel's connector. Never throws: transport
 * failures come back as result codes (timeouts as 900.100.300, uncertain).
 */
export interface Connector {
  send(target: ConnectorTarget, path: string, body: string): Promise<ConnectorReply>;
  /** GET `path` (with its query string) of the processor's API: what an inquiry reads. */
  get?(target: ConnectorTarget, path: string): Promise<ConnectorFetched>;
}
