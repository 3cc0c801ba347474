/**
 * The answer to a request the store could not write (a full disk, a database that refuses
 * writes: storage/core/write-errors.ts): HTTP 503 with Retry-After and the family's
 * `800.800.800` "The payment system is currently unavailable, please contact support in case
 * this happens again", never a 500. Of the spec's temporary errors it is the one that says the
 * gateway itself cannot serve now; the 900.100.x codes blame the connector or acquirer, which
 * were never asked (or answered and are not at fault), and 999.999.888 "undefined platform
 * database error" tells the caller nothing it can act on. What the request had begun was written
 * in the transaction that failed, or not at all: the caller retries, as Retry-After says.
 */
import type { Context } from 'hono';
import { describe, type KnownResultCode } from '../../../../shared/result-codes';
import { cannotWrite } from '../../../storage/core/write-errors';
import type { Envelope } from '.';

const UNAVAILABLE: KnownResultCode = '800.800.800';

/** Seconds a caller waits before retrying: an operator frees space or restores writes in minutes, not milliseconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** 503 for an error that says the store cannot write; undefined for any other error (a 500 stays a 500). */
export function storeUnavailable(env: Envelope, c: Context, error: unknown): Response | undefined {
  if (!cannotWrite(error)) return undefined;
  c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return env.send(c, 503, {
    code: UNAVAILABLE,
    description: describe(UNAVAILABLE) ?? 'payment system unavailable',
  });
}
