/**
 * /scheduling/v1/schedules: schedule payments with a registration (POST), read a schedule with its
 * runs (GET) and deschedule it (DELETE). Merchant-authenticated through the shared front, like
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
import { type Admission, type RouteDeps, statusOf } from '../admission';
import { usableChannels } from '../auth';

/** Known but not scheduled any more, or not known at all: "cannot deschedule(DS) unscheduled job". */
const UNSCHEDULED = '100.360.303';

export function scheduleRoutes(app: Hono, deps: RouteDeps, front: Admission): void {
  const { env } = deps;
  const { admit, invalid, idem, using } = front;
  const result = (code: string, description = describe(code) ?? '') => ({ code, description });
  /** The schedules a token may see: on its channels of this address's environment. */
  const visibleTo = async (token: AccessToken) => {
    const ids = new Set((await usableChannels(front.channels, token, deps.environment)).map((ch) => ch.id));
    return (s: Schedule) => ids.has(s.channelId);
  };
  const show = (c: Context, code: string, view: ScheduleView, ndc?: string) =>
    env.send(c, statusOf(code), result(code), scheduleResponse(view), ndc);

  app.post('/scheduling/v1/schedules', async (c) => {
    const ready = await admit(c, 'schedule', 'schedules.create');
    if (ready instanceof Response) return ready;
    return idem(
      c,
      ready,
      async (store) => {
        const caller = { merchantId: ready.token.merchantId, channel: ready.channel };
        const outcome = await createSchedule(using(store), caller, ready.request);
        if (outcome.kind === 'invalid') return invalid(c, 400, outcome.errors);
        if (outcome.kind === 'refused') return env.send(c, 400, result(outcome.code));
        return show(c, outcome.code, outcome.view, outcome.ndc);
      },
      // The key's schedule, created before a crash took its stored answer.
      async (id) => {
        const found = await deps.store.getSchedule(ready.token.merchantId, id);
        return found === undefined ? undefined : show(c, found.schedule.resultCode, found);
      },
    );
  });

  app.get('/scheduling/v1/schedules/:id', async (c) => {
    const ready = await admit(c, 'entity', 'schedules.get');
    if (ready instanceof Response) return ready;
    const found = await deps.store.getSchedule(ready.token.merchantId, c.req.param('id'));
    if (found === undefined || !(await visibleTo(ready.token))(found.schedule)) {
      return env.send(c, 404, result(ResultCodes.ENTITY_NOT_FOUND, 'No schedule found for the requested id'));
    }
    return show(c, ResultCodes.SUCCESSFUL_REQUEST, found);
  });

  app.delete('/scheduling/v1/schedules/:id', async (c) => {
    const ready = await admit(c, 'entity', 'schedules.delete');
    if (ready instanceof Response) return ready;
    const outcome = await deschedule(
      deps,
      await visibleTo(ready.token),
      ready.token.merchantId,
      c.req.param('id'),
    );
    switch (outcome.kind) {
      case 'not-found':
        return env.send(c, 404, result(UNSCHEDULED));
      case 'refused':
        return env.send(c, 400, result(outcome.code));
      case 'cancelled':
        return show(c, ResultCodes.SUCCESSFUL_REQUEST, outcome.view);
    }
  });
}
