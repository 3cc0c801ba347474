/**
 * The retention worker on the gateway's clock: processor_events older than the processors' retry
 * windows (PROCESSOR_EVENT_RETENTION_MS) deleted batch by batch in one run, the younger kept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GatewayStore } from '../storage/kysely-store';
import { openStore } from '../storage/open';
import { testVault } from '../test-kit/vault';
import { PROCESSOR_EVENT_RETENTION_MS, pruneExpired, retentionWorker } from './retention';

let dataDir = '';
let store: GatewayStore;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'retention-'));
  store = await openStore({ dataDir, vault: testVault() });
});
afterAll(async () => {
  await store?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('keeps 35 days: past the longest retry window of the processors (Adyen’s 30 days)', () => {
  expect(PROCESSOR_EVENT_RETENTION_MS).toBe(35 * 24 * 60 * 60_000);
});

it('deletes every event past retention on the gateway’s clock, in batches, and keeps the younger', async () => {
  // the gateway's clock is a year ahead of the machine's: what counts is its time
  const now = new Date(Date.now() + 365 * 24 * 60 * 60_000);
  const clock = { now: () => now };
  const at = (ageMs: number) => new Date(now.getTime() - ageMs);
  const channelId = 'a'.repeat(32);
  for (let i = 0; i < 7; i++)
    await store.recordProcessorEvent({
      channelId,
      eventId: `old-${i}`,
      at: at(PROCESSOR_EVENT_RETENTION_MS + i + 1),
    });
  await store.recordProcessorEvent({
    channelId,
    eventId: 'young',
    at: at(PROCESSOR_EVENT_RETENTION_MS - 60_000),
  });
  let statements = 0;
  const counting = {
    pruneProcessorEvents: (before: Date, limit: number) => {
      statements += 1;
      return store.pruneProcessorEvents(before, limit);
    },
  };
  expect(await pruneExpired({ store: counting, clock }, 3)).toBe(7);
  // 3 + 3 + 1: the last short batch ends the run
  expect(statements).toBe(3);
  expect(await store.processorEventSeen(channelId, 'old-0')).toBe(false);
  expect(await store.processorEventSeen(channelId, 'young')).toBe(true);
  // the worker's run is the same
  expect(await retentionWorker({ store, clock }).runOnce()).toBe(0);
});
