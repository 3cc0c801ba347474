/**
 * A stateful fake of Adyen's Checkout API v71 on 127.0.0.1 (a random port), following Adyen's
 * public documentation: its test cards and refusal holder names (cards.ts), the 3-D Secure 2
 * redirect flow and redirect methods (RedirectShopper → the fake's own page → the shopper back at
 * `returnUrl` with `redirectResult` → `/payments/details`), modifications answered `received`
 * with their outcome later in a signed standard notification POSTed to the notification address,
 * Adyen's error bodies (`status`, `errorCode`, `message`, `errorType`), the `X-API-Key` and the
 * `Idempotency-Key` (the same key answers the same, nothing done twice).
 *
 * Every request it receives is validated against the request schema of the published document
 * (schema.ts), every answer it gives against its answer schema; failures are counted in
 * `schemaFailures` (and an invalid request is answered 422, as Adyen would refuse it), and
 * `close()` rejects when there are any: every test that talks to the fake fails loudly on one.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Answer, fakeCheckout, type PendingNotice, serviceError } from './checkout';
import { notificationBody } from './notifications';
import { shopperPage } from './pages';
import { loadCheckoutSchema, loadWebhookSchema, type SchemaFailure } from './schema';

/** The API's path under the fake's origin, as the connector's base URL ends. */
export const CHECKOUT_PATH = '/checkout/v71';

export interface AdyenFakeOptions {
  readonly apiKey?: string;
  readonly merchantAccount?: string;
  /** The HMAC key notifications are signed with (hex); a random one by default. */
  readonly hmacKey?: string;
}

/** A request the fake received: its path, the headers that matter, and its JSON body. */
export interface Received {
  readonly path: string;
  readonly idempotencyKey?: string;
  readonly apiKey?: string;
  readonly body: unknown;
}

/** A notification the fake sent, and what the receiver answered. */
export interface Delivery {
  readonly body: string;
  readonly status?: number;
  readonly answer?: string;
}

const MODIFICATION_KINDS = ['captures', 'refunds', 'cancels', 'reversals'] as const;
const MODIFICATIONS = /^\/payments\/([^/]+)\/(captures|refunds|cancels|reversals)$/;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: string, type = 'application/json'): void {
  response.writeHead(status, { 'Content-Type': type });
  response.end(body);
}

