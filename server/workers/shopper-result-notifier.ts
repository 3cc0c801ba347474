/**
 * The shopperResultUrl notification (spec, States and transitions; Events): when a checkout's
 * payment (or registration) was submitted and the merchant has not fetched its status within 29
 * minutes, the gateway sends `GET <shopperResultUrl>?id=<checkoutId>&resourcePath=/v1/checkouts/
 * <checkoutId>/payment`, so the merchant fetches the final status, as after the shopper's return.
 *
 * Durable: what is due lives in the database (checkouts.notify_due_at), set by the submission and
 * cleared by a status GET, so a restart loses nothing and any process may send it. Each due
 * checkout is claimed first (CheckoutNotificationStore.claimCheckoutNotifications: a compare-and-set UPDATE), so two
 * processes sharing one PostgreSQL never both send it. A claim is a lease: a process that dies
 * (or a GET that fails) leaves the checkout due again after `retryMs`, so delivery is at least
 * once; after `maxAttempts` claims it is given up.
 */

import { resultUrl } from '../../shared/engine/answers/result-url';
import type { Checkout } from '../../shared/engine/core/model';
import type { CheckoutNotificationStore, Clock } from '../../shared/engine/core/ports';
import { resourcePathOf } from '../../shared/engine/operations/checkout';
import type { Logger } from '../security/logger';
import { type Poller, poller } from './poller';

export interface NotifierOptions {
  readonly store: CheckoutNotificationStore;
  readonly clock: Clock;
  /** The HTTP client; global fetch by default. */
  readonly fetch?: typeof fetch;
  /** How often the database is polled for due notifications. */
  readonly intervalMs?: number;
  /** Most notifications claimed per poll. */
  readonly batch?: number;
  /** The claim's lease, and so the delay before a failed notification is tried again; above timeoutMs. */
  readonly retryMs?: number;
  readonly maxAttempts?: number;
  /** How long one GET may take. */
  readonly timeoutMs?: number;
  readonly logger?: Logger;
}

export const DEFAULT_NOTIFY_INTERVAL_MS = 10_000;
const DEFAULT_BATCH = 50;
const DEFAULT_RETRY_MS = 60_000;
const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_TIMEOUT_MS = 10_000;

/** The notification's URL: the shopperResultUrl with the checkout's id and resourcePath. */
export const notificationUrl = (checkout: Pick<Checkout, 'id' | 'kind'>, shopperResultUrl: string): string =>
  resultUrl(shopperResultUrl, checkout.id, resourcePathOf(checkout));

/** One poll (runOnce) claims what is due and sends it, resolving with the number delivered. */
export type ShopperResultNotifier = Poller;

export function shopperResultNotifier(options: NotifierOptions): ShopperResultNotifier {
  const { store, clock, logger } = options;
  const send = options.fetch ?? fetch;
  const intervalMs = options.intervalMs ?? DEFAULT_NOTIFY_INTERVAL_MS;
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  /**
   * Any HTTP answer below 500 but a redirect reached the merchant. Redirects are not followed
   * (the egress policy checked this URL, not the Location): a 3xx is tried again, then given up.
   */
  async function deliver(checkout: Checkout, target: string): Promise<boolean> {
    try {
      const res = await send(notificationUrl(checkout, target), {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel().catch(() => {});
      if (res.status < 500 && (res.status < 300 || res.status >= 400)) return true;
      logger?.warn('shopperResultUrl notification refused', { checkoutId: checkout.id, status: res.status });
    } catch (error) {
      logger?.warn('shopperResultUrl notification failed', { checkoutId: checkout.id, error });
    }
    return false;
  }

  async function notify(checkout: Checkout): Promise<boolean> {
    if (checkout.shopperResultUrl === undefined) {
      // Nowhere to send it: nothing stays due.
      await store.cancelCheckoutNotification(checkout.id);
      return false;
    }
    if (await deliver(checkout, checkout.shopperResultUrl)) {
      await store.markCheckoutNotified(checkout.id, clock.now());
      return true;
    }
    // The claim's lease makes it due again after retryMs; after the last attempt it is given up.
    if (checkout.notifyAttempts >= maxAttempts) await store.cancelCheckoutNotification(checkout.id);
    return false;
  }

  async function poll(): Promise<number> {
    const now = clock.now();
    const due = await store.claimCheckoutNotifications(
      now,
      new Date(now.getTime() + retryMs),
      options.batch ?? DEFAULT_BATCH,
    );
    const sent = await Promise.all(due.map(notify));
    return sent.filter(Boolean).length;
  }

  return poller(poll, intervalMs, (error) =>
    logger?.error('shopperResultUrl notifier poll failed', { error }),
  );
}
