/**
 * A stateful fake of Stripe's API on 127.0.0.1 (a random port), for the Stripe connector's tests:
 * the PaymentIntents, refunds, customers, SetupIntents and payment methods of ledger.ts over
 * HTTP as Stripe serves them (form-encoded bodies, `Authorization: Bearer sk_…`, JSON answers with
 * a `request-id`), idempotency keys honoured as Stripe does (the same key and parameters: the
 * first answer again, `Idempotent-Replayed: true`; other parameters: 400 idempotency_error), the
 * 3-D Secure page a `redirect_to_url` sends the shopper to, and events POSTed to a webhook
 * endpoint signed with the Stripe-Signature scheme (t=…,v1=HMAC-SHA256 of `t.payload`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeAnswer, stripeError } from './errors';
import { decodeStripeForm, type FormObject } from './form';
import { StripeLedger } from './ledger';
import { balanceObject, eventObject, type Json } from './objects';
import { redirectPage } from './redirects';

export interface StripeFakeOptions {
  /** The secret key the fake accepts (any `sk_test_…` when not given). */
  readonly apiKey?: string;
  /** Where events go, signed with `secret` (a webhook endpoint's `whsec_…`). */
  readonly webhook?: Webhook;
}

/**
 * A webhook endpoint: its address, its signing secret, and how events reach it (`through` a
 * gateway's app in process, `(url, init) => gw.live.app.request(url, init)`; fetch otherwise).
 */
export interface Webhook {
  readonly url: string;
  readonly secret: string;
  readonly through?: (url: string, init: RequestInit) => Response | Promise<Response>;
}

/** One request the fake received, for tests to look at what a connector sent. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  readonly form: FormObject;
}

export interface StripeFake {
  /** http://127.0.0.1:PORT: the connector's baseUrl. */
  readonly baseUrl: string;
  readonly ledger: StripeLedger;
  readonly requests: readonly ReceivedRequest[];
  /** Every event made, in order. */
  readonly events: readonly Json[];
  setWebhook(webhook: Webhook | undefined): void;
  /** Sends an event (again) to the webhook endpoint; its answer's status. */
  deliver(event: Json): Promise<number>;
  /**
   * Runs `hook` once, with the answer of the next request whose path matches, before that answer
   * is sent (e.g. the refund failing, its events delivered, while the gateway has not yet written
   * the refund Stripe answered).
   */
  onceBeforeAnswer(path: RegExp, hook: (answer: FakeAnswer) => void | Promise<void>): void;
  /** Deliveries still under way (events are sent as they happen): resolved once all are done. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The Stripe-Signature header of `payload` at `timestamp` (seconds). */
