import { describe, expect, it } from 'vitest';
import { BUSY, IDLE, idleCollector, reduceMemoryWhenIdle } from './idle-memory';

describe('memory given back once a burst of load is over', () => {
  it('collects once when the event loop turns idle after being busy, and not again until busy again', () => {
    const due = idleCollector();
    const seen = [0, 0.01, BUSY, 0.9, 0.5, 0.1, IDLE / 2, 0, 0.01, 0.3, 0.01, 0].map(due);
    expect(seen).toEqual([false, false, false, false, false, false, true, false, false, false, true, false]);
  });

  it('never collects while the loop stays busy or only half idle', () => {
    const due = idleCollector();
    expect([0.9, 0.8, 0.1, 0.15, 0.3, 0.06].map(due)).toEqual(Array(6).fill(false));
  });

  it('does nothing without an exposed gc (no --expose-gc)', () => {
    const stop = reduceMemoryWhenIdle(undefined);
    expect(stop).toBeTypeOf('function');
    stop();
  });
});
