/** A clock the tests move by hand: an injectable Clock for the engine, the workers and the envelope. */
import type { Clock } from '../../shared/engine/core/ports';

export interface FakeClock extends Clock {
  advance(ms: number): void;
}

export function fakeClock(start = '2026-11-21T12:00:00.000Z'): FakeClock {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
}
