/**
 * The test clock and the webhook inbox of a running gateway, through its admin API (the operator's
 * bearer token): the gateway startTestGateway started, or one the QA team started themselves with
 * `GATEWAY_TEST_CLOCK=on` and `GATEWAY_ADMIN_TOKEN` (connectTestGateway).
 */

/** Where the admin API is and who may use it. */
export interface AdminAccess {
  readonly url: string;
  readonly adminToken: string;
}

/** The gateway's test clock (`/admin/v1/clock`). */
export interface TestClock {
  /** The gateway's time. */
  now(): Promise<Date>;
  /**
   * Moves the clock forward by `by` (milliseconds, or `'31m'`, `'2h'`, `'1d'`, `'30s'`, `'500ms'`)
   * and resolves once everything that became due has run (checkout expiry, timeouts, schedules,
   * webhook retries, the settlement run): `ran` counts them by kind.
   */
  advance(by: number | string): Promise<ClockMove>;
  /**
   * Moves the clock forward to `to` (never backwards: the gateway answers 400): a Date, an ISO
   * time, or the API's own `yyyy-MM-dd HH:mm:ss` (UTC), as a schedule's `nextRunTime` reads.
   */
  set(to: Date | string): Promise<ClockMove>;
}

export interface ClockMove {
  readonly now: Date;
  readonly ran: Readonly<Record<string, number>>;
}

/** A notification as the merchant's backend would have received it, after decryption. */
export interface InboxNotification {
  readonly seq: number;
  readonly webhookId: string;
  readonly receivedAt: string;
  readonly type: string;
  readonly action?: string;
  readonly payload: Readonly<Record<string, unknown>> & {
    readonly id?: string;
    readonly result?: { readonly code?: string; readonly description?: string };
  };
}

export interface InboxFilter {
  /** `PAYMENT`, `REGISTRATION`, `SCHEDULE`, … */
  readonly type?: string;
  /** `CREATED`, `UPDATED`, … */
  readonly action?: string;
  /** Anything else, e.g. `(n) => n.payload.ndc === checkoutId` (a checkout's payments). */
  readonly match?: (notification: InboxNotification) => boolean;
}

/** The merchant's webhook inbox (`/admin/v1/merchants/{m}/inbox`). */
export interface WebhookInbox {
  /**
   * The oldest notification matching `filter` that `next` has not returned yet, waiting for one
   * up to `timeoutMs` (10 s by default).
   */
  next(filter?: InboxFilter & { readonly timeoutMs?: number }): Promise<InboxNotification>;
  /** Every notification received so far that matches, oldest first. */
  all(filter?: InboxFilter): Promise<InboxNotification[]>;
  /** Empties the inbox (and forgets what `next` returned). */
  clear(): Promise<void>;
}

async function admin<T>(access: AdminAccess, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, access.url), {
    method,
    headers: {
      authorization: `Bearer ${access.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return (text === '' ? {} : JSON.parse(text)) as T;
}

/** The API's `yyyy-MM-dd HH:mm:ss` times are UTC. */
const API_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

function isoTime(to: Date | string): string {
  if (typeof to !== 'string') return to.toISOString();
  const api = API_TIME.exec(to);
  return api === null ? to : `${api[1]}T${api[2]}Z`;
}

export function testClock(access: AdminAccess): TestClock {
  const move = async (body: unknown): Promise<ClockMove> => {
    const answer = await admin<{ now: string; ran?: Record<string, number> }>(
      access,
      'POST',
      '/admin/v1/clock',
      body,
    );
    return { now: new Date(answer.now), ran: answer.ran ?? {} };
  };
  return {
    now: async () => new Date((await admin<{ now: string }>(access, 'GET', '/admin/v1/clock')).now),
    advance: (by) => move({ advance: by }),
    set: (to) => move({ to: isoTime(to) }),
  };
}

const matches = (n: InboxNotification, filter: InboxFilter) =>
  (filter.type === undefined || n.type === filter.type) &&
  (filter.action === undefined || n.action === filter.action);

const POLL_MS = 100;

/** Registers an inbox webhook for the merchant (what `gateway webhook add --inbox` does). */
export async function addInboxWebhook(access: AdminAccess, merchantId: string): Promise<void> {
  await admin(access, 'POST', `/admin/v1/merchants/${encodeURIComponent(merchantId)}/webhooks`, {
    inbox: true,
  });
}

export function webhookInbox(access: AdminAccess, merchantId: string): WebhookInbox {
  const path = `/admin/v1/merchants/${encodeURIComponent(merchantId)}/inbox`;
  const returned = new Set<number>();
  const all = async (filter: InboxFilter = {}): Promise<InboxNotification[]> => {
    const query = filter.type === undefined ? '' : `?type=${encodeURIComponent(filter.type)}`;
    const { notifications } = await admin<{ notifications: InboxNotification[] }>(
      access,
      'GET',
      `${path}${query}`,
    );
    return notifications.filter((n) => matches(n, filter));
  };
  return {
    all,
    async next({ timeoutMs = 10_000, ...filter } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await all(filter)).find((n) => !returned.has(n.seq));
        if (found !== undefined) {
          returned.add(found.seq);
          return found;
        }
        if (Date.now() > deadline)
          throw new Error(
            `no ${filter.type ?? ''} ${filter.action ?? ''} notification within ${timeoutMs} ms`,
          );
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    async clear() {
      await admin(access, 'DELETE', path);
      returned.clear();
    },
  };
}
