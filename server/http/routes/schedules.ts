/**
 * /scheduling/v1/schedules: schedule payments with a registration (POST), read a schedule with its
 * runs (GET) and deschedule it (DELETE). Merchant-authenticated through the shared middleware, like
 * /v1/registrations; other merchants' schedules (and those on channels the token may not use)
 * are 404.
 */
import type { Context, Hono } from 'hono';
import type { AccessToken } from '../../../shared/engine/core/model';
import {
  createSchedule,
  deschedule,
  type Schedule,
  type ScheduleView,
  scheduleResponse,
} from '../../../shared/engine/operations/schedules';
import { describe, ResultCodes } from '../../../shared/result-codes';
import type { GatewayEnv, RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';
import { usableChannels } from '../middleware/channel';
import { statusOf } from '../middleware/envelope';

/** Known but not scheduled any more, or not known at all: "cannot deschedule(DS) unscheduled job". */
const UNSCHEDULED = '100.360.303';

export function scheduleRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const { env } = deps;
  const { invalid, using } = mw;
  const result = (code: string, description = describe(code) ?? '') => ({ code, description });
  /** The schedules a token may see: on its channels of this address's environment. */
  const visibleTo = async (token: AccessToken) => {
    const ids = new Set((await usableChannels(mw.channels, token, deps.environment)).map((ch) => ch.id));
    return (s: Schedule) => ids.has(s.channelId);
  };
  const show = (c: Context, code: string, view: ScheduleView, ndc?: string) =>
    env.send(c, statusOf(code), result(code), scheduleResponse(view), ndc);

  app.post(
    '/scheduling/v1/schedules',
    mw.body,
    mw.credentials,
    mw.parse('schedule'),
    mw.channel,
    mw.throttle('schedules.create'),
    mw.idempotency({
      // The key's schedule, created before a crash took its stored answer.
      answerSchedule: async (c, id) => {
        const found = await deps.store.getSchedule(c.var.token?.merchantId ?? '', id);
        return found === undefined ? undefined : show(c, found.schedule.resultCode, found);
      },
    }),
    async (c) => {
      const caller = { merchantId: c.var.token.merchantId, channel: c.var.channel };
      const outcome = await createSchedule(using(c.var.store), caller, c.var.request);
      if (outcome.kind === 'invalid') return invalid(c, 400, outcome.errors);
      if (outcome.kind === 'refused') return env.send(c, 400, result(outcome.code));
      return show(c, outcome.code, outcome.view, outcome.ndc);
    },
  );

  app.get(
    '/scheduling/v1/schedules/:id',
    mw.body,
    mw.credentials,
    mw.parse('entity'),
    mw.channel,
    mw.throttle('schedules.get'),
    async (c) => {
      const found = await deps.store.getSchedule(c.var.token.merchantId, c.req.param('id'));
      if (found === undefined || !(await visibleTo(c.var.token))(found.schedule)) {
        return env.send(
          c,
          404,
          result(ResultCodes.ENTITY_NOT_FOUND, 'No schedule found for the requested id'),
        );
      }
      return show(c, ResultCodes.SUCCESSFUL_REQUEST, found);
    },
  );

  app.delete(
    '/scheduling/v1/schedules/:id',
    mw.body,
    mw.credentials,
    mw.parse('entity'),
    mw.channel,
    mw.throttle('schedules.delete'),
    async (c) => {
      const { token } = c.var;
      const outcome = await deschedule(deps, await visibleTo(token), token.merchantId, c.req.param('id'));
      switch (outcome.kind) {
        case 'not-found':
          return env.send(c, 404, result(UNSCHEDULED));
        case 'refused':
          return env.send(c, 400, result(outcome.code));
        case 'cancelled':
          return show(c, ResultCodes.SUCCESSFUL_REQUEST, outcome.view);
      }
    },
  );
}
