import { describe, expect, it } from 'vitest';
import { BUSY, IDLE, IDLE_CHECKS, idleCollector, reduceMemoryWhenIdle } from './idle-memory';

describe('memory given back once a burst of load is over', () => {
  it('collects once the event loop has stayed idle for IDLE_CHECKS checks after being busy, not again until busy again', () => {
    const due = idleCollector();
    const quiet = (n: number) => Array<number>(n).fill(IDLE / 2);
    const seen = [0, 0.01, BUSY, 0.9, ...quiet(IDLE_CHECKS), ...quiet(3), 0.3, ...quiet(IDLE_CHECKS)].map(
      due,
    );
    const expected = seen.map(() => false);
    expected[3 + IDLE_CHECKS] = true;
    expected[3 + IDLE_CHECKS + 3 + 1 + IDLE_CHECKS] = true;
    expect(seen).toEqual(expected);
  });

  it('starts the count over when the loop works in between (short gaps between bursts)', () => {
    const due = idleCollector();
    const gaps = [
      0.9,
      ...Array<number>(IDLE_CHECKS - 1).fill(0),
      0.1,
      ...Array<number>(IDLE_CHECKS - 1).fill(0),
      0.5,
    ];
    expect(gaps.map(due).some(Boolean)).toBe(false);
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
