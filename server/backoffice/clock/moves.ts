/**
 * The test clock's moves (GATEWAY_TEST_CLOCK=on), for every face: forward by a duration
 * (`advance`: milliseconds, or 90s, 31m, 2h, 30d) or to a time (`to`: ISO 8601 with its zone),
 * through the clock's own control (server/clock), which runs what falls due in time order. Never
 * backwards, never while a live channel exists (`refused`). Audited as `clock.move` on the time
 * reached.
 */
import { z } from 'zod';
import { clockMoveInput as clockMoveBody } from '../../../shared/contract/admin-inputs';
import { type ClockControl, parseDuration, parseInstant, type Ran } from '../../clock';
import type { BackofficeContext } from '../context';
import { parsed, refused, shown } from '../errors';

const BOTH = 'give exactly one of advance (milliseconds, or 31m, 2h, 30d …) and to (an ISO time)';

/** The contract's body (its fields, no other), each value parsed by the clock's own parsers. */
export const clockMoveInput = clockMoveBody
  .extend({
    advance: z
      .unknown()
      .transform((v, c) => {
        const ms = parseDuration(v);
        if (ms !== undefined) return ms;
        c.addIssue({
          code: 'custom',
          message: 'must be whole milliseconds or a duration such as 90s, 31m, 2h, 30d',
        });
        return z.NEVER;
      })
      .optional(),
    to: z
      .unknown()
      .transform((v, c) => {
        const at = parseInstant(v);
        if (at !== undefined) return at;
        c.addIssue({ code: 'custom', message: 'must be an ISO time such as 2026-12-01T09:00:00Z' });
        return z.NEVER;
      })
      .optional(),
  })
  .superRefine((move, c) => {
    if ((move.advance === undefined) === (move.to === undefined))
      c.addIssue({ code: 'custom', path: [move.advance === undefined ? 'advance' : 'to'], message: BOTH });
  });

/** A move as asked: forward by milliseconds, or to a time. */
export type Move = ({ readonly advanceMs: number } | { readonly to: Date }) & {
  /** The value as given, for an error naming it. */
  readonly given: string | null;
};

/** The body's move, or `invalid` naming each faulty field (an unknown one included). */
export function parseClockMove(input: unknown): Move {
  const move = parsed(clockMoveInput, input);
  const body = input as { readonly advance?: unknown; readonly to?: unknown };
  return move.to !== undefined
    ? { to: move.to, given: shown(body.to) }
    : { advanceMs: move.advance ?? 0, given: shown(body.advance) };
}

/** Where the clock is: its time, and whether it stands still between moves. */
export interface ClockView {
  readonly now: string;
  readonly testClock: true;
  readonly frozen: boolean;
}

export const clockView = (control: ClockControl): ClockView => ({
  now: control.clock.now().toISOString(),
  testClock: true,
  frozen: control.clock.frozen,
});

/** Moves the clock once everything before it ran; the clock as it is then and what ran. */
export async function moveClock(
  ctx: BackofficeContext,
  control: ClockControl,
  move: Move,
): Promise<ClockView & { readonly ran: Ran }> {
  // an advance starts from the clock's time when its turn comes (moves go one at a time)
  const outcome = await ('to' in move ? control.moveTo(move.to) : control.advance(move.advanceMs));
  switch (outcome.kind) {
    case 'live-channel':
      throw refused('the test clock does not move while a live channel exists');
    case 'backwards': {
      throw refused('the test clock never moves backwards', [
        {
          name: 'to' in move ? 'to' : 'advance',
          value: move.given,
          message: `is before the clock’s time ${outcome.now.toISOString()}: the clock never moves backwards`,
        },
      ]);
    }
    case 'moved':
      await ctx.audit('clock.move', outcome.now.toISOString(), null);
      return { ...clockView(control), now: outcome.now.toISOString(), ran: outcome.ran };
  }
}
