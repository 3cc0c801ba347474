/**
 * What the OpenAPI document says of one route, written once per route in `routes/<area>.ts`,
 * keyed by the method and the path exactly as the route file registers it with Hono (`:id`,
 * `*`). openapi.test.ts compares these keys with the real app's `app.routes`: a route without
 * its entry, or an entry without its route, fails.
 */
import type { AdminAnswerName, AdminInputName } from '../../shared/contract';
import type { RequestKind } from '../../shared/params/requests';
import type { JsonSchema } from './schema';

/** The contract's answers the document names (shared/contract, components.ts). */
export type AnswerSchema =
  | 'Payment'
  | 'PaymentList'
  | 'Registration'
  | 'Schedule'
  | 'CheckoutCreated'
  | 'CheckoutSession'
  | 'CheckoutStatus'
  | 'ThreeDSecureAuthentication'
  | 'ResultCodeList'
  | 'AggregationList'
  | 'AggregationDetail'
  | 'AcquirerRecord'
  | 'Envelope'
  | AdminAnswerName;

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

/**
 * Who may call it: the merchant's access token (Bearer, or the deprecated authentication.*
 * parameters), the checkout id alone (the widget's routes), the admin API's callers (the
 * operator's token, or a signed-in user's session cookie with its CSRF token; the role each route
 * needs is the route table's, routes/admin/shared.ts), a signed-in user's session only (their own
 * session's routes), or nobody in particular (public files, health, the simulators' pages).
 */
export type Auth = 'merchant' | 'checkout' | 'admin' | 'session' | 'public';

/**
 * What the route answers with, besides the family's JSON envelope: `data` is JSON outside the
 * envelope (the health probes), its schema the route's `data`.
 */
export type Content =
  | 'json'
  | 'data'
  | 'html'
  | 'javascript'
  | 'css'
  | 'csv'
  | 'text'
  | 'png'
  | 'empty'
  | 'file';

/**
 * A parameter of an example: a value, or what an earlier example answered: its `id`, or the
 * field `field` names (dotted: `user.id`).
 */
export type PathValue = string | { readonly idOf: string; readonly field?: string };

/**
 * A request the docs show and openapi.test.ts sends to a gateway, with the answer it gets.
 * Values use the document's sample credentials (samples.ts); the test sends its own merchant's.
 */
export interface Example {
  /** Unique in the document: an example may name another's by it (`idOf`). */
  readonly name: string;
  readonly summary: string;
  readonly path?: Readonly<Record<string, PathValue>>;
  /** Form body (POST) or query string (GET, DELETE), wire names to values (or an earlier answer's id). */
  readonly params?: Readonly<Record<string, PathValue>>;
  /** A JSON body (the admin API). */
  readonly json?: Readonly<Record<string, unknown>>;
  /**
   * Why openapi.test.ts cannot send it (its gateway lacks what the answer needs): shown as the
   * example's description; the test lists the same names, and sends every other example.
   */
  readonly notSent?: string;
  /** The HTTP status and, for JSON answers, the result code (`data` answers: the body shown). */
  readonly answer: {
    readonly status: number;
    readonly code?: string;
    readonly body?: unknown;
    /** A redirect's Location. */
    readonly location?: string;
  };
}

