/**
 * Webhooks as the server keeps them: a merchant's registered endpoints, and the deliveries the
 * outbox holds for them. The port (WebhookStore) is implemented by storage (webhooks/store.ts)
 * beside the engine's ports: the outbox rows are written by the stores' own write transactions
 * (webhooks/outbox.ts). server/webhooks (the dispatcher, registration) uses these; storage
 * imports nothing of it.
 */
import type { Notification, NotificationType } from '../../../shared/engine/core/notification';

export interface Webhook {
  readonly id: string;
  readonly merchantId: string;
  readonly url: string;
  /** The 64-hex key, sealed by the vault. */
  readonly secret: string;
  /** AES-256-GCM (the default), or plain JSON. */
  readonly encrypted: boolean;
  /** The notification types sent to it. */
  readonly types: readonly NotificationType[];
  /** Only PAYMENT notifications of these payment types; every type when undefined. */
  readonly paymentTypes?: readonly string[];
  readonly createdAt: Date;
  readonly deletedAt: Date | null;
  /** Delivers into the gateway's own inbox (storage/inbox/) instead of `url` (empty): test channels only. */
  readonly inbox?: boolean;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

/** One notification for one target, and how its delivery went. */
export interface Delivery {
  /** Ascending in commit order; the delivery's id in the admin API. */
  readonly seq: number;
  readonly merchantId: string;
  /** The webhook; undefined for a notificationUrl callback. */
  readonly webhookId?: string;
  /** The GET of a notificationUrl callback. */
  readonly callbackUrl?: string;
  readonly orderKey: string;
  readonly notification: Notification;
  readonly status: DeliveryStatus;
  /** Attempts since it was created (or redelivered). */
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly createdAt: Date;
  /** Where its retry schedule started: its creation, or its last redelivery. */
  readonly retryFrom: Date;
  readonly lastAttemptAt: Date | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
}

/** What one attempt came to. */
export type AttemptResult =
  | { readonly delivered: true; readonly at: Date; readonly status: number }
  | {
      readonly delivered: false;
      readonly at: Date;
      readonly status?: number;
      readonly error: string;
      /** When to try again; undefined: the retry schedule is over, the delivery is dead-lettered. */
      readonly retryAt?: Date;
    };

export interface DeliveryFilter {
  readonly webhookId?: string;
  readonly status?: DeliveryStatus;
  /** Only deliveries before this seq (the next page of the log, newest first). */
  readonly beforeSeq?: number;
  /** Only deliveries of this order key: a payment and what references it (the original's id). */
  readonly orderKey?: string;
  /** Only notifications of this type (PAYMENT, REGISTRATION, RISK, SCHEDULE, test). */
  readonly type?: string;
  readonly limit: number;
}

export interface WebhookStore {
  insertWebhook(webhook: Webhook): Promise<void>;
  getWebhook(merchantId: string, id: string): Promise<Webhook | undefined>;
  /** The merchant's webhooks that are not deleted, oldest first. */
  listWebhooks(merchantId: string): Promise<Webhook[]>;
  /** False when there was none to delete. Its pending deliveries are dead-lettered with it. */
  deleteWebhook(merchantId: string, id: string, at: Date): Promise<boolean>;
  /**
   * Claims up to `limit` due deliveries, each the oldest pending one of its target and order key
   * (so a payment's notifications go out in order), moving their due time to `leaseUntil` and
   * counting an attempt. A compare-and-set per row: of several dispatchers (processes sharing
   * one PostgreSQL) exactly one gets a delivery, and one that dies leaves it due again at
   * `leaseUntil`.
   */
  claimDeliveries(now: Date, leaseUntil: Date, limit: number): Promise<Delivery[]>;
  /**
   * Records the attempt the claim `claimed` made. False (nothing changed) when the delivery was
   * claimed again meanwhile (its lease ran out): the newer claim's result counts.
   */
  recordAttempt(claimed: Delivery, result: AttemptResult): Promise<boolean>;
  /**
   * Gives back a claim whose attempt was abandoned (a dispatcher shutting down): due again at `at`,
   * its attempt not counted, so another process takes it at once rather than when the lease ends.
   * False (nothing changed) when it was claimed again or recorded meanwhile.
   */
  releaseDelivery(claimed: Delivery, at: Date): Promise<boolean>;
  getDelivery(merchantId: string, seq: number): Promise<Delivery | undefined>;
  /** The delivery log, newest first. */
  listDeliveries(merchantId: string, filter: DeliveryFilter): Promise<Delivery[]>;
  /** A finished delivery (delivered or dead-lettered) is sent again at `now`, its retry schedule restarted. False when pending. */
  redeliver(merchantId: string, seq: number, now: Date): Promise<boolean>;
}
