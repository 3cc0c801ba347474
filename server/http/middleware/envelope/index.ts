/**
 * The envelope every JSON response carries (decisions, Wire format): result, buildNumber,
 * timestamp and ndc, sent as one write with the content type and cache headers clients expect;
 * and the answers every route shares (parameter errors, a payment). Not a per-request middleware:
 * helpers the middleware and handlers answer with, so nothing is serialised twice.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { type IssuerLookup, resultOf, writePaymentFields } from '../../../../shared/engine/answers/response';
import type { Payment } from '../../../../shared/engine/core/model';
import { capErrors } from '../../../../shared/params/error-list';
import type { ParameterError } from '../../../../shared/params/errors';
import { formatTs } from '../../../../shared/params/formats';
import { isPending, isSuccess, isSuccessReview, ResultCodes } from '../../../../shared/result-codes';

export interface Result {
  readonly code: string;
  readonly description: string;
  readonly parameterErrors?: readonly { name: string; value: string | null; message: string }[];
}

/** `yyyy-MM-dd HH:mm:ss` in UTC. */
export const utc = formatTs;

/** The response timestamp: `2021-08-16 17:34:10+0000`. */
export const timestamp = (date: Date): string => `${utc(date)}+0000`;

/** `<40-hex commit>@yyyy-MM-dd HH:mm:ss +0000`. */
export function buildNumber(commit: string, builtAt: Date): string {
  const sha = /^[0-9a-f]{40}$/.test(commit) ? commit : '0'.repeat(40);
  return `${sha}@${utc(builtAt)} +0000`;
}

/** A fresh request identifier for responses that belong to no payment. */
export const newNdc = (): string => randomBytes(16).toString('hex');

export const JSON_HEADERS = {
  'Content-Type': 'application/json;charset=UTF-8',
  'Cache-Control': 'private, no-cache, no-store',
} as const;

export interface Envelope {
  /** One JSON write: the body, then result, buildNumber, timestamp and ndc. */
  send(c: Context, status: number, result: Result, body?: object, ndc?: string): Response;
  /**
   * send() for a body the caller made for this answer alone: the envelope's names are written
   * into it rather than into a copy (the same JSON: a spread copy keeps a name's place too).
   * `fresh`: nothing on the answer's way set a header with c.header(), so the answer is a Response
   * of its own with its headers a plain object, as {@link Envelope.sendRendered} sends.
   */
  sendOwned(
    c: Context,
    status: number,
    result: Result,
    body: Record<string, unknown>,
    ndc: string,
    fresh?: boolean,
  ): Response;
  /**
   * An answer that never changes (a final payment's) serialised once, all but its timestamp;
   * undefined when the body holds one of the envelope's own names (send() it instead).
   */
  render(status: number, result: Result, body: object, ndc: string): RenderedAnswer | undefined;
  /** A rendered answer sent as send() would send it: the same bytes, this moment's timestamp. */
  sendRendered(c: Context, answer: RenderedAnswer): Response;
}

/** The JSON of an answer around its timestamp: `head` + `,"timestamp":"…"` + `tail`. */
export interface RenderedAnswer {
  readonly status: number;
  /** Its `result.code`, for the access log. */
  readonly code?: string;
  readonly head: string;
  readonly tail: string;
}

const ENVELOPE_NAMES = ['result', 'buildNumber', 'timestamp', 'ndc'];

/** The answer's result code, left on the context for the access log (../access-log). */
const noteCode = (c: Context, code: string | undefined): void => {
  if (code !== undefined) c.set('resultCode' as never, code as never);
};

/** The result code of the answer the envelope sent on this context, if it sent one. */
export const answeredResultCode = (c: Context): string | undefined =>
  (c.var as { resultCode?: string }).resultCode;