export interface RouteDoc {
  readonly method: Method;
  /** As the route file registers it: `/v1/payments/:id`. */
  readonly path: string;
  readonly tag: TagName;
  readonly summary: string;
  readonly description?: string;
  readonly auth: Auth;
  /** The request kind validating its parameters (form body for POST, query string otherwise). */
  readonly kind?: RequestKind;
  /** Parameters the kind requires that this route does without (the reporting detail's dates). */
  readonly optional?: readonly string[];
  /** A JSON request body (the admin API): the contract's schema of it (shared/contract/admin-inputs.ts). */
  readonly json?: AdminInputName;
  /** A form body that no request kind describes (the simulated acquirer's), as JSON Schema. */
  readonly form?: JsonSchema;
  /** Query parameters that no request kind describes (the admin API's lists), name → schema. */
  readonly query?: Readonly<Record<string, JsonSchema>>;
  /** Its refusals are plain text, not the envelope (the dashboard's files). */
  readonly refusals?: 'text';
  /** The schema of a `data` answer. */
  readonly data?: JsonSchema;
  /** The schema of a `data` route's refusals (4xx), when they are not `data`'s shape. */
  readonly dataRefused?: JsonSchema;
  /**
   * The contract's schema of its 200 or 201 answer (shared/contract, a component name: `Payment`,
   * `Registration`, `AdminChannel` …); without it, and for every other status, the envelope.
   */
  readonly schema?: AnswerSchema;
  readonly content?: Content;
  /** Each status it may answer, and when. */
  readonly answers: Readonly<Record<number, string>>;
  readonly examples?: readonly Example[];
}

export const TAGS = {
  Payments:
    'Initial payments (PA, DB, CD, PA.CP, RE, RI), references to them (CP, RV, RF, RB) and their status.',
  '3-D Secure':
    'Stand-alone 3-D Secure authentication: nothing paid; its values are passed on by a later payment.',
  Registrations: 'Stored payment details (tokenization) and payments with them.',
  Checkouts: 'The Checkout API: a checkout created by the merchant, paid by the shopper in the widget.',
  Widget: 'The hosted payment widget: its script, files and the SRI hash.',
  Query: 'Transactions of the token\u2019s channels and environment.',
  Scheduling: 'Scheduled payments charging a registration.',
  Reporting: 'Reconciliation aggregations and the reconciliation file (see /docs/reconciliation).',
  'Result codes': 'The result-code catalogue.',
  Simulators:
    'Test mode only: the simulated issuer, redirect providers, wallets and acquirer (see /docs/test-data).',
  Administration:
    'The admin API (docs/admin-api.md), what the dashboard and the operator\u2019s automation use: the session, merchants, channels, tokens, users, the audit log, payments and the back office, webhooks and deliveries, settlements, risk rules, schedules, the test clock and the webhook inbox. Called with the operator\u2019s token (GATEWAY_ADMIN_TOKEN) or a signed-in user\u2019s session (the `gw_admin` cookie, with `X-CSRF-Token` on every state-changing request); `x-access` says the role each route needs.',
  Webhooks:
    'What the gateway posts to a merchant\u2019s webhook (docs/webhooks): one notification per change, encrypted (AES-256-GCM) unless the webhook asked for plain JSON, always signed.',
  Operations: 'Health probes for orchestrators and load balancers.',
  'Dashboard files': 'The administration dashboard (`/admin/`): its document and files, public code.',
  Documentation: 'This document and the documentation pages.',
} as const;

export type TagName = keyof typeof TAGS;

/** `/v1/payments/:id` → `/v1/payments/{id}`; a trailing `*` is the `{file}` it serves. */
export const openApiPath = (path: string): string =>
  path.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\*$/, '{file}');

/** The one key of a route, in the registry and in `app.routes`. */
export const routeKey = (method: string, path: string): string => `${method} ${path}`;

/** The answers most examples get: a transaction processed (000.100.110), a request done (000.000.100). */
export const PROCESSED = { status: 200, code: '000.100.110' } as const;
export const DONE = { status: 200, code: '000.000.100' } as const;

/**
 * An example on one of the channel's entities (`/…/{id}`), the id an earlier example's answer
 * gave (`idOf`), with the channel as its only parameter.
 */
export const onEntity = (
  example: Pick<Example, 'name' | 'summary'> & { readonly idOf: string; readonly answer?: Example['answer'] },
  entityId: string,
): Example => ({
  name: example.name,
  summary: example.summary,
  path: { id: { idOf: example.idOf } },
  params: { entityId },
  answer: example.answer ?? PROCESSED,
});
