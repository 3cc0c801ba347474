/**
 * `Idempotency-Key` on any POST: the first response is stored and replayed for 24 hours
 * instead of acting twice, so a merchant's retry after a timeout cannot charge twice. The same
 * key with a different request is refused. (The API family has no such header; merchants'
 * retry logic needs it.)
 *
 * A crash cannot lose a key and keep its charge: the payment (or schedule) a keyed request makes
 * takes the key in its own transaction — the handler's `c.var.store` is a store whose
 * insertPayment and insertSchedule pass the claim along (storage/idempotency/claims.ts) —, and a retry that finds the key taken
 * but no response stored answers that payment (schedule) as it is now. Stored responses may hold
 * account data (an IBAN): they are sealed by the vault like card numbers, and opened on replay.
 */
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import {
  type AccessToken,
  IDEMPOTENCY_CLAIMED,
  type IdempotentResponse,
  type Payment,
} from '../../../../shared/engine/core/model';
import type { Change } from '../../../../shared/engine/core/notification';
import type { Clock, IdempotencyClaim, Store } from '../../../../shared/engine/core/ports';
import type { Schedule, SchedulePort } from '../../../../shared/engine/core/schedule';
import { ResultCodes } from '../../../../shared/result-codes';
import type { BodyEnv } from '../../context';
import { type Envelope, JSON_HEADERS } from '../envelope';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;
/** A value the vault sealed (server/security/vault.ts): `v1:<key id>:…`; rows before sealing hold JSON. */
const SEALED = /^v[0-9]+:/;

export interface IdempotencyOptions {
  /** The answer to a payment, as its route gives it: the replay of a key a payment took. */
  readonly answer: (c: Context, payment: Payment) => Response;
  /** Seals a response body for storage, and opens it again (the vault); plain without them. */
  readonly seal?: (plain: string) => string;
  readonly open?: (sealed: string) => string;
}

export interface RouteIdempotency {
  /** The answer to the schedule a key names whose response was never stored (schedule routes). */
  readonly answerSchedule?: (c: Context, scheduleId: string) => Promise<Response | undefined>;
}

type IdempotencyEnv<S> = BodyEnv & { Variables: { token: AccessToken; store: S } };

/** The store a keyed request works on: its first payment (or schedule) of the merchant takes the claim. */
function claimingStore<S extends Store>(store: S, claim: IdempotencyClaim) {
  let made: { readonly paymentId: string } | { readonly scheduleId: string } | undefined;
  const { merchantId } = claim;
  const claiming = Object.assign(Object.create(store) as S, {
    insertPayment(payment: Payment, changes?: readonly Change[], other?: IdempotencyClaim): Promise<void> {
      if (made !== undefined || other !== undefined || payment.merchantId !== merchantId)
        return store.insertPayment(payment, changes, other);
      made = { paymentId: payment.id };
      return store.insertPayment(payment, changes, claim);
    },
  });
  const schedules = store as unknown as Partial<SchedulePort>;
  if (schedules.insertSchedule !== undefined) {
    const insertSchedule = schedules.insertSchedule.bind(store);
    Object.assign(claiming, {
      insertSchedule(
        schedule: Schedule,
        changes?: readonly Change[],
        other?: IdempotencyClaim,
      ): Promise<void> {
        if (made !== undefined || other !== undefined || schedule.merchantId !== merchantId)
          return insertSchedule(schedule, changes, other);
        made = { scheduleId: schedule.id };
        return insertSchedule(schedule, changes, claim);
      },
    });
  }
  return { store: claiming, made: () => made };
}

/**
 * `idempotency(options)` for a route: `c.var.store` is the store the handler works on; with an
 * Idempotency-Key on a POST, the first answer is stored and replayed. After `credentials`.
 */
export function createIdempotency<S extends Store>(
  store: S,
  clock: Clock,
  env: Envelope,
  options: IdempotencyOptions,
): (route?: RouteIdempotency) => MiddlewareHandler<IdempotencyEnv<S>> {
  const { answer } = options;
  const seal =
    options.seal !== undefined && options.open !== undefined ? options.seal : (plain: string) => plain;
  const open = (stored: string): string => {
    if (!SEALED.test(stored)) return stored;
    if (options.open === undefined) throw new Error('A sealed idempotent response, and no vault to open it');
    return options.open(stored);
  };
  const refuse = (c: Context, message: string, key: string) =>
    env.send(c, 400, {
      code: ResultCodes.INVALID_PARAMETER,
      description: 'invalid or missing parameter',
      parameterErrors: [{ name: 'Idempotency-Key', value: key, message }],
    });

  return (route = {}) =>
    unlessKeyed(store, async (c, next, key) => {
      if (!KEY.test(key)) return refuse(c, 'must be 1 to 255 visible ASCII characters', '');
      const merchantId = c.var.token.merchantId;
      const requestHash = createHash('sha256')
        .update(`${c.req.method} ${c.req.path}\n${c.var.body}`)
        .digest('hex');
      const now = clock.now();
      const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
      /** The stored answer again; undefined for a claim whose payment (schedule) is not there. */
      const replay = async (stored: IdempotentResponse): Promise<Response | undefined> => {
        if (stored.requestHash !== requestHash)
          return refuse(c, 'was already used for a different request', key);
        if (stored.status !== IDEMPOTENCY_CLAIMED) {
          return new Response(open(stored.body), {
            status: stored.status,
            headers: { ...JSON_HEADERS, 'Idempotent-Replayed': 'true' },
          });
        }
        // The payment (schedule) took the key, and its answer was never stored (a crash in
        // between): answer it as it is now.
        c.header('Idempotent-Replayed', 'true');
        if (stored.scheduleId !== undefined) return route.answerSchedule?.(c, stored.scheduleId);
        const payment =
          stored.paymentId === undefined ? undefined : await store.getPayment(merchantId, stored.paymentId);
        return payment === undefined ? undefined : answer(c, payment);
      };

      // Retries with one key wait for each other, so only the first one acts.
      return store.exclusive(`idempotency:${merchantId}|${key}`, async () => {
        const earlier = await store.getResponse(merchantId, key, expiredBefore);
        if (earlier !== undefined) {
          const again = await replay(earlier);
          if (again !== undefined) return again;
        }
        const claiming = claimingStore(store, {
          merchantId,
          key,
          requestHash,
          createdAt: now,
          replaceBefore: expiredBefore,
        });
        c.set('store', claiming.store);
        await next();
        // A handler that threw was answered by the error handler: nothing is kept, as before any answer.
        if (c.error !== undefined) return;
        const response = c.res;
        const body = await response.text();
        const sealed = seal(body);
        const kept = await store.rememberResponse(
          {
            merchantId,
            key,
            requestHash,
            status: response.status,
            body: sealed,
            createdAt: now,
            ...claiming.made(),
          },
          expiredBefore,
        );
        // Another process may have stored first: answer what it answered.
        const final =
          kept.body !== sealed
            ? ((await replay(kept)) ?? new Response(body, response))
            : new Response(body, { status: response.status, headers: response.headers });
        c.res = undefined;
        c.res = final;
      });
    });
}

/**
 * `keyed` for a POST with an Idempotency-Key; without one (nearly every request) the chain goes
 * on at once on `store`, with no promise of its own.
 */
function unlessKeyed<S extends Store>(
  store: S,
  keyed: (c: Context<IdempotencyEnv<S>>, next: Next, key: string) => Promise<Response | undefined>,
): MiddlewareHandler<IdempotencyEnv<S>> {
  return (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined || c.req.method !== 'POST') {
      c.set('store', store);
      return next();
    }
    return keyed(c, next, key);
  };
}