export function stripeSignature(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

type Route = (form: FormObject, match: RegExpExecArray, query: URLSearchParams) => FakeAnswer;

function routes(ledger: StripeLedger): readonly [string, RegExp, Route][] {
  const expandOf = (form: FormObject, query: URLSearchParams): string[] => {
    const sent = form.expand;
    const listed = Array.isArray(sent) ? sent.filter((e): e is string => typeof e === 'string') : [];
    return [
      ...listed,
      ...query.getAll('expand[]'),
      ...query.getAll('expand[0]'),
      ...query.getAll('expand[1]'),
    ];
  };
  return [
    ['POST', /^\/v1\/payment_intents$/, (f) => ledger.createIntent(f)],
    ['GET', /^\/v1\/payment_intents\/search$/, (_f, _m, q) => ledger.search(q.get('query') ?? '')],
    [
      'GET',
      /^\/v1\/payment_intents\/(pi_\w+)$/,
      (f, m, q) => ledger.retrieveIntent(m[1] as string, expandOf(f, q)),
    ],
    ['POST', /^\/v1\/payment_intents\/(pi_\w+)\/capture$/, (f, m) => ledger.capture(m[1] as string, f)],
    ['POST', /^\/v1\/payment_intents\/(pi_\w+)\/cancel$/, (f, m) => ledger.cancel(m[1] as string, f)],
    ['POST', /^\/v1\/refunds$/, (f) => ledger.createRefund(f)],
    ['POST', /^\/v1\/customers$/, (f) => ledger.createCustomer(f)],
    ['GET', /^\/v1\/customers\/search$/, (_f, _m, q) => ledger.searchCustomers(q.get('query') ?? '')],
    ['POST', /^\/v1\/setup_intents$/, (f) => ledger.createSetupIntent(f)],
    ['GET', /^\/v1\/setup_intents$/, (f) => ledger.listSetupIntents(f)],
    ['GET', /^\/v1\/payment_methods\/(pm_\w+)$/, (_f, m) => ledger.retrieveMethod(m[1] as string)],
    ['GET', /^\/v1\/balance$/, () => ({ status: 200, body: balanceObject() })],
  ];
}

const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

function send(res: http.ServerResponse, answer: FakeAnswer, replayed = false): void {
  res.writeHead(answer.status, {
    'Content-Type': 'application/json',
    'Request-Id': `req_${randomBytes(8).toString('hex')}`,
    ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
  });
  res.end(JSON.stringify(answer.body));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The issuer's 3-D Secure page of the fake: Complete or Fail, as Stripe's test page offers. */
function authenticationPage(id: string): string {
  const action = `/authenticate/${escapeHtml(id)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3D Secure 2 Test Page</title></head>
<body><h1>3D Secure 2 Test Page</h1><p>This is a test authentication for ${escapeHtml(id)}.</p>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="complete"><button id="test-source-authorize-3ds" type="submit">Complete</button></form>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="fail"><button id="test-source-fail-3ds" type="submit">Fail</button></form>
</body></html>`;
}

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  let base = '';
  let webhook = options.webhook;
  const requests: ReceivedRequest[] = [];
  const events: Json[] = [];
  const deliveries = new Set<Promise<unknown>>();
  /** Idempotency keys per secret key, as Stripe scopes them: the request and its first answer. */
  const keys = new Map<string, { readonly request: string; readonly answer: FakeAnswer }>();

  const deliver = async (event: Json): Promise<number> => {
    if (webhook === undefined) return 0;
    const payload = JSON.stringify(event, null, 2);
    try {
      const post = webhook.through ?? ((url: string, init: RequestInit) => fetch(url, init));
      const response = await post(webhook.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Stripe-Signature': stripeSignature(payload, webhook.secret),
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0;
    }
  };
  const ledger = new StripeLedger(
    () => base,
    (type, object) => {
      const event = eventObject(
        `evt_${randomBytes(12).toString('hex')}`,
        type,
        object,
        Math.floor(Date.now() / 1000),
      );
      events.push(event);
      const delivery = deliver(event).finally(() => deliveries.delete(delivery));
      deliveries.add(delivery);
    },
  );
  const table = routes(ledger);

  let beforeAnswer: { path: RegExp; hook: (answer: FakeAnswer) => void | Promise<void> } | undefined;
  /** `answer` sent, after the hook set for its path (once) has run. */
  const answerWith = async (res: http.ServerResponse, path: string, answer: FakeAnswer) => {
    const hook = beforeAnswer?.path.test(path) ? beforeAnswer.hook : undefined;
    if (hook !== undefined) {
      beforeAnswer = undefined;
      await hook(answer);
    }
    send(res, answer);
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const body = await readBody(req);
    const page = /^\/authenticate\/(\w+)$/.exec(url.pathname);
    if (page !== null) return authentication(req, res, page[1] as string, body);
    const bank = /^\/authorize\/(\w+)$/.exec(url.pathname);
    if (bank !== null) return bankPage(req, res, bank[1] as string, body);
    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!/^sk_(test|live)_/.test(key) || (options.apiKey !== undefined && key !== options.apiKey))
      return send(
        res,
        stripeError(401, {
          type: 'invalid_request_error',
          code: key === '' ? undefined : 'api_key_invalid',
          message:
            key === ''
              ? 'You did not provide an API key.'
              : `Invalid API Key provided: ${key.slice(0, 8)}***`,
        } as never),
      );
    const form = decodeStripeForm(req.method === 'GET' ? url.search.slice(1) : body);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey, form });
    const route = table.find(([method, pattern]) => method === req.method && pattern.test(url.pathname));
    if (route === undefined)
      return send(
        res,
        stripeError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
        }),
      );
    if (req.method === 'POST' && idempotencyKey !== undefined) {
      const scoped = `${key}\n${idempotencyKey}`;
      const request = `${req.method} ${url.pathname}\n${body}`;
      const seen = keys.get(scoped);
      if (seen !== undefined)
        return seen.request === request
          ? send(res, seen.answer, true)
          : send(
              res,
              stripeError(400, {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              }),
            );
      const answer = route[2](form, route[1].exec(url.pathname) as RegExpExecArray, url.searchParams);
      keys.set(scoped, { request, answer });
      return answerWith(res, url.pathname, answer);
    }
    const answer = route[2](form, route[1].exec(url.pathname) as RegExpExecArray, url.searchParams);
    return answerWith(res, url.pathname, answer);
  }

  function authentication(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    id: string,
    body: string,
  ): void {
    if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(authenticationPage(id));
      return;
    }
    const back = ledger.authenticate(id, new URLSearchParams(body).get('outcome') === 'complete');
    if (back === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('No authentication is waiting for this payment.');
      return;
    }
    res.writeHead(302, { Location: back });
    res.end();
  }

  /** A bank redirect's test page: shown (GET), then authorized or failed (POST outcome=…). */
  function bankPage(req: http.IncomingMessage, res: http.ServerResponse, id: string, body: string): void {
    const type = ledger.waitingRedirect(id);
    const back =
      type === undefined || req.method === 'GET'
        ? undefined
        : ledger.authorizeRedirect(id, new URLSearchParams(body).get('outcome') === 'authorize');
    if (type !== undefined && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(redirectPage(id, type));
    } else if (back === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('No payment is waiting on this page.');
    } else {
      res.writeHead(302, { Location: back });
      res.end();
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: base,
    ledger,
    requests,
    events,
    setWebhook: (next) => {
      webhook = next;
    },
    deliver,
    onceBeforeAnswer: (path, hook) => {
      beforeAnswer = { path, hook };
    },
    settled: async () => {
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
