/**
 * The Query API: GET /v1/query (a search, answered as `payments: [...]` with 000.000.100) and
 * GET /v1/query/{id} (one transaction, answered like GET /v1/payments/{id}; a registration as
 * GET /v1/registrations/{id} answers it, as a transaction of type RG). The rules are in
 * shared/engine/operations/query.ts; this file admits the request and renders the outcome.
 */
import type { Context, Hono } from 'hono';
import { registrationResponse } from '../../../shared/engine/answers/registration';
import { type IssuerLookup, paymentResponse } from '../../../shared/engine/answers/response';
import type { AccessToken, Channel, Payment, Registration } from '../../../shared/engine/core/model';
import { registrationAnswerOf } from '../../../shared/engine/core/processor';
import {
  type QueryOutcome,
  type QueryScope,
  type QueryTransaction,
  queryPayment,
  REGISTRATION_TYPE,
  searchPayments,
} from '../../../shared/engine/operations/query';
import { describe, ResultCodes } from '../../../shared/result-codes';
import type { GatewayEnv, RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';
import { usableChannels } from '../middleware/channel';
import { statusOf, timestamp } from '../middleware/envelope';
import { namedChannel } from '../payment-reads';

/** One transaction of a list: the payment response, with the time it was made. */
function record(p: Payment, issuers: IssuerLookup): Record<string, unknown> {
  const { ndc, ...rest } = paymentResponse(p, issuers);
  return { ...rest, timestamp: timestamp(p.createdAt), ndc };
}

/**
 * A registration as a transaction: its read (the card masked as GET /v1/registrations/{id} masks
 * it), of type RG, with the merchantTransactionId it was found by and the result it answers.
 */
function registrationTransaction(r: Registration) {
  const { code, ndc } = registrationAnswerOf(r);
  const result = { code, description: describe(code) ?? '' };
  const body = {
    ...registrationResponse(r),
    paymentType: REGISTRATION_TYPE,
    ...(r.merchantTransactionId === undefined ? {} : { merchantTransactionId: r.merchantTransactionId }),
  };
  return { result, body, ndc };
}

function listed(t: QueryTransaction, issuers: IssuerLookup): Record<string, unknown> {
  if (t.kind === 'payment') return record(t.payment, issuers);
  const { result, body, ndc } = registrationTransaction(t.registration);
  return {
    ...body,
    result,
    timestamp: timestamp(t.registration.createdAt),
    ...(ndc === undefined ? {} : { ndc }),
  };
}

export function queryRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const { env } = deps;
  const { invalid, answer } = mw;

  /**
   * The caller's scope: the channel its entityId names (the channel middleware checked the token
   * may use it), also for a merchant-wide token; without one (or with the merchant's id, which
   * names no channel) the channels the token may use in this address's environment (its own, or
   * all of its merchant's there), so test and live records never mix. None: nothing to see.
   */
  async function scopeOf(
    token: AccessToken,
    request: unknown,
    channel: Channel,
  ): Promise<QueryScope | undefined> {
    const named = namedChannel(request, token, channel);
    if (named !== undefined) return { merchantId: token.merchantId, channelIds: [named] };
    const channels = await usableChannels(mw.channels, token, deps.environment);
    return channels.length === 0
      ? undefined
      : { merchantId: token.merchantId, channelIds: channels.map((ch) => ch.id) };
  }

  function respond(c: Context, outcome: QueryOutcome): Response {
    switch (outcome.kind) {
      case 'invalid':
        return invalid(c, 400, outcome.errors);
      case 'not-found':
        // the family's captured answer to a query for an id it cannot find (decisions, Wire format)
        return env.send(c, 400, {
          code: ResultCodes.TRANSACTION_NOT_FOUND,
          description: describe(ResultCodes.TRANSACTION_NOT_FOUND) ?? '',
        });
      case 'payment':
        return answer(c, outcome.payment);
      case 'registration': {
        const { result, body, ndc } = registrationTransaction(outcome.registration);
        return env.send(c, statusOf(result.code), result, body, ndc);
      }
      case 'list':
        return env.send(
          c,
          200,
          { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' },
          { payments: outcome.transactions.map((t) => listed(t, deps.processors)) },
        );
      case 'too-broad':
        // no partial list: the search is refused, naming what would narrow it
        return env.send(c, 400, {
          code: ResultCodes.ENTITY_NOT_SPECIFIC,
          description: describe(ResultCodes.ENTITY_NOT_SPECIFIC) ?? '',
          parameterErrors: outcome.errors,
        });
    }
  }

  app.get(
    '/v1/query',
    mw.body,
    mw.credentials,
    mw.parse('query'),
    mw.channel,
    mw.throttle('query.list'),
    async (c) => {
      const scope = await scopeOf(c.var.token, c.var.request, c.var.channel);
      const outcome: QueryOutcome =
        scope === undefined
          ? { kind: 'list', transactions: [] }
          : await searchPayments(deps, scope, c.var.request);
      // A search by merchantTransactionId that finds nothing is the family's 400 700.400.580 (its
      // recorded answer; HyperPay's plugin reads it as "no payment yet"); a time frame stays a list.
      if (
        outcome.kind === 'list' &&
        outcome.transactions.length === 0 &&
        c.var.request.merchantTransactionId !== undefined
      )
        return respond(c, { kind: 'not-found' });
      return respond(c, outcome);
    },
  );

  app.get(
    '/v1/query/:id',
    mw.body,
    mw.credentials,
    mw.parse('query'),
    mw.channel,
    mw.throttle('query.get'),
    async (c) => {
      const scope = await scopeOf(c.var.token, c.var.request, c.var.channel);
      if (scope === undefined) return respond(c, { kind: 'not-found' });
      return respond(c, await queryPayment(deps, scope, c.req.param('id'), c.var.request));
    },
  );
}
