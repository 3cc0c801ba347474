/**
 * The operator's bearer token (GATEWAY_ADMIN_TOKEN) for the admin API, compared in constant
 * time; without one configured the admin API is off and says so (401). Wrong tokens are counted
 * per client address apart from the merchants' logins (`admin:<address>`, server/security/auth-failures.ts):
 * past the limit, the shared 429 with Retry-After before the token is compared.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import { type AuthFailures, authKeys } from '../../../security/auth-failures';
import { tooManyFailedAttempts } from '../credentials';
import type { Envelope } from '../envelope';
import { clientAddress } from '../transport';

export interface OperatorDeps {
  readonly env: Envelope;
  readonly authFailures: AuthFailures;
  readonly trustProxy: boolean;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Lets a request through only with `Authorization: Bearer <the operator's token>`. */
export function operatorToken(deps: OperatorDeps, token: string | undefined): MiddlewareHandler {
  const { env } = deps;
  const expected = token === undefined ? undefined : digest(token);
  return async (c, next) => {
    if (expected === undefined)
      return env.send(c, 401, {
        code: ResultCodes.INVALID_AUTH,
        description: 'the admin API is off: start the gateway with GATEWAY_ADMIN_TOKEN set',
      });
    // Counted apart from the merchants' logins: the admin token is another secret.
    const keys = authKeys(clientAddress(c, deps.trustProxy), 'admin');
    const blocked = deps.authFailures.check(keys);
    if (!blocked.ok) return tooManyFailedAttempts(env, c, blocked.retryAfterSeconds);
    const given = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      deps.authFailures.fail(keys);
      return env.send(c, 401, {
        code: ResultCodes.INVALID_AUTH,
        description: 'invalid or missing admin token',
      });
    }
    await next();
  };
}
