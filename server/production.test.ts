/**
 * `npm start` as a real process, in production (NODE_ENV=production) and on a developer's
 * machine (server/mode.ts): production refuses to start without TLS or a trusted proxy, and with
 * either prints no token, creates no demo merchant, starts no demo shop and keeps the simulated
 * acquirer shut to anonymous callers; the developer default says what it is in its first line.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_COMMIT } from './test-kit/gateway';
import { freePort } from './test-kit/postgres';
import { PROCESS_DATA_KEY, REPO_ROOT, type SpawnedGateway, spawnGateway, stopAll } from './test-kit/process';
import { gatewayProgramArgs } from './test-kit/server-bundle';
import { selfSignedCertificate } from './test-kit/tls';

interface Started {
  readonly port: number;
  readonly shopPort: number;
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  readonly exit: Promise<number | null>;
  stop(): Promise<void>;
}

const running = new Set<Started>();

/**
 * server/main.ts bundled as `npm start` runs it (test-kit/server-bundle.ts) with NODE_ENV=production;
 * resolves once it listens or exits.
 */
async function startProduction(dataDir: string, env: Record<string, string>): Promise<Started> {
  const program = await gatewayProgramArgs();
  const port = await freePort();
  const shopPort = await freePort();
  const childEnv: Record<string, string | undefined> = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'GATEWAY_TLS_CERT',
    'GATEWAY_TLS_KEY',
    'NODE_OPTIONS',
    'GATEWAY_TRUST_PROXY',
  ])
    delete childEnv[name];
  Object.assign(childEnv, {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_DATA_KEY: PROCESS_DATA_KEY,
    GATEWAY_COMMIT: TEST_COMMIT,
    DEMO_SHOP_PORT: String(shopPort),
    ...env,
  });
  const child = spawn(process.execPath, program, {
    cwd: REPO_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('"gateway listening"')) resolve();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
  });
  const started: Started = {
    port,
    shopPort,
    output: () => output,
    exit,
    stop: async () => {
      running.delete(started);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exit;
    },
  };
  running.add(started);
  const timeout = new Promise<void>((_, reject) =>
    setTimeout(() => reject(new Error(`not listening after 30 s:\n${output}`)), 30_000).unref(),
  );
  await Promise.race([listening, exit, timeout]);
  return started;
}

/** One HTTPS request to 127.0.0.1 that accepts the throwaway certificate. */
function httpsCall(
  port: number,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        rejectUnauthorized: false,
        headers: body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Whether anything accepts TCP connections on the port. */
const listensOn = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('npm start in production (NODE_ENV=production)', () => {
  let certDir: string;
  const dirs: string[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-prod-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    certDir = await mkdtemp(join(tmpdir(), 'gateway-cert-'));
    selfSignedCertificate(certDir);
  });
  afterEach(async () => {
    await Promise.all([...running].map((s) => s.stop()));
  });
  afterAll(async () => {
    await Promise.all([certDir, ...dirs].map((d) => rm(d, { recursive: true, force: true })));
  });

  it('refuses to start without TLS or a trusted proxy, with a clear message and nothing created', async () => {
    const dir = await dataDir();
    const gateway = await startProduction(dir, {});
    expect(await gateway.exit).toBe(1);
    expect(gateway.output()).toContain('refusing to start: NODE_ENV=production needs TLS');
    expect(gateway.output()).not.toContain('    at '); // no stack
    expect(existsSync(join(dir, 'demo-merchant.json'))).toBe(false);
  });

  it('refuses an admin token shorter than 32 characters', async () => {
    const gateway = await startProduction(await dataDir(), {
      GATEWAY_TLS_CERT: join(certDir, 'cert.pem'),
      GATEWAY_TLS_KEY: join(certDir, 'key.pem'),
      GATEWAY_ADMIN_TOKEN: 'change-me',
    });
    expect(await gateway.exit).toBe(1);
    expect(gateway.output()).toContain('openssl rand -hex 32');
  });

  it('with TLS: no printed token, no demo merchant, no demo shop, HSTS, the simulated acquirer shut', async () => {
    const dir = await dataDir();
    const gateway = await startProduction(dir, {
      GATEWAY_TLS_CERT: join(certDir, 'cert.pem'),
      GATEWAY_TLS_KEY: join(certDir, 'key.pem'),
    });
    const res = await httpsCall(gateway.port, 'GET', '/v1/resultcodes');
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(gateway.output()).not.toContain('accessToken');
    expect(gateway.output()).not.toContain('developer mode');
    expect(existsSync(join(dir, 'demo-merchant.json'))).toBe(false);
    expect(await listensOn(gateway.shopPort)).toBe(false);
    const chargeback = await httpsCall(
      gateway.port,
      'POST',
      '/simulators/acquirer/chargebacks',
      `entityId=${'a'.repeat(32)}&id=${'b'.repeat(32)}`,
    );
    expect(chargeback.status).toBe(401);
  });

  it('behind a trusted proxy over plain HTTP: refused without X-Forwarded-Proto: https, served with it', async () => {
    const gateway = await startProduction(await dataDir(), { GATEWAY_TRUST_PROXY: '1' });
    const base = `http://127.0.0.1:${gateway.port}/v1/resultcodes`;
    const plain = await fetch(base);
    expect(plain.status).toBe(403);
    expect(await plain.text()).toContain('HTTPS required');
    const proxied = await fetch(base, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('npm start on a developer machine', () => {
  let dir: string;
  let gateway: SpawnedGateway;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-dev-'));
    // vitest runs with NODE_ENV=test: the developer default
    gateway = await spawnGateway({ dataDir: dir, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('says so in its first log line, and creates the demo merchant', async () => {
    const first = gateway.output().split('\n')[0]!;
    expect(JSON.parse(first).msg).toBe(
      'developer mode: demo merchant, demo shop, loopback callbacks, open simulator endpoints; set NODE_ENV=production for production',
    );
    expect(existsSync(join(dir, 'demo-merchant.json'))).toBe(true);
  });
});
