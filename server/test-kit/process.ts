/**
 * The gateway as a real child process, for tests that need what `app.request` cannot give:
 * sockets, signals, a crash (SIGKILL) and a restart on the same data, several processes on one
 * database. `spawnGateway` runs server/main.ts (bundled as `npm start` runs it, built once per test
 * file: server-bundle.ts) from the repository root on 127.0.0.1 at a free port and resolves once
 * the gateway answers `GET /v1/resultcodes`.
 *
 * Every child is also killed when the test process exits, but tests should still stop their
 * gateways in afterEach/afterAll (`stopAll` does it for everything this module started).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_COMMIT, TEST_DATA_KEY } from './gateway';
import { freePort } from './postgres';
import { gatewayProgramArgs } from './server-bundle';

/** The repository root: the child's working directory, where `tsx` and `server/main.ts` are found. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The same 64-hex key for every spawned gateway, so a restart (or a second instance) can decrypt. */
export const PROCESS_DATA_KEY = TEST_DATA_KEY;

export interface SpawnOptions {
  /** `GATEWAY_DATA_DIR`: the SQLite database (without `databaseUrl`), demo-merchant.json, key file. */
  readonly dataDir: string;
  /** `DATABASE_URL`: a `postgres://` URL selects PostgreSQL. */
  readonly databaseUrl?: string;
  /** Extra environment for the child; wins over everything this helper sets (undefined unsets). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long to wait for the first answer; default 30 s. */
  readonly readyTimeoutMs?: number;
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface SpawnedGateway {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the child wrote to stdout and stderr so far (the last 256 KiB), for diagnostics. */
  output(): string;
  /** Whether the child has exited. */
  readonly exited: boolean;
  /**
   * Sends the signal now (synchronously, so a test can time a crash precisely) and resolves when
   * the child has exited. SIGKILL by default.
   */
  kill(signal?: NodeJS.Signals): Promise<ExitStatus>;
  /** SIGTERM (graceful shutdown), then SIGKILL if the child has not exited within `graceMs` (5 s). */
  stop(graceMs?: number): Promise<ExitStatus>;
}

export interface DemoMerchantFile {
  readonly merchantId: string;
  readonly entityId: string;
  readonly accessToken: string;
  readonly baseUrl: string;
}

/** `<dataDir>/demo-merchant.json`, as the gateway writes it on an empty store. */
export async function readDemo(dataDir: string): Promise<DemoMerchantFile> {
  return JSON.parse(await readFile(join(dataDir, 'demo-merchant.json'), 'utf8')) as DemoMerchantFile;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

const OUTPUT_LIMIT = 256 * 1024;
const POLL_MS = 50;

/** Environment the child must not inherit from the test run: it would change what it starts. */
const INHERITED_BUT_UNWANTED = ['DATABASE_URL', 'GATEWAY_TLS_CERT', 'GATEWAY_TLS_KEY', 'NODE_OPTIONS'];

const started = new Set<SpawnedGateway>();

/** Stops every gateway this module started that is still running (for afterEach/afterAll). */
export async function stopAll(): Promise<void> {
  const running = [...started].filter((g) => !g.exited);
  started.clear();
  await Promise.all(running.map((g) => g.stop()));
}

export async function spawnGateway(options: SpawnOptions): Promise<SpawnedGateway> {
  await gatewayProgramArgs(); // built before a port is taken, not between taking it and binding it
  // Between finding a free port and the child binding it another process may take it: try again.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await spawnOnce(options, await freePort());
    } catch (error) {
      lastError = error;
      if (!(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
  throw lastError;
}

async function spawnOnce(options: SpawnOptions, port: number): Promise<SpawnedGateway> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of INHERITED_BUT_UNWANTED) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    GATEWAY_DATA_DIR: options.dataDir,
    GATEWAY_DATA_KEY: PROCESS_DATA_KEY,
    GATEWAY_COMMIT: TEST_COMMIT,
    // the developer default whatever the test run's own NODE_ENV (production is asked for by name)
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DEMO_SHOP_PORT: '0',
    ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
    ...options.env,
  });
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];

  const child = spawn(process.execPath, await gatewayProgramArgs(), {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);

  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  let status: ExitStatus | undefined;
  let spawnError: Error | undefined;
  const exit = new Promise<ExitStatus>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      status ??= { code, signal };
      live.delete(child);
      resolve(status);
    };
    child.once('exit', done);
    // A failed spawn reports 'error' and never 'exit'.
    child.once('error', (error) => {
      spawnError = error;
      if (child.pid === undefined) done(null, null);
    });
  });

  const baseUrl = `http://127.0.0.1:${port}`;

  const kill = (signal: NodeJS.Signals = 'SIGKILL'): Promise<ExitStatus> => {
    if (status === undefined) child.kill(signal);
    return exit;
  };

  const stop = async (graceMs = 5_000): Promise<ExitStatus> => {
    if (status !== undefined) return status;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    try {
      const first = await Promise.race([exit, late]);
      return first === 'late' ? kill('SIGKILL') : first;
    } finally {
      clearTimeout(timer);
    }
  };

  const gateway: SpawnedGateway = {
    baseUrl,
    port,
    child,
    output: () => output,
    get exited() {
      return status !== undefined;
    },
    kill,
    stop,
  };

  const timeoutMs = options.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (status !== undefined) {
        throw new Error(
          `gateway exited before answering (code ${status.code}, signal ${status.signal}` +
            `${spawnError === undefined ? '' : `, ${spawnError.message}`}):\n${output}`,
        );
      }
      if (await answers(`${baseUrl}/v1/resultcodes`)) break;
      if (Date.now() > deadline) throw new Error(`gateway not answering after ${timeoutMs} ms:\n${output}`);
      await Promise.race([new Promise((resolve) => setTimeout(resolve, POLL_MS)), exit]);
    }
  } catch (error) {
    await kill('SIGKILL');
    throw error;
  }
  started.add(gateway);
  return gateway;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}
