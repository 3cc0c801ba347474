/**
 * SIGTERM and keep-alive connections (issue 30, hole 6): a client holding idle keep-alive
 * connections to a draining gateway must never see a reset it cannot tell from a crash. Answers
 * in flight when the signal comes say `Connection: close`, idle connections are closed by the
 * gateway (the client sees the close and opens a new connection, refused once the listener is
 * gone), so no request written to a reused connection is cut.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGateway, stopAll } from '../test-kit/process';

const dirs: string[] = [];
afterAll(async () => {
  await stopAll();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}, 30_000);

interface Outcome {
  readonly status?: number;
  readonly connection?: string | undefined;
  readonly error?: string;
  readonly reused: boolean;
}

/** One GET through the agent: its status and Connection header, or the error code. */
function get(agent: Agent, port: number, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode!, connection: res.headers.connection, reused: req.reusedSocket }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message, reused: req.reusedSocket }),
    );
    req.end();
  });
}

describe('SIGTERM with keep-alive clients', () => {
  it('answers in flight say Connection: close; idle connections are closed, none of their next requests reset', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-keepalive-'));
    dirs.push(dataDir);
    const gw = await spawnGateway({ dataDir, env: { GATEWAY_SHUTDOWN_TIMEOUT_MS: '5000' } });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    // eight idle keep-alive connections in the pool
    const warm = await Promise.all(Array.from({ length: 8 }, () => get(agent, gw.port, '/v1/resultcodes')));
    expect(warm.map((o) => o.status)).toEqual(Array(8).fill(200));

    // a request in flight when the signal comes: its body still being sent
    const inFlight = new Promise<Outcome>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: gw.port,
          path: '/v1/payments',
          method: 'POST',
          agent: new Agent({ keepAlive: true }),
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '19' },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode!, connection: res.headers.connection, reused: false }),
          );
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ error: error.code ?? error.message, reused: false }),
      );
      req.write('entityId=0123');
      setTimeout(() => req.end('456789'), 400);
    });
    await new Promise((r) => setTimeout(r, 100));
    const exit = gw.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const next = await Promise.all(Array.from({ length: 8 }, () => get(agent, gw.port, '/v1/resultcodes')));
    const flight = await inFlight;
    const status = await exit;
    agent.destroy();
    console.info('after SIGTERM:', JSON.stringify({ flight, next }));
    expect(status, gw.output()).toEqual({ code: 0, signal: null });
    expect(flight.status).toBeDefined();
    expect(flight.connection).toBe('close');
    // a request written to a reused connection and cut is what a client cannot tell from a crash
    expect(next.filter((o) => o.reused && o.error !== undefined)).toEqual([]);
  }, 60_000);
});
