/**
 * What every operation of the engine is given: its dependencies (the ports and the processors)
 * and its caller, and what a payment operation gives back.
 */
import type { VelocityKind } from '../../risk';
import type { Invalid } from './failure';
import type { Seal } from './instruments';
import type { Channel, Payment } from './model';
import type { Clock, Processors, RiskLedger, Store, WalletTokens } from './ports';

/**
 * A keyed one-way hash (HMAC) for the risk checks: of a card number (`card`, the card fingerprint), of a
 * normalised e-mail address or IP (velocity keys). The same input gives the same value; nothing reverses it.
 */
export type Fingerprint = (kind: VelocityKind, value: string) => string;

export interface EngineDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Encrypts a card number for storage (server/security/vault). */
  readonly seal: Seal;
  /**
   * Who decides: the simulators (test mode INTERNAL) and the channels' connectors (EXTERNAL,
   * live); engine/core/processor.ts picks one per payment.
   */
  readonly processors: Processors;
  /** Opens wallet payment tokens (walletX.paymentToken); without it they are refused. */
  readonly wallets?: WalletTokens;
  /** Card fingerprints and hashed velocity keys for the risk checks (server: vault HMACs); without it no velocity history. */
  readonly fingerprint?: Fingerprint;
  /** The risk checks' velocity history (risk_events); without it velocity limits see no earlier payments. */
  readonly riskHistory?: RiskLedger;
}

export interface Caller {
  readonly merchantId: string;
  readonly channel: Channel;
}

/** A payment operation's answer: the payment recorded (whatever its result), or the request's faults. */
export type Outcome = { readonly kind: 'payment'; readonly payment: Payment } | Invalid;

/** Where a payment comes from, for the flows that send the shopper elsewhere. */
export interface PaymentContext {
  /** The gateway's public origin, for redirect.url (its simulator pages); relative URLs without it. */
  readonly baseUrl?: string;
  /** The checkout whose submission this is: the shopper returns to the checkout's result. */
  readonly checkoutId?: string;
}