export async function startAdyenFake(options: AdyenFakeOptions = {}) {
  const apiKey = options.apiKey ?? `AQE${randomBytes(12).toString('hex')}`;
  const merchantAccount = options.merchantAccount ?? 'GatewayTestECOM';
  const hmacKey = options.hmacKey ?? randomBytes(32).toString('hex').toUpperCase();
  const schema = loadCheckoutSchema();
  const webhookSchema = loadWebhookSchema();
  // compiled now, not on the first request: /payments' schema alone takes seconds on a busy
  // machine, past the connector's timeout of a test (2 s), which would make that payment uncertain
  for (const path of [
    '/payments',
    '/payments/details',
    ...MODIFICATION_KINDS.map((k) => `/payments/X/${k}`),
  ]) {
    schema?.request(path, {});
    schema?.response(path, path.startsWith('/payments/X/') ? 201 : 200, {});
  }
  const schemaFailures: SchemaFailure[] = [];
  const idempotent = new Map<string, Answer>();
  const outbox: string[] = [];
  const deliveries: Delivery[] = [];
  const received: Received[] = [];
  const inFlight = new Set<Promise<void>>();
  let notificationUrl: string | undefined;
  /** How a notification reaches its address: fetch, or a gateway's app in process. */
  let post: Post = (url, init) => fetch(url, init);
  /** Set by failNext: the next modification is accepted, and its notification says it failed. */
  let failingNext: string | undefined;
  let requests = 0;
  let origin = '';
  /** Set by holdNextAnswer: how long the next answer is held (ms). */
  let held = 0;
  /** Set by tellRecurringContracts: stored cards are told in RECURRING_CONTRACT too. */
  let recurringContracts = false;

  /** Set by earlyNext: the next request's notifications are delivered before its answer. */
  let earlyNext = false;
  /** While that request is being answered: the deliveries its answer waits for. */
  let early: Promise<void>[] | undefined;
  const deliver = (body: string): Promise<void> | undefined => {
    if (notificationUrl === undefined) return undefined;
    const url = notificationUrl;
    const done = (async () => {
      try {
        const answer = await post(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        });
        deliveries.push({ body, status: answer.status, answer: await answer.text() });
      } catch {
        deliveries.push({ body });
      }
    })();
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
    return done;
  };
  const notify = (told: PendingNotice) => {
    const notice =
      failingNext === undefined || told.eventCode === 'AUTHORISATION' || !told.success ? told : failed(told);
    if (notice !== told) failingNext = undefined;
    const body = notificationBody(notice, merchantAccount, hmacKey);
    const invalid = webhookSchema?.(notice.eventCode, JSON.parse(body));
    if (invalid !== undefined)
      schemaFailures.push({ what: `notification ${notice.eventCode}`, errors: invalid });
    outbox.push(body);
    if (early !== undefined) {
      // before the answer: the gateway has not written what it will be told
      const done = deliver(body);
      if (done !== undefined) early.push(done);
      return;
    }
    // after the answer, as Adyen's notifications come after its `received`
    setTimeout(() => deliver(body), 5);
  };
  /** A modification's notice told as failed: what it did to the fake's payment undone. */
  const failed = (notice: PendingNotice): PendingNotice => {
    undo(checkout, notice);
    return { ...notice, success: false, reason: failingNext ?? 'Modification failed' };
  };
  const checkout = fakeCheckout({
    get origin() {
      return origin;
    },
    merchantAccount,
    notify,
    recurringContracts: () => recurringContracts,
  });

  const api = (path: string, body: Record<string, unknown>): Answer => {
    if (path === '/payments') return checkout.pay(body);
    if (path === '/payments/details') return checkout.details(body);
    const modification = MODIFICATIONS.exec(path);
    if (modification !== null)
      return checkout.modify(modification[2] as never, decodeURIComponent(modification[1] ?? ''), body);
    return serviceError(404, '000', 'Not found', 'validation');
  };

  const handleApi = async (request: IncomingMessage, response: ServerResponse, path: string) => {
    requests += 1;
    const text = await readBody(request);
    if (request.headers['x-api-key'] !== apiKey) {
      const { status, body } = serviceError(401, '000', 'HTTP Status Response - Unauthorized', 'security');
      return send(response, status, JSON.stringify(body));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
      const key = request.headers['idempotency-key'];
      received.push({
        path,
        body,
        apiKey: String(request.headers['x-api-key']),
        ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
      });
    } catch {
      return send(
        response,
        400,
        JSON.stringify(serviceError(400, '702', 'Unable to parse the JSON body', 'validation').body),
      );
    }
    const invalid = schema?.request(path, body);
    if (invalid !== undefined) {
      schemaFailures.push({ what: `request POST ${path}`, errors: invalid });
      const { status, body: error } = serviceError(
        422,
        '702',
        `Structure is not valid: ${invalid}`,
        'validation',
      );
      return send(response, status, JSON.stringify(error));
    }
    const key = request.headers['idempotency-key'];
    const cacheKey = typeof key === 'string' ? `${path} ${key}` : undefined;
    early = earlyNext ? [] : undefined;
    earlyNext = false;
    const answer =
      (cacheKey === undefined ? undefined : idempotent.get(cacheKey)) ?? api(path, body as never);
    if (cacheKey !== undefined) idempotent.set(cacheKey, answer);
    const told = early ?? [];
    const hold = held;
    early = undefined;
    held = 0;
    await Promise.all(told);
    if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
    const wrong = schema?.response(path, answer.status, answer.body);
    if (wrong !== undefined)
      schemaFailures.push({ what: `answer ${answer.status} to POST ${path}`, errors: wrong });
    send(response, answer.status, JSON.stringify(answer.body));
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const done =
      path.startsWith(`${CHECKOUT_PATH}/`) && request.method === 'POST'
        ? handleApi(request, response, path.slice(CHECKOUT_PATH.length))
        : shopperPage(checkout, request, response, url);
    done.catch((error: unknown) =>
      send(
        response,
        500,
        JSON.stringify({ status: 500, errorCode: '905', message: String(error), errorType: 'internal' }),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    /** The connector's base URL (Adyen's `https://checkout-test.adyen.com/v71`). */
    baseUrl: `${origin}${CHECKOUT_PATH}`,
    apiKey,
    merchantAccount,
    hmacKey,
    /** Whether the published document was found (../shared); without it nothing is validated. */
    schemaChecked: schema !== undefined && webhookSchema !== undefined,
    schemaFailures,
    requests: () => requests,
    /** Every request with a readable body, in order. */
    received,
    /** How many payments were authorised (a charge each). */
    charges: checkout.charges,
    payments: checkout.payments,
    /** Where notifications go from now on (the gateway's `/connectors/adyen/notifications/…`). */
    notifyTo(url: string | undefined) {
      notificationUrl = url;
    },
    /**
     * Where notifications go, and through what: `through` a gateway's app in process
     * (`(url, init) => gw.liveApp.request(url, init)`), fetch otherwise.
     */
    deliverThrough(through: Post | undefined) {
      post = through ?? ((url, init) => fetch(url, init));
    },
    /**
     * The notifications the next request makes are delivered, and their answers awaited, before
     * its own answer is sent: Adyen's notification arriving while the gateway has not yet written
     * what Adyen answered (a capture's `received`, a payment's verdict).
     */
    earlyNext() {
      earlyNext = true;
    },
    /**
     * Whether a stored card is told in a RECURRING_CONTRACT notification too, after its
     * AUTHORISATION (a non-default event of Adyen's, enabled in the Customer Area); off at start.
     */
    tellRecurringContracts(on: boolean) {
      recurringContracts = on;
    },
    /** The next answer is held `ms` (after its notifications): past the connector's timeout, an uncertain outcome. */
    holdNextAnswer(ms: number) {
      held = ms;
    },
    /** The next capture, refund or cancel is accepted `received` and told failed (success false) for `reason`. */
    failNext(reason = 'Insufficient in-process funds on paymentPspReference') {
      failingNext = reason;
    },
    /**
     * Adyen's late word on a modification it told done: CAPTURE_FAILED, REFUND_FAILED (the
     * scheme refused it) or REFUNDED_REVERSED (the refund came back), for the modification
     * `pspReference`, sent as Adyen sends them (success "true": the event happened). Its body.
     */
    tellLater(pspReference: string, eventCode: LateEventCode, reason = LATE_REASONS[eventCode]): string {
      const earlier = outbox.map(itemOf).find((item) => item.pspReference === pspReference);
      if (earlier === undefined) throw new Error(`the fake told nothing about ${pspReference}`);
      const notice: PendingNotice = {
        eventCode,
        success: true,
        pspReference,
        merchantReference: String(earlier.merchantReference),
        amount: earlier.amount as PendingNotice['amount'],
        reason,
        ...(typeof earlier.originalReference === 'string'
          ? { originalReference: earlier.originalReference }
          : {}),
      };
      undo(checkout, notice);
      const body = notificationBody(notice, merchantAccount, hmacKey);
      const invalid = webhookSchema?.(eventCode, JSON.parse(body));
      if (invalid !== undefined) schemaFailures.push({ what: `notification ${eventCode}`, errors: invalid });
      outbox.push(body);
      deliver(body);
      return body;
    },
    /** Every notification body the fake made, in order (sent or not). */
    outbox,
    deliveries,
    /** Sends notification `index` of the outbox again (Adyen retries until it is accepted). */
    redeliver(index: number) {
      const body = outbox[index];
      if (body !== undefined) deliver(body);
    },
    /** Until every notification due has been delivered. */
    async settled() {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all([...inFlight]);
    },
    /**
     * Stops the fake; rejects when anything it received, answered or sent failed the published
     * schema, so that every test file talking to it fails loudly (issue 33: 0 requests that
     * fail the published schema, in the whole suite), whether or not it looks at schemaFailures.
     */
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (schemaFailures.length > 0)
        throw new Error(
          `the fake of Adyen saw ${schemaFailures.length} message(s) failing the published schema:\n${schemaFailures
            .map((f) => `${f.what}: ${f.errors}`)
            .join('\n')}`,
        );
    },
  };
}

