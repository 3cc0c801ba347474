import { describe, expect, it } from 'vitest';
import { expiringMap } from './expiring';

describe('expiring map', () => {
  it('release drops the expired entries only; the live ones still answer', async () => {
    let now = 0;
    const map = expiringMap<string>(() => now);
    map.set('old', 'a', 10);
    map.set('new', 'b', 20);
    now = 15;
    map.release();
    expect(map.size).toBe(1);
    expect(map.get('old')).toBeUndefined();
    expect(map.get('new')?.value).toBe('b');
  });

  it('a key released is loaded again on its next use', async () => {
    let now = 0;
    let loads = 0;
    const map = expiringMap<number>(() => now);
    const load = () => map.load('k', 5, async () => ++loads);
    expect((await load()).value).toBe(1);
    now = 6;
    map.release();
    expect(map.size).toBe(0);
    expect((await load()).value).toBe(2);
    expect((await load()).value).toBe(2);
  });
});
