/**
 * The request id (`X-Request-Id`): the caller's when it sends a well-formed one (at most 128 of
 * `A-Z a-z 0-9 _ - =`), else a new UUID; left on the context as `c.var.requestId`, echoed on every
 * answer (refusals, 404s and errors too) and bound to the request's log lines ({@link requestLogger}).
 * The header is set as {@link withHeaders} sets the transport's (no WHATWG Headers per answer). Each
 * request's line in the access log (../access-log) carries the id.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from '../../../security/logger';
import { withHeaders } from '../transport';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** The longest caller-sent id kept; a longer one is replaced (log lines stay bounded). */
export const MAX_REQUEST_ID_LENGTH = 128;

/** A character outside `A-Z a-z 0-9 _ - =`. */
const NOT_AN_ID = /[^\w\-=]/;

export type RequestIdEnv = { Variables: { requestId?: string } };

/** The request's logger: `base` with the request id on every line (made only when something is logged). */
export function requestLogger(c: Context, base: Logger): Logger;
export function requestLogger(c: Context, base: Logger | undefined): Logger | undefined;
export function requestLogger(c: Context, base: Logger | undefined): Logger | undefined {
  const id = (c.var as RequestIdEnv['Variables']).requestId;
  return base === undefined || id === undefined ? base : base.child({ requestId: id });
}

export function requestId(): MiddlewareHandler {
  return (c, next) => {
    const sent = c.req.header(REQUEST_ID_HEADER);
    const id =
      sent === undefined || sent === '' || sent.length > MAX_REQUEST_ID_LENGTH || NOT_AN_ID.test(sent)
        ? crypto.randomUUID()
        : sent;
    c.set('requestId', id);
    return withHeaders(c, { [REQUEST_ID_HEADER]: id }, next);
  };
}
