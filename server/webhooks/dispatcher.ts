/**
 * The outbox's dispatcher: claims due deliveries (Store.claimDeliveries: the oldest pending one
 * of each target and order key, by compare-and-set, so that several processes sharing one
 * PostgreSQL never send one attempt twice at the same time) and sends them.
 *
 * - Webhooks get a POST of `{type, action, payload}` (plus buildNumber and timestamp, like every
 *   response), AES-256-GCM encrypted unless the webhook asked for plain JSON (then with account
 *   numbers masked: plain-payload.ts), and signed either way (`X-Signature`, signature.ts). Any
 *   2xx within 30 s delivers it (decisions, Webhooks); redirects are not followed.
 * - notificationUrl callbacks get a GET with id and resourcePath; any 2xx counts.
 *
 * Redirects are never followed (a 3xx is a failed attempt): the egress policy checked the URL
 * given, not where it redirects (server/security/egress.ts).
 *
 * A failed attempt is retried on the schedule of schedule.ts and dead-lettered after 30 days.
 * Delivery is at least once: a process that dies after the receiver answered but before the
 * result is recorded leaves the delivery due again when its lease ends.
 */
import type { Clock } from '../../shared/engine/core/ports';
import type { Logger } from '../security/logger';
import type { Vault } from '../security/vault';
import type { AttemptResult, Delivery, Webhook, WebhookStore } from '../storage/webhooks/model';
import { type Poller, poller } from '../workers/poller';
import { encryptNotification } from './encryption';
import { deliverToInbox, type InboxWriter } from './inbox';
import { plainPayload } from './plain-payload';
import { nextAttemptAt } from './schedule';
import { SIGNATURE_HEADER, signatureOf } from './signature';

export interface DispatcherOptions {
  readonly store: WebhookStore;
  readonly clock: Clock;
  /** Opens the webhooks' sealed keys. */
  readonly vault: Pick<Vault, 'decrypt'>;
  /** buildNumber and timestamp added to every notification. */
  readonly envelope: (at: Date) => { readonly buildNumber: string; readonly timestamp: string };
  /** The HTTP client; global fetch by default. */
  readonly fetch?: typeof fetch;
  readonly intervalMs?: number;
  /** Most deliveries claimed per poll. */
  readonly batch?: number;
  /** How long a receiver may take to answer: 30 s (decisions). */
  readonly timeoutMs?: number;
  readonly logger?: Logger;
  /** The gateway's own inbox: where inbox webhooks' notifications are decrypted and kept (inbox.ts). */
  readonly inbox?: InboxWriter;
  /** Told each attempt's outcome and how long its delivery had waited since it was queued (metrics). */
  readonly observe?: (outcome: DeliveryOutcome, queueAgeSeconds: number) => void;
}

/** An attempt's outcome: delivered, failed (retried later) or dead-lettered (no retry left, or its webhook gone). */
export type DeliveryOutcome = 'delivered' | 'failed' | 'dead_lettered';

export const DEFAULT_DISPATCH_INTERVAL_MS = 2_000;
export const DELIVERY_TIMEOUT_MS = 30_000;
const DEFAULT_BATCH = 50;

export type WebhookDispatcher = Poller;

/** What one attempt sends. */
export interface Request {
  readonly url: string;
  readonly init: RequestInit;
}

/**
 * The request a delivery makes at `at` (the time its signature names); undefined when its webhook
 * is gone. `key`: the webhook's, opened.
 */
export function requestOf(
  delivery: Delivery,
  webhook: Webhook | undefined,
  key: string | undefined,
  envelope: { readonly buildNumber: string; readonly timestamp: string },
  at: Date,
): Request | undefined {
  if (delivery.callbackUrl !== undefined) return { url: delivery.callbackUrl, init: { method: 'GET' } };
  if (webhook === undefined || webhook.deletedAt !== null) return undefined;
  if (key === undefined) throw new Error('the webhook’s key cannot be opened');
  const { payload, ...head } = delivery.notification;
  const full = { ...payload, ...envelope };
  if (!webhook.encrypted) {
    const json = JSON.stringify({ ...head, payload: plainPayload(full) });
    const headers = {
      'Content-Type': 'application/json; charset=UTF-8',
      [SIGNATURE_HEADER]: signatureOf(key, json, at),
    };
    return { url: webhook.url, init: { method: 'POST', body: json, headers } };
  }
  const sealed = encryptNotification(key, JSON.stringify({ ...head, payload: full }));
  const headers = { ...sealed.headers, [SIGNATURE_HEADER]: signatureOf(key, sealed.body, at) };
  return { url: webhook.url, init: { method: 'POST', body: sealed.body, headers } };
}

export type Sent =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly status?: number; readonly error: string };

/**
 * One HTTP attempt: delivered by a 2xx (decisions). Redirects are never followed, and a 3xx is a
 * failed attempt, for a notificationUrl callback too: its target was never checked.
 */
