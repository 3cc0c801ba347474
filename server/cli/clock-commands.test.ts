/**
 * `gateway clock show|advance|set` through `run`, against a gateway served on loopback with a
 * frozen test clock: the commands talk to its admin API (no store opened), print the time and
 * what a move ran, and turn the gateway's refusals and usage mistakes into exit codes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../test-support/gateway';
import { REPO_ROOT, spawnGateway, stopAll } from '../test-support/process';
import { ADMIN_TOKEN, CLOCK_START, clockGateway, DAY, MINUTE } from '../test-support/test-clock';
import { run } from './run';

let gw: TestGateway;
let server: ReturnType<typeof serve>;
let url = '';

beforeAll(async () => {
  gw = await clockGateway();
  server = serve({ fetch: gw.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await gw.cleanup();
});

async function cli(argv: string[], env: Record<string, string> = { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    openStore: () => Promise.reject(new Error('the clock commands must not open the store')),
    env,
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
  return { code, out, err };
}

describe('gateway clock', () => {
  it('show: the time of the running gateway', async () => {
    const res = await cli(['clock', 'show', '--url', url]);
    expect(res).toMatchObject({ code: 0, err: [] });
    expect(res.out).toEqual([`now  ${CLOCK_START.toISOString()}  (frozen)`]);
  });

  it('advance 31m: moves it and prints what ran; a checkout expires on the way', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const checkout = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB' },
      { token: m.token },
    );
    expect(checkout.status).toBe(200);
    const res = await cli(['clock', 'advance', '31m', '--url', url]);
    expect(res.code, res.err.join('\n')).toBe(0);
    expect(res.out[0]).toBe(`now  ${new Date(CLOCK_START.getTime() + 31 * MINUTE).toISOString()}  (frozen)`);
    expect(res.out).toContainEqual(expect.stringMatching(/^checkoutExpiry\s+1$/));
  });

  it('set TIME --json: the new time and the counts as JSON', async () => {
    const res = await cli(['clock', 'set', '2026-12-01T09:00:00Z', '--url', url, '--json']);
    expect(res.code, res.err.join('\n')).toBe(0);
    const shown = JSON.parse(res.out.join('\n'));
    expect(shown).toMatchObject({ now: '2026-12-01T09:00:00.000Z', testClock: true });
    expect(Object.keys(shown.ran).sort()).toEqual(
      ['checkoutExpiry', 'pendingPayments', 'schedules', 'settlement', 'shopperResultUrl', 'webhooks'].sort(),
    );
  });

  it('PORT is the default address', async () => {
    const port = String((server.address() as AddressInfo).port);
    const res = await cli(['clock', 'show'], { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, PORT: port });
    expect(res.out).toEqual(['now  2026-12-01T09:00:00.000Z  (frozen)']);
  });

  it('backwards: exit 1 with the gateway’s reason', async () => {
    const res = await cli(['clock', 'set', '2026-11-30T00:00:00Z', '--url', url]);
    expect(res.code).toBe(1);
    expect(res.err[0]).toMatch(
      /HTTP 400: the test clock never moves backwards; to is before the clock’s time/,
    );
  });

  it.each([
    [['clock', 'advance', 'soon', '--url', 'http://127.0.0.1:1'], /DURATION must be/],
    [['clock', 'set', '2026-12-01', '--url', 'http://127.0.0.1:1'], /TIME must be an ISO time/],
    [['clock', 'advance'], /missing DURATION/],
    [['clock', 'show', '--url', 'ftp://x'], /--url must be http or https/],
  ])('usage errors exit 2: %j', async (argv, message) => {
    const res = await cli(argv);
    expect(res.code).toBe(2);
    expect(res.err[0]).toMatch(message);
  });

  it('without GATEWAY_ADMIN_TOKEN, or with a wrong one, or nothing listening: exit 1', async () => {
    expect((await cli(['clock', 'show', '--url', url], {})).err[0]).toMatch(/GATEWAY_ADMIN_TOKEN is not set/);
    const wrong = await cli(['clock', 'show', '--url', url], { GATEWAY_ADMIN_TOKEN: 'x'.repeat(40) });
    expect(wrong.code).toBe(1);
    expect(wrong.err[0]).toMatch(/HTTP 401/);
    const away = await cli(['clock', 'show', '--url', 'http://127.0.0.1:1']);
    expect(away.code).toBe(1);
    expect(away.err[0]).toMatch(/cannot reach the gateway at http:\/\/127\.0\.0\.1:1/);
  });

  it('is listed in the help', async () => {
    const res = await cli(['help']);
    expect(res.out).toContainEqual(expect.stringContaining('gateway clock advance DURATION [--url URL]'));
  });
});

describe('npm start with GATEWAY_TEST_CLOCK=on, moved by bin/gateway', () => {
  let dataDir = '';
  afterAll(async () => {
    await stopAll();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the server reads GATEWAY_TEST_CLOCK; the CLI process moves its clock', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-clock-process-'));
    const gateway = await spawnGateway({
      dataDir,
      env: { GATEWAY_TEST_CLOCK: 'on', GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    const before = Date.now();
    const { stdout, stderr } = await promisify(execFile)(
      join(REPO_ROOT, 'bin', 'gateway'),
      ['clock', 'advance', '2d', '--url', gateway.baseUrl, '--json'],
      { cwd: tmpdir(), env: { ...process.env, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN }, timeout: 60_000 },
    );
    expect(stderr).toBe('');
    const moved = JSON.parse(stdout);
    expect(moved).toMatchObject({ testClock: true, frozen: false });
    expect(new Date(moved.now).getTime()).toBeGreaterThanOrEqual(before + 2 * DAY);
    // the demo merchant's channel: two days settled on the way
    expect(moved.ran.settlement).toBeGreaterThanOrEqual(1);
    expect(gateway.output()).toContain('test clock');
  }, 90_000);
});
