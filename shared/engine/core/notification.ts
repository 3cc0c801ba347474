/**
 * What a change tells the merchant, as storage receives it: the engine renders each notification
 * (engine/answers/notifications.ts) where it records the change, and hands it to the store with
 * the change, which writes both in one transaction (the outbox). Storage routes and orders what
 * it is given; it never renders an answer.
 */

export const NOTIFICATION_TYPES = ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
/**
 * What a webhook registered without `types` receives (decisions, "Notifications"): payments and
 * registrations, as the family's receivers expect; SCHEDULE and RISK only when asked for.
 */
export const DEFAULT_NOTIFICATION_TYPES: readonly NotificationType[] = ['PAYMENT', 'REGISTRATION'];
export type NotificationAction = 'CREATED' | 'UPDATED' | 'DELETED';

/** The decrypted body of a webhook notification. */
export interface Notification {
  readonly type: NotificationType;
  /** CREATED, UPDATED (a pending payment's end, a changed payment) or DELETED (registrations). */
  readonly action?: NotificationAction;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A change to notify, with what delivery needs to route and order it. */
export interface Change {
  readonly merchantId: string;
  readonly type: NotificationType;
  /**
   * The notification, rendered only when some target wants it: a change of a merchant without
   * webhooks costs nothing beyond the check.
   */
  readonly notification: () => Notification;
  /**
   * Deliveries with the same key go out in the order of their changes: a payment's own changes
   * and the payments referencing it (captures, refunds, chargebacks of it) share its id.
   */
  readonly orderKey: string;
  /** The payment's type, for webhooks that ask for some payment types only. */
  readonly paymentType?: string;
  /** The deprecated notificationUrl callback, when the payment carried one. */
  readonly callbackUrl?: string;
  readonly at: Date;
}

/**
 * The notifications of a change whose record the store reads in its transaction (a deregistered
 * registration, a schedule with its runs): the engine's rendering of what was stored.
 */
export type Tell<T> = (stored: T) => readonly Change[];
