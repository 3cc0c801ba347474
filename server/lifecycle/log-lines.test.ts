/**
 * What `npm start`'s process writes (issue 34): every line carries its time, the JSON lines as
 * pino's `time` and the human-readable start banner (the demo credentials) with the time first; and
 * each request leaves one access-log line at `info`, with its method, route pattern, status,
 * result code, duration and request id.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test-kit/postgres';
import { type SpawnedGateway, spawnGateway } from '../test-kit/process';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The time a line carries: pino's `time`, or the banner's leading ISO time; undefined without. */
function timeOf(line: string): string | undefined {
  if (line.startsWith('{')) {
    const time = (JSON.parse(line) as { time?: unknown }).time;
    return typeof time === 'string' && ISO_TIME.test(time) ? time : undefined;
  }
  const first = line.split(' ')[0] ?? '';
  return ISO_TIME.test(first) ? first : undefined;
}

describe('the gateway process log', () => {
  let dataDir: string;
  let gateway: SpawnedGateway;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-log-lines-'));
    // LOG_LEVEL as a production gateway runs: info
    gateway = await spawnGateway({
      dataDir,
      env: { LOG_LEVEL: 'info', DEMO_SHOP_PORT: String(await freePort()) },
      readyTimeoutMs: 120_000,
    });
  }, 150_000);
  afterAll(async () => {
    await gateway?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The child's stdout and stderr lines so far, once `until` is among them (or 10 s passed). */
  async function lines(until: (line: string) => boolean): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const all = gateway
        .output()
        .split('\n')
        .filter((l) => l.trim() !== '');
      if (all.some(until) || Date.now() > deadline) return all;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('writes one access-log line per request at info, with its route, status, result code and id', async () => {
    const answer = await fetch(`${gateway.baseUrl}/v1/payments/8a82944a4cc25ebf014cc2c782423202?entityId=x`, {
      headers: { 'X-Request-Id': 'log-lines-1' },
    });
    expect(answer.status).toBe(401);
    const all = await lines((l) => l.includes('"log-lines-1"'));
    const entries = all
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.requestId === 'log-lines-1');
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        method: 'GET',
        route: '/v1/payments/:id',
        status: 401,
        resultCode: '800.900.300',
        durationMs: expect.any(Number),
      }),
    ]);
  });

  it('gives every line its time, the start banner included', async () => {
    const all = await lines((l) => l.includes('demo shop listening'));
    expect(all.some((l) => l.includes('demo shop listening'))).toBe(true);
    expect(all.some((l) => l.includes('accessToken'))).toBe(true);
    expect(all.filter((l) => timeOf(l) === undefined)).toEqual([]);
  });
});
