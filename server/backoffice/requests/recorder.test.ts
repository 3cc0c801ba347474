/**
 * The recent API requests' recorder keeps the request's path free: `record` queues and returns,
 * a full queue drops its oldest entry and says so, batches are written one transaction each.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiRequestRecord } from '../../storage/api-requests/store';
import { requestRecorder } from './recorder';

const entry = (n: number): ApiRequestRecord => ({
  merchantId: 'm',
  method: 'POST',
  route: '/v1/payments',
  status: 200,
  resultCode: '000.100.110',
  durationMs: n,
  requestId: `r${n}`,
  at: new Date(0),
});

describe('the recent API requests recorder', () => {
  it('writes in batches after record returned, without waiting for the store', async () => {
    const batches: string[][] = [];
    let release: () => void = () => {};
    const store = {
      insertApiRequests: vi.fn(async (rs: readonly ApiRequestRecord[]) => {
        batches.push(rs.map((r) => r.requestId));
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }),
    };
    const recorder = requestRecorder(store, { batch: 2, delayMs: 1 });
    for (let i = 0; i < 3; i++) recorder.record(entry(i));
    expect(store.insertApiRequests).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(batches).toEqual([['r0', 'r1']]));
    release();
    await vi.waitFor(() => expect(batches).toEqual([['r0', 'r1'], ['r2']]));
    release();
    await recorder.drain();
  });

  it('drops the oldest entry when the queue is full, and counts each one dropped', async () => {
    const written: string[] = [];
    const dropped = vi.fn();
    const recorder = requestRecorder(
      { insertApiRequests: async (rs) => void written.push(...rs.map((r) => r.requestId)) },
      { capacity: 3, delayMs: 60_000, dropped },
    );
    for (let i = 0; i < 5; i++) recorder.record(entry(i));
    expect(dropped).toHaveBeenCalledTimes(2);
    await recorder.drain();
    expect(written).toEqual(['r2', 'r3', 'r4']);
  });

  it('loses a batch the store refused (a log, not a ledger) and goes on', async () => {
    const failed = vi.fn();
    let calls = 0;
    const written: string[] = [];
    const recorder = requestRecorder(
      {
        insertApiRequests: async (rs) => {
          if (calls++ === 0) throw new Error('disk full');
          written.push(...rs.map((r) => r.requestId));
        },
      },
      { delayMs: 60_000, failed },
    );
    recorder.record(entry(1));
    await recorder.drain();
    recorder.record(entry(2));
    await recorder.drain();
    expect(failed).toHaveBeenCalledOnce();
    expect(written).toEqual(['r2']);
  });
});
