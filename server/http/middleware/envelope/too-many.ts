/**
 * The answer of every throttle (per-minute limits, failed logins, the work budget): HTTP 429 with
 * Retry-After and the family's throttling code `800.120.100`, the description saying which limit.
 */
import type { Context } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import type { Envelope } from '.';

export function tooManyRequests(
  env: Envelope,
  c: Context,
  retryAfterSeconds: number,
  description: string,
  body?: object,
): Response {
  c.header('Retry-After', String(retryAfterSeconds));
  return env.send(c, 429, { code: ResultCodes.THROTTLED, description }, body);
}
