import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import {
  BUSY,
  IDLE,
  IDLE_CHECKS,
  idleCollector,
  idleReleases,
  reduceMemory,
  reduceMemoryWhenIdle,
} from './idle-memory';

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

  it('does nothing without an exposed gc (no --expose-gc) and nothing to release', () => {
    const stop = reduceMemoryWhenIdle({ gc: undefined });
    expect(stop).toBeTypeOf('function');
    stop();
  });

  it('releases the caches first, then collects twice, the second on the next turn (the first one swept what it compacts)', () => {
    const steps: string[] = [];
    const later: (() => void)[] = [];
    reduceMemory(
      () => steps.push('release'),
      () => steps.push('gc'),
      (task) => later.push(task),
    );
    expect(steps).toEqual(['release', 'gc']);
    for (const task of later) task();
    expect(steps).toEqual(['release', 'gc', 'gc']);
  });

  it('releases the caches even without an exposed gc', () => {
    const steps: string[] = [];
    reduceMemory(() => steps.push('release'), undefined);
    expect(steps).toEqual(['release']);
  });

  it('runs every release added, in order, even after one that throws, and reports the failure', () => {
    const ran: string[] = [];
    const failures: unknown[] = [];
    const idle = idleReleases();
    idle.add(() => ran.push('a'));
    idle.add(() => {
      throw new Error('b failed');
    });
    idle.add(() => ran.push('c'));
    idle.release((error) => failures.push(error));
    expect(ran).toEqual(['a', 'c']);
    expect(failures).toEqual([new Error('b failed')]);
  });
});

describe('the gateway released as when idle (ops.idle.release)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(async () => {
    await gw?.cleanup();
  });
  const pay = () =>
    gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD },
      { token: m.token },
    );
  const status = (id: string, token = m.token) =>
    gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token });
  /** The answer less what is new on every read. */
  const fixed = (body: Record<string, unknown>) => ({ ...body, timestamp: undefined, ndc: undefined });

  it('answers a payment read the same before and after its kept answer is released, and keeps working', async () => {
    const paid = await pay();
    expect(paid.status).toBe(200);
    const before = await status(paid.body.id);
    expect(fixed((await status(paid.body.id)).body)).toEqual(fixed(before.body));
    gw.ops.idle.release();
    const after = await status(paid.body.id);
    expect(after.status).toBe(200);
    expect(fixed(after.body)).toEqual(fixed(before.body));
    gw.ops.idle.release();
    gw.ops.idle.release();
    expect(fixed((await status(paid.body.id)).body)).toEqual(fixed(before.body));
    expect((await pay()).status).toBe(200);
  });

  it('still verifies credentials after a release: a wrong secret refused, the right one accepted', async () => {
    const paid = await pay();
    gw.ops.idle.release();
    expect((await status(paid.body.id, `${m.token.slice(0, -1)}x`)).status).toBe(403);
    expect((await status(paid.body.id)).status).toBe(200);
  });
});