export async function sendOnce(
  send: typeof fetch,
  request: Request,
  timeoutMs: number,
  abandon?: AbortSignal,
): Promise<Sent> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const res = await send(request.url, {
      ...request.init,
      redirect: 'manual',
      signal: abandon === undefined ? timeout : AbortSignal.any([timeout, abandon]),
    });
    await res.body?.cancel().catch(() => {});
    const ok = res.status >= 200 && res.status < 300;
    if (ok) return { ok, status: res.status };
    const redirect = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
    return { ok, status: res.status, error: `answered HTTP ${res.status}${redirect}` };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return { ok: false, error: `no answer within ${timeoutMs / 1000} s` };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
    return {
      ok: false,
      error: `not reachable: ${cause ?? (error instanceof Error ? error.message : String(error))}`,
    };
  }
}

/** The webhook a delivery goes to (undefined for a notificationUrl callback, or when it is gone). */
type WebhookOf = (delivery: Delivery) => Promise<Webhook | undefined>;

export function webhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { store, clock, logger } = options;
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  // A claim's lease outlasts an attempt (its timeout, and 5 s to record the result), so a slow
  // receiver is never sent the same attempt twice; a dispatcher that dies leaves its claims due
  // again when the lease ends.
  const leaseMs = timeoutMs + 5_000;

  // every webhook's key signs its deliveries; an encrypted one's also seals them
  const key = (webhook: Webhook | undefined) =>
    webhook === undefined ? undefined : options.vault.decrypt(webhook.secret);

  // Aborted by stop(): attempts in flight are abandoned and their claims given back (releaseDelivery).
  const stopping = abandonable();

  async function attempt(delivery: Delivery, webhookOf: WebhookOf): Promise<AttemptResult | 'abandoned'> {
    const webhook = await webhookOf(delivery);
    let request: Request | undefined;
    try {
      request = requestOf(delivery, webhook, key(webhook), options.envelope(delivery.createdAt), clock.now());
    } catch (error) {
      return failed(delivery, `cannot build the notification: ${String(error)}`);
    }
    if (request === undefined) return { delivered: false, at: clock.now(), error: 'webhook deleted' };
    const sent: Sent =
      webhook?.inbox === true
        ? options.inbox === undefined
          ? { ok: false as const, error: 'this gateway has no inbox' }
          : await deliverToInbox(options.inbox, webhook, key(webhook), request, clock.now())
        : await sendOnce(send, request, timeoutMs, stopping.signal());
    if (!sent.ok && stopping.signal().aborted) return 'abandoned';
    if (sent.ok) return { delivered: true, at: clock.now(), status: sent.status };
    return failed(delivery, sent.error, sent.status);
  }

  function failed(delivery: Delivery, error: string, status?: number): AttemptResult {
    const at = clock.now();
    const retryAt = nextAttemptAt(delivery.retryFrom, at, delivery.attempts);
    return {
      delivered: false,
      at,
      error,
      ...(status === undefined ? {} : { status }),
      ...(retryAt === undefined ? {} : { retryAt }),
    };
  }

  async function deliver(delivery: Delivery, webhookOf: WebhookOf): Promise<boolean> {
    const result = await attempt(delivery, webhookOf);
    if (result === 'abandoned') {
      await store.releaseDelivery(delivery, clock.now());
      return false;
    }
    await store.recordAttempt(delivery, result);
    options.observe?.(
      result.delivered ? 'delivered' : result.retryAt === undefined ? 'dead_lettered' : 'failed',
      (result.at.getTime() - delivery.createdAt.getTime()) / 1000,
    );
    if (!result.delivered)
      logger?.warn('webhook delivery failed', {
        delivery: delivery.seq,
        attempts: delivery.attempts,
        error: result.error,
        deadLettered: result.retryAt === undefined,
      });
    return result.delivered;
  }

  async function poll(): Promise<number> {
    const now = clock.now();
    const due = await store.claimDeliveries(
      now,
      new Date(now.getTime() + leaseMs),
      options.batch ?? DEFAULT_BATCH,
    );
    // Each claimed delivery is the head of its own queue: they may all go at once. A webhook is
    // read once per poll, however many of its deliveries are due.
    const webhooks = new Map<string, Promise<Webhook | undefined>>();
    const webhookOf: WebhookOf = ({ merchantId, webhookId }) => {
      if (webhookId === undefined) return Promise.resolve(undefined);
      let webhook = webhooks.get(webhookId);
      if (webhook === undefined) {
        webhook = store.getWebhook(merchantId, webhookId);
        webhooks.set(webhookId, webhook);
      }
      return webhook;
    };
    const sent = await Promise.all(due.map((delivery) => deliver(delivery, webhookOf)));
    return sent.filter(Boolean).length;
  }

  return stopping.wrap(
    poller(poll, options.intervalMs ?? DEFAULT_DISPATCH_INTERVAL_MS, (error) =>
      logger?.error('webhook dispatcher poll failed', { error }),
    ),
  );
}

/**
 * A signal that stop() aborts before waiting for the poll in progress: a receiver may take 30 s
 * to answer, and a shutdown does not wait for it (the claim goes back). start() and runOnce()
 * after a stop get a fresh one.
 */
function abandonable() {
  let controller = new AbortController();
  const renew = () => {
    if (controller.signal.aborted) controller = new AbortController();
  };
  return {
    signal: () => controller.signal,
    wrap: (polling: Poller): Poller => ({
      ...polling,
      runOnce() {
        renew();
        return polling.runOnce();
      },
      start() {
        renew();
        polling.start();
      },
      async stop() {
        controller.abort();
        await polling.stop();
      },
    }),
  };
}