export function envelope(build: string, now: () => Date): Envelope {
  // The timestamp has whole seconds: thousands of answers a second share one formatted text.
  let second = Number.NaN;
  let stamp = '';
  const stampNow = (): string => {
    const at = now();
    const s = Math.floor(at.getTime() / 1000);
    if (s !== second) {
      second = s;
      stamp = timestamp(at);
    }
    return stamp;
  };
  const send: Envelope['send'] = (c, status, result, body = {}, ndc = newNdc()) => {
    // Every answer lists at most MAX_LISTED_PARAMETER_ERRORS of them, whoever built the list.
    if (result.parameterErrors !== undefined)
      result = { ...result, parameterErrors: capErrors(result.parameterErrors) };
    const json = JSON.stringify({ ...body, result, buildNumber: build, timestamp: stampNow(), ndc });
    noteCode(c, result.code);
    return c.body(json, status as 200, JSON_HEADERS);
  };
  return {
    send,
    sendOwned(c, status, result, body, ndc, fresh = false) {
      if (result.parameterErrors !== undefined) return send(c, status, result, body, ndc);
      body.result = result;
      body.buildNumber = build;
      body.timestamp = stampNow();
      body.ndc = ndc;
      const json = JSON.stringify(body);
      noteCode(c, result.code);
      return fresh
        ? new Response(json, { status, headers: JSON_HEADERS })
        : c.body(json, status as 200, JSON_HEADERS);
    },
    render(status, result, body, ndc) {
      if (ENVELOPE_NAMES.some((name) => name in body) || result.parameterErrors !== undefined)
        return undefined;
      const json = JSON.stringify({ ...body, result, buildNumber: build });
      return { status, code: result.code, head: json.slice(0, -1), tail: `,"ndc":${JSON.stringify(ndc)}}` };
    },
    sendRendered(c, { status, code, head, tail }) {
      noteCode(c, code);
      // A Response of its own, headers a plain object: Hono's c.body() copies them into WHATWG
      // Headers on every answer. Nothing on a read's way here sets a header with c.header()
      // (those are refusals', answered with send()); the request id and the transport's headers
      // are added by their middleware (transport/withHeaders) to any answer.
      return new Response(`${head},"timestamp":"${stampNow()}"${tail}`, { status, headers: JSON_HEADERS });
    },
  };
}

/** HTTP 200 for success, success with review and pending; 400 for everything else (declines). */
export const statusOf = (code: string): 200 | 400 =>
  isSuccess(code) || isSuccessReview(code) || isPending(code) ? 200 : 400;

export const INVALID = { code: ResultCodes.INVALID_PARAMETER, description: 'invalid or missing parameter' };

/** 400 (or 413) with the parameterErrors listed, the first few, the rest counted. */
export const invalid = (env: Envelope, c: Context, status: 400 | 413, errors: ParameterError[]): Response =>
  env.send(c, status, { ...INVALID, parameterErrors: capErrors(errors) });

/** paymentResponse but its result and ndc, built in place (no copies to leave them out). */
function paymentBody(payment: Payment, issuers: IssuerLookup) {
  const body: Record<string, unknown> = {};
  const extraResult = writePaymentFields(body, payment, issuers);
  body.shortId = payment.shortId;
  // an echoed group named ndc gives way to the payment's, answered last as always
  if ('ndc' in body) delete body.ndc;
  return { body, result: resultOf(payment, extraResult) };
}

/**
 * A payment as GET /v1/payments/{id} answers it: 200 for success and pending, 400 for declines.
 * `fresh`: for a handler on whose way no c.header() is set (see {@link Envelope.sendOwned}).
 */
export const paymentAnswer =
  (env: Envelope, issuers: IssuerLookup, options: { readonly fresh?: boolean } = {}) =>
  (c: Context, payment: Payment): Response => {
    const { body, result } = paymentBody(payment, issuers);
    return env.sendOwned(c, statusOf(payment.resultCode), result, body, payment.ndc, options.fresh);
  };

/** A payment's answer rendered once (see {@link Envelope.render}), for a payment that no longer changes. */
export const renderedPaymentAnswer =
  (env: Envelope, issuers: IssuerLookup) =>
  (payment: Payment): RenderedAnswer | undefined => {
    const { body, result } = paymentBody(payment, issuers);
    return env.render(statusOf(payment.resultCode), result, body, payment.ndc);
  };