export type AdyenFake = Awaited<ReturnType<typeof startAdyenFake>>;

/** How the fake POSTs a notification (fetch's signature). */
export type Post = (url: string, init: RequestInit) => Response | Promise<Response>;

/** The events by which Adyen takes back a modification it told done. */
export type LateEventCode = 'CAPTURE_FAILED' | 'REFUND_FAILED' | 'REFUNDED_REVERSED';

/** Adyen's reasons in its documentation's examples. */
const LATE_REASONS: Readonly<Record<LateEventCode, string>> = {
  CAPTURE_FAILED: 'Capture Failed',
  REFUND_FAILED: 'Refund Failed',
  REFUNDED_REVERSED: 'Refund Reversed',
};

/** The first item of a notification body. */
const itemOf = (body: string): Record<string, unknown> =>
  (JSON.parse(body) as { notificationItems: { NotificationRequestItem: Record<string, unknown> }[] })
    .notificationItems[0]?.NotificationRequestItem ?? {};

/** What a modification that failed after all did to the fake's payment, undone. */
function undo(checkout: ReturnType<typeof fakeCheckout>, notice: PendingNotice): void {
  const payment = checkout.payments().find((p) => p.psp === notice.originalReference);
  if (payment === undefined) return;
  if (notice.eventCode.startsWith('CAPTURE')) payment.captured -= notice.amount.value;
  if (notice.eventCode.startsWith('REFUND')) payment.refunded -= notice.amount.value;
}
