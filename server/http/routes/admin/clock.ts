/**
 * The admin API's test clock (`/admin/v1/clock`, server/clock/): where the gateway's time is, and
 * moving it forward (`{"advance": 1860000 | "31m"}` or `{"to": "<ISO time>"}`), answered once
 * everything that became due has run, in time order. 404 when the gateway runs without a test
 * clock (GATEWAY_TEST_CLOCK); behind the operator's token like the rest of the admin API.
 */
import type { Context } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import { type ClockControl, type MoveOutcome, parseDuration, parseInstant } from '../../../clock';
import type { RouteDeps } from '../../context';
import { type AdminKit, jsonObjectOf } from './shared';

export interface AdminClockDeps {
  /** The test clock's control; undefined when the gateway runs on real time. */
  readonly clock?: ClockControl | undefined;
}

interface FieldError {
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

const shown = (value: unknown): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value);

type Move = { readonly to: Date } | { readonly advanceMs: number };

/** The move a body asks for, or the fields it gets wrong. */
export function readMove(body: Record<string, unknown>): Move | FieldError[] {
  const { advance, to, ...rest } = body;
  const errors: FieldError[] = Object.keys(rest).map((name) => ({
    name,
    value: shown(rest[name]),
    message: 'is not a field of a clock move: give advance or to',
  }));
  if ((advance === undefined) === (to === undefined))
    return [
      ...errors,
      {
        name: advance === undefined ? 'advance' : 'to',
        value: shown(advance ?? to),
        message: 'give exactly one of advance (milliseconds, or 31m, 2h, 30d …) and to (an ISO time)',
      },
    ];
  if (advance !== undefined) {
    const ms = parseDuration(advance);
    if (ms === undefined)
      errors.push({
        name: 'advance',
        value: shown(advance),
        message: 'must be whole milliseconds or a duration such as 90s, 31m, 2h, 30d',
      });
    return errors.length > 0 || ms === undefined ? errors : { advanceMs: ms };
  }
  const at = parseInstant(to);
  if (at === undefined)
    errors.push({
      name: 'to',
      value: shown(to),
      message: 'must be an ISO time such as 2026-12-01T09:00:00Z',
    });
  return errors.length > 0 || at === undefined ? errors : { to: at };
}

export function clockRoutes(deps: RouteDeps, admin: AdminClockDeps, kit: AdminKit): void {
  const { env } = deps;
  const ok = { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' };
  const invalid = (c: Context, errors: readonly FieldError[], description = 'invalid or missing parameter') =>
    env.send(c, 400, { code: ResultCodes.INVALID_PARAMETER, description, parameterErrors: errors });
  const off = (c: Context) =>
    env.send(c, 404, {
      code: ResultCodes.ENTITY_NOT_FOUND,
      description: 'the gateway runs on real time: start it with GATEWAY_TEST_CLOCK=on for a test clock',
    });

  kit.route('GET', '/admin/v1/clock', 'operator', (c) => {
    const control = admin.clock;
    if (control === undefined) return off(c);
    return env.send(c, 200, ok, {
      now: control.clock.now().toISOString(),
      testClock: true,
      frozen: control.clock.frozen,
    });
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
    const move = readMove(body);
    if (Array.isArray(move)) return invalid(c, move);
    // an advance starts from the clock's time when its turn comes (moves go one at a time)
    const outcome: MoveOutcome = await ('to' in move
      ? control.moveTo(move.to)
      : control.advance(move.advanceMs));
    switch (outcome.kind) {
      case 'live-channel':
        return env.send(c, 400, {
          code: ResultCodes.INVALID_PARAMETER,
          description: 'the test clock does not move while a live channel exists',
        });
      case 'backwards':
        return invalid(
          c,
          [
            {
              name: body.to === undefined ? 'advance' : 'to',
              value: shown(body.to ?? body.advance),
              message: `is before the clock’s time ${outcome.now.toISOString()}: the clock never moves backwards`,
            },
          ],
          'the test clock never moves backwards',
        );
      case 'moved':
        await kit.audit(c, 'clock.move', outcome.now.toISOString(), null);
        return env.send(c, 200, ok, {
          now: outcome.now.toISOString(),
          testClock: true,
          frozen: control.clock.frozen,
          ran: outcome.ran,
        });
    }
  });
}
