/**
 * One request of the fidelity corpus: what a public client of the family sends (its source named),
 * what the family's platform answered where that was recorded, and what this gateway must answer.
 * Entries are data; runner.ts sends them. README.md says how to write one.
 */
import type { KnownResultCode } from '../../shared/result-codes';

/** Where the request was read: a public repository and the file in it. */
export interface Source {
  /** `owner/name` on GitHub. */
  readonly repo: string;
  /** The file the request (or its recorded answer) comes from. */
  readonly path: string;
  /** Which test, method or line; anything that changed on the way here (a card, a year). */
  readonly note: string;
}

/**
 * The name of what must be sent before the entry: a prior of corpus/priors.ts (a card PA or DB, a
 * registration, a checkout, each with the gateway's test card) or another entry of the corpus
 * (the client's own first request). It is sent afresh for this entry; its answer fills the
 * placeholders: `id` → `{id}` and `{paymentId}` (`{registrationId}` for a registration,
 * `{checkoutId}` for a checkout), its `registrationId` → `{registrationId}`.
 */
export type Prior = string;

/**
 * How the entry is authenticated: `bearer` (the default) sends `Authorization: Bearer <token>`;
 * `body` sends no header, the entry's own `authentication.*` fields carry `{userId}` and
 * `{password}`; `wrong` sends a Bearer token the gateway never issued; `none` sends nothing.
 */
export type Auth = 'bearer' | 'body' | 'wrong' | 'none';

export interface Setup {
  readonly prior?: Prior;
  readonly auth?: Auth;
  /** Why the setup is what it is. */
  readonly note?: string;
}

/** The family's recorded answer to this request (or to the client's own run of it). */
export interface FamilyAnswer {
  readonly httpStatus?: number;
  readonly resultCode?: string;
  /** Where it was recorded (file, mock, assertion) and what it says. */
  readonly notes: string;
}

/**
 * What this gateway must answer. Paths are dotted (`redirect.url`, `payments.0.id`); a path in
 * `has` must be present and not empty.
 */
export interface Expectation {
  readonly status: number;
  readonly resultCode?: KnownResultCode;
  /** A regular expression over `result.code`, when more than one code is right (a flow's answers). */
  readonly resultCodePattern?: string;
  readonly has?: readonly string[];
  /** Paths whose value must be exactly this string (echoes). */
  readonly equals?: Readonly<Record<string, string>>;
  /** Paths whose value must match this regular expression. */
  readonly matches?: Readonly<Record<string, string>>;
  /** Every leaf of the JSON answer is a string (the family answers nothing else). */
  readonly strings?: true;
  /** The names of `result.parameterErrors`, exactly (in any order). */
  readonly parameterErrors?: readonly string[];
  /** Text the answer must not contain anywhere (a card number, a security code). */
  readonly omits?: readonly string[];
}

/** A form field as the client sends it: name, value (placeholders allowed), in the client's order. */
export type Field = readonly [name: string, value: string];

export interface Entry {
  /** Unique in the corpus; the test reports the entry by it. */
  readonly name: string;
  readonly source: Source;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** With placeholders (`/v1/payments/{paymentId}`); a query string is part of the path. */
  readonly path: string;
  /** Form fields in the client's order; none for GET and DELETE. */
  readonly body?: readonly Field[];
  /**
   * How the client writes the body: `form` (the default: names and values percent-encoded, a
   * space as `+`, as PHP's http_build_query, Python's urlencode and Rust's serde_urlencoded do),
   * `raw-names` (names as they are, brackets included; values escaped as Ruby's CGI.escape does)
   * or `raw` (nothing escaped, spaces and brackets as typed: curl's `-d`, PHP strings joined by hand).
   */
  readonly encoding?: 'form' | 'raw-names' | 'raw';
  readonly setup?: Setup;
  readonly familyAnswer?: FamilyAnswer;
  readonly expect: Expectation;
}
