/**
 * The admin API's test clock (`/admin/v1/clock`, server/clock/): where the gateway's time is, and
 * moving it forward (`{"advance": 1860000 | "31m"}` or `{"to": "<ISO time>"}`), answered once
 * everything that became due has run, in time order: a translator over the back office's
 * procedure (server/backoffice/clock/moves.ts), which checks the move and audits it. 404 when the
 * gateway runs without a test clock (GATEWAY_TEST_CLOCK); behind the operator's token like the
 * rest of the admin API.
 */
import type { Context } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import { clockView, moveClock, parseClockMove } from '../../../backoffice/clock/moves';
import type { ClockControl } from '../../../clock';
import type { RouteDeps } from '../../context';
import { type AdminKit, jsonObjectOf } from './shared';

export interface AdminClockDeps {
  /** The test clock's control; undefined when the gateway runs on real time. */
  readonly clock?: ClockControl | undefined;
}

export function clockRoutes(deps: RouteDeps, admin: AdminClockDeps, kit: AdminKit): void {
  const { env, ok } = kit;
  const off = (c: Context) =>
    env.send(c, 404, {
      code: ResultCodes.ENTITY_NOT_FOUND,
      description: 'the gateway runs on real time: start it with GATEWAY_TEST_CLOCK=on for a test clock',
    });

  kit.route('GET', '/admin/v1/clock', 'operator', (c) => {
    const control = admin.clock;
    if (control === undefined) return off(c);
    return env.send(c, 200, ok, clockView(control));
  });

  kit.route('POST', '/admin/v1/clock', 'operator', async (c) => {
    const control = admin.clock;
    if (control === undefined) return off(c);
    const text = await c.req.text();
    const body = text.length > deps.maxBodyBytes ? undefined : jsonObjectOf(text);
    if (body === undefined)
      return env.send(c, 400, {
        code: ResultCodes.INVALID_PARAMETER,
        description: 'the body must be a JSON object: {"advance": "31m"} or {"to": "<ISO time>"}',
      });
    return kit.act(c, async (ctx) =>
      env.send(c, 200, ok, await moveClock(ctx, control, parseClockMove(body))),
    );
  });
}
