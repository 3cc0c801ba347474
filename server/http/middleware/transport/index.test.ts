/**
 * The gateway on a real socket (server/http/middleware/transport): the client address is the socket's
 * (X-Forwarded-For is ignored without a trusted proxy), so failed logins from 127.0.0.2 do not
 * lock out 127.0.0.1 (on Linux all of 127/8 is
 * loopback); a client that hangs up mid-body leaves one info line, not an error with a stack.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../../gateway';
import { createLogger } from '../../../security/logger';
import { newToken } from '../../../security/tokens';
import { VISA_CARD } from '../../../test-kit/fixtures/cards';
import { TEST_COMMIT, TEST_DATA_KEY } from '../../../test-kit/gateway';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('the gateway on a socket', () => {
  const lines: string[] = [];
  let dataDir: string;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let server: ReturnType<typeof serve>;
  let port: number;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-socket-'));
    gateway = await startGateway({
      dataDir,
      commit: TEST_COMMIT,
      env: { GATEWAY_DATA_KEY: TEST_DATA_KEY },
      logger: createLogger({ level: 'info', stream: { write: (line: string) => lines.push(line) } }),
      webhooks: { autoStart: false },
      notifier: { autoStart: false },
      pending: { autoStart: false },
      scheduler: { autoStart: false },
      settlement: { autoStart: false },
    });
    const t = newToken();
    await gateway.store.insertToken({
      id: 'f'.repeat(32),
      merchantId: gateway.demo!.merchantId,
      userId: t.userId,
      secretHash: t.secretHash,
      channelIds: [],
      revokedAt: null,
      createdAt: new Date(),
    });
    token = t.token;
    server = serve({ fetch: gateway.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await gateway?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** GET /v1/query from a local address, with a bearer token; the status and Retry-After. */
  const query = (localAddress: string, bearer: string) =>
    new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          localAddress,
          path: `/v1/query?entityId=${gateway.demo!.entityId}&merchantTransactionId=x`,
          headers: {
            Authorization: `Bearer ${bearer}`,
            'X-Forwarded-For': `10.0.0.${Math.floor(Math.random() * 250)}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: res.headers['retry-after'] as string | undefined,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  /** One request over the socket: status, headers as Node read them (raw, to see duplicates), body. */
  const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; raw: string[]; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: {
            Authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: res.rawHeaders, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const header = (raw: string[], name: string) =>
    raw.filter((_, i) => i % 2 === 1 && raw[i - 1]!.toLowerCase() === name.toLowerCase());

  it('a payment read, first and kept, carries the request id, nosniff and the JSON headers once each', async () => {
    const entityId = gateway.demo!.entityId;
    const paid = await call(
      'POST',
      '/v1/payments',
      new URLSearchParams({
        entityId,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...VISA_CARD,
      }).toString(),
    );
    expect(paid.status).toBe(200);
    const id = (JSON.parse(paid.body) as { id: string }).id;
    for (const requestId of ['read-1', 'read-2', undefined]) {
      const read = await call(
        'GET',
        `/v1/payments/${id}?entityId=${entityId}`,
        undefined,
        requestId === undefined ? {} : { 'X-Request-Id': requestId },
      );
      expect(read.status).toBe(200);
      expect(JSON.parse(read.body)).toMatchObject({ id, result: { code: '000.100.110' } });
      const [sentId, ...more] = header(read.raw, 'X-Request-Id');
      expect(more).toEqual([]);
      if (requestId !== undefined) expect(sentId).toBe(requestId);
      else expect(sentId).toMatch(/^[0-9a-f-]{36}$/);
      expect(header(read.raw, 'X-Content-Type-Options')).toEqual(['nosniff']);
      expect(header(read.raw, 'Content-Type')).toEqual(['application/json;charset=UTF-8']);
      expect(header(read.raw, 'Cache-Control')).toEqual(['private, no-cache, no-store']);
      expect(header(read.raw, 'Content-Length')).toEqual([String(Buffer.byteLength(read.body))]);
      expect(header(read.raw, 'Strict-Transport-Security')).toEqual([]);
    }
    const missing = await call('GET', '/v1/nothing-here', undefined, { 'X-Request-Id': 'lost-1' });
    expect(missing.status).toBe(404);
    expect(header(missing.raw, 'X-Request-Id')).toEqual(['lost-1']);
    expect(header(missing.raw, 'X-Content-Type-Options')).toEqual(['nosniff']);
  });

  it('throttles failed logins by the socket address (a rotating X-Forwarded-For does not help without GATEWAY_TRUST_PROXY): 127.0.0.2 is refused, 127.0.0.1 still gets in', async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 50; i++) {
      const wrong = Buffer.from(`${String(i).padStart(32, '0')}|nope-${i}`).toString('base64');
      const res = await query('127.0.0.2', wrong);
      statuses.push(res.status);
      retryAfter = res.retryAfter ?? retryAfter;
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.slice(10)).toEqual(Array(40).fill(429));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // let in: whatever the query finds (none: 400 700.400.580), not refused as a login
    expect([401, 403, 429]).not.toContain((await query('127.0.0.1', token)).status);
  });

  it('a client aborting mid-body leaves one info line and no error', async () => {
    lines.length = 0;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        `Authorization: Bearer ${token}\r\nContent-Length: 100000\r\n\r\namount=1.0`,
    );
    await sleep(100);
    socket.destroy();
    for (let i = 0; i < 40 && lines.length === 0; i++) await sleep(25);
    await sleep(100);
    const entries = lines.map((line) => JSON.parse(line) as { level: string; msg: string; error?: unknown });
    // the abort's line, then the request's line in the access log (middleware/access-log)
    expect(entries.map((e) => [e.level, e.msg])).toEqual([
      ['info', 'client closed the connection before the request was complete'],
      ['info', 'request'],
    ]);
    expect(lines.join('')).not.toContain('stack');
  });
});
