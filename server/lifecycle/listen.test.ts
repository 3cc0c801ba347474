/**
 * The listeners of the gateway process at the connection level (server/lifecycle/listen.ts,
 * issue 30, hole 6), probed from outside: TLS clients offering only CBC or static-RSA suites, or
 * an old version, are refused while a modern one is served; one address opening many slow
 * connections (slowloris: a request head that never ends) holds no more than its cap, and not
 * for long, while another address is still served.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test-kit/postgres';
import { type SpawnedGateway, spawnGateway, stopAll } from '../test-kit/process';
import { selfSignedCertificate } from '../test-kit/tls';

const dirs: string[] = [];
afterAll(async () => {
  await stopAll();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}, 30_000);

/** The negotiated protocol and cipher, or the error code of a refused handshake. */
function handshake(
  port: number,
  options: {
    ciphers?: string;
    minVersion?: 'TLSv1' | 'TLSv1.2' | 'TLSv1.3';
    maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  },
): Promise<string> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...options }, () => {
      resolve(`${socket.getProtocol()} ${socket.getCipher().name}`);
      socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(`refused ${error.code ?? error.message}`));
  });
}

describe('TLS on the live address: modern suites only', () => {
  let livePort: number;
  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-tls-'));
    dirs.push(dataDir);
    const cert = selfSignedCertificate(dataDir);
    livePort = await freePort();
    await spawnGateway({
      dataDir,
      env: {
        GATEWAY_LIVE_PORT: String(livePort),
        GATEWAY_LIVE_TLS_CERT: cert.certFile,
        GATEWAY_LIVE_TLS_KEY: cert.keyFile,
      },
    });
  }, 60_000);

  it.each([
    ['static RSA with CBC', 'AES128-SHA'],
    ['static RSA with GCM', 'AES128-GCM-SHA256'],
    ['static RSA with CBC and SHA-256', 'AES256-SHA256'],
    ['ECDHE with CBC', 'ECDHE-RSA-AES128-SHA'],
    ['ECDHE with CBC and SHA-384', 'ECDHE-RSA-AES256-SHA384'],
  ])('refuses a TLS 1.2 client offering only %s (%s)', async (_what, cipher) => {
    expect(await handshake(livePort, { ciphers: cipher, maxVersion: 'TLSv1.2' })).toMatch(/^refused /);
  });

  it('refuses TLS 1.1', async () => {
    expect(
      await handshake(livePort, {
        minVersion: 'TLSv1',
        maxVersion: 'TLSv1.1',
        ciphers: 'DEFAULT:@SECLEVEL=0',
      }),
    ).toMatch(/^refused /);
  });

  it('serves TLS 1.2 with ECDHE and AES-GCM or ChaCha20, and TLS 1.3', async () => {
    expect(await handshake(livePort, { ciphers: 'ECDHE-RSA-AES128-GCM-SHA256', maxVersion: 'TLSv1.2' })).toBe(
      'TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256',
    );
    expect(await handshake(livePort, { ciphers: 'ECDHE-RSA-CHACHA20-POLY1305', maxVersion: 'TLSv1.2' })).toBe(
      'TLSv1.2 ECDHE-RSA-CHACHA20-POLY1305',
    );
    expect(await handshake(livePort, { minVersion: 'TLSv1.3' })).toMatch(/^TLSv1\.3 TLS_/);
  });
});

/** Opens a connection from `localAddress` and sends a request head that never ends. */
function slowClient(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port, localAddress }, () => {
      socket.write('GET /v1/resultcodes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      resolve(socket);
    });
    socket.on('error', () => undefined);
    // read what the gateway answers (a 408), so its close is seen
    socket.resume();
  });
}

const open = (sockets: readonly Socket[]) => sockets.filter((s) => !s.destroyed && !s.readableEnded).length;

describe('slow connections from one address (slowloris)', () => {
  let gw: SpawnedGateway;
  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-slowloris-'));
    dirs.push(dataDir);
    gw = await spawnGateway({
      dataDir,
      env: { GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: '20', GATEWAY_HEADERS_TIMEOUT_MS: '1000' },
    });
  }, 60_000);

  it('holds at most the cap per address, drops heads that never end, and serves another address', async () => {
    const sockets = await Promise.all(Array.from({ length: 60 }, () => slowClient(gw.port, '127.0.0.7')));
    await new Promise((r) => setTimeout(r, 300));
    const heldAtFirst = open(sockets);
    const other = await fetch(`${gw.baseUrl}/v1/resultcodes`);
    await new Promise((r) => setTimeout(r, 2_700));
    const heldLater = open(sockets);
    for (const s of sockets) s.destroy();
    console.info(`slowloris: 60 opened, ${heldAtFirst} held after 0.3 s, ${heldLater} after 3 s`);
    expect(heldAtFirst).toBeLessThanOrEqual(20);
    expect(other.status).toBe(200);
    expect(heldLater).toBe(0);
  }, 30_000);
});
