/**
 * HTTP load test: `POST /v1/payments` and `GET /v1/payments/{id}` on the real gateway, side by
 * side with a naive baseline (`bench/baseline.ts`: bare Hono + one durable SQLite insert per
 * request), at 10 and at 50 connections. Both servers run as child processes on 127.0.0.1, each
 * with its own temporary data folder. See bench/README.md.
 *
 *   npm run bench:http                          # same as: npx tsx bench/payments.bench.ts
 *   npx tsx bench/payments.bench.ts --quick     # 3 s per scenario (1 s warm-up)
 *   npx tsx bench/payments.bench.ts --duration 20 --warmup 3 --connections 10,50,100
 *   npx tsx bench/payments.bench.ts --strict    # exit 1 when a goal is missed
 *
 *   npx tsx bench/payments.bench.ts --ops GET   # only the reads (ids from payments made first)
 *   npx tsx bench/payments.bench.ts --rounds 10 # the measured time in 10 slices, targets in turns
 *
 * Environment: BENCH_DURATION, BENCH_WARMUP, BENCH_SETTLE (seconds), BENCH_ROUNDS, BENCH_CONNECTIONS,
 * BENCH_OPS (comma-separated),
 * BENCH_TMPDIR (where the temporary data folders go; the OS temp dir by default),
 * BENCH_GATEWAY_NODE_ARGS (extra node flags for the gateway, e.g. `--cpu-prof --cpu-prof-dir=prof`).
 *
 * The gateway starts as `npm start` starts it: package.json's start script, on the bundle it runs.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { MAX_THROTTLE } from '../server/cli/args';
import { bundleServer } from '../server/lifecycle/bundle';
import { IDLE_CHECKS } from '../server/lifecycle/idle-memory';
import { startCommand } from '../server/lifecycle/start-command';
import { type PostgresCluster, startPostgres } from '../server/test-kit/postgres';
import { seedPostgres, seedSqlite } from './seed';
import { type SeededGateway, seededDayTimings } from './seeded-day';

// ---------------------------------------------------------------------------------------------
// Options

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOST = '127.0.0.1';
const SUCCESS = '000.100.110';
/** Responses of each measured run parsed in full (status, JSON, result.code, id). */
const SAMPLE = 200;
/** Payment ids kept per target for the GET scenarios (taken from the POST responses). */
const MAX_IDS = 5_000;
/** Payments made before the GET scenarios when no POST scenario runs. */
const SEED_IDS = 500;
const READY_TIMEOUT_MS = 60_000;
/** Goals at GOAL_CONNECTIONS (issue 21): POST p99, POST against the group-commit floor, GET against the bare read. */
const GOAL_CONNECTIONS = 50;
const P99_GOAL_MS = 15;
const GROUP_COMMIT_GOAL = 0.85;
const READ_GOAL = 0.7;
/** The gateway's resident memory: at most this after the load, and back within 20 % of its start after the settle. */
const RSS_LOAD_GOAL_MB = 200;
const RSS_SETTLE_GOAL = 0.2;

const argv = process.argv.slice(2);

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  const inline = argv.find((a) => a.startsWith(prefix));
  if (inline !== undefined) return inline.slice(prefix.length);
  const i = argv.indexOf(`--${name}`);
  const next = i === -1 ? undefined : argv[i + 1];
  return next !== undefined && !next.startsWith('--') ? next : undefined;
}

function seconds(value: string | undefined, fallback: number, what: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 600)
    throw new Error(`${what} must be 0 to 600 seconds, got ${value}`);
  return n;
}

const quick = argv.includes('--quick');
const strict = argv.includes('--strict');
const DURATION = seconds(option('duration') ?? process.env.BENCH_DURATION, quick ? 3 : 10, '--duration');
const WARMUP = seconds(option('warmup') ?? process.env.BENCH_WARMUP, quick ? 1 : 2, '--warmup');
/**
 * The measured time of a scenario is cut into slices, the targets taking turns slice by slice: on a
 * shared machine each target then meets the same mix of competition and disk. `--rounds` sets their
 * number; by default they are as long as they may be while a gateway's wait for its next turn stays
 * shorter than the lull after which it gives back its memory (`IDLE_CHECKS` seconds,
 * lifecycle/idle-memory.ts): otherwise every turn would start after an idle step (the kept answers
 * emptied, the heap compacted) and the run would measure bursts after lulls, not sustained load.
 */
const ROUNDS_GIVEN = (() => {
  const given = option('rounds') ?? process.env.BENCH_ROUNDS;
  if (given === undefined) return undefined;
  const n = Number(given);
  if (!Number.isSafeInteger(n) || n < 1 || n > 100) throw new Error(`--rounds must be 1 to 100, got ${n}`);
  return n;
})();

/** A slice's length in whole seconds, and how many of them fill `seconds`, for `targets` in turns. */
function slicing(seconds: number, targets: number, rounds = ROUNDS_GIVEN): { slice: number; rounds: number } {
  if (rounds !== undefined) return { slice: Math.max(1, Math.round(seconds / rounds)), rounds };
  // The others' turns, (targets − 1) slices, plus a second of margin, under the idle step's lull.
  const longest = Math.max(1, Math.floor((IDLE_CHECKS - 1) / Math.max(1, targets - 1)));
  const slice = Math.min(seconds, quick ? 1 : 2, longest);
  return { slice, rounds: Math.max(1, Math.round(seconds / slice)) };
}
/** `--seed N`: a second gateway, its store seeded with N payments (and deliveries), in turns with the empty one. */
const SEED = (() => {
  const n = Number(option('seed') ?? process.env.BENCH_SEED ?? 0);
  if (!Number.isSafeInteger(n) || n < 0 || n > 10_000_000)
    throw new Error(`--seed must be 0 to 10,000,000, got ${n}`);
  return n;
})();
/** `--postgres`: the gateway and the baseline on a throwaway PostgreSQL cluster instead of SQLite. */
const POSTGRES = argv.includes('--postgres') || process.env.BENCH_POSTGRES === '1';
/** The seeded gateway's goal: POST and GET throughput within 10 % of the empty store's. */
const SEEDED_GOAL = 0.9;
/** Idle time after the last scenario before the gateway's resident memory is read again. */
const SETTLE = seconds(option('settle') ?? process.env.BENCH_SETTLE, quick ? 3 : 10, '--settle');
const CONNECTIONS = (option('connections') ?? process.env.BENCH_CONNECTIONS ?? '10,50')
  .split(',')
  .map((s) => {
    const n = Number(s.trim());
    if (!Number.isSafeInteger(n) || n < 1 || n > 1000) throw new Error(`bad connection count: ${s}`);
    return n;
  });
const OPS = (option('ops') ?? process.env.BENCH_OPS ?? 'POST,GET').split(',').map((s) => {
  const op = s.trim().toUpperCase();
  if (op !== 'POST' && op !== 'GET') throw new Error(`bad operation: ${s} (POST or GET)`);
  return op;
});
if (DURATION < 1) throw new Error('--duration must be at least 1 second');

// ---------------------------------------------------------------------------------------------
// Child processes

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly port: number;
  /** The tail of what it printed, for error messages. */
  output(): string;
}

const children: Child[] = [];
const tempDirs: string[] = [];
/** The throwaway PostgreSQL cluster of a `--postgres` run. */
let cluster: PostgresCluster | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Environment for a child: ours, less anything that would point the gateway elsewhere. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['DATABASE_URL', 'GATEWAY_TLS_CERT', 'GATEWAY_TLS_KEY', 'NODE_OPTIONS'])
    if (!(name in extra)) delete env[name];
  return env;
}

/**
 * The gateway as `npm start` runs it: package.json's start script (`[NAME=value …] node <flags>
 * dist/server/main.js`, its memory settings included), the bundle built first as prestart builds
 * it; extra flags before the script's.
 */
const GATEWAY_START = startCommand();

function gatewayArgs(): string[] {
  const extra = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  return [...extra, ...GATEWAY_START.nodeArgs, GATEWAY_START.script];
}

/**
 * After this process was blocked (the seed's synchronous SQLite writes, the settlement CLI run with
 * spawnSync), let the event loop read what its idle keep-alive sockets received meanwhile: the
 * servers closed them after their keep-alive timeout (5 s), and a request sent at once would be
 * given such a socket and fail with "other side closed".
 */
const socketsCaughtUp = () => new Promise<void>((resolve) => setTimeout(resolve, 100));

async function startChild(
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  readyText: string,
): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: childEnv({ ...env, PORT: String(port), HOST }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const child: Child = { name, proc, port, output: () => tail };
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`${name} did not start within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    let ready = false;
    const onData = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-8_000);
      if (!ready && tail.includes(readyText)) {
        ready = true;
        clearTimeout(timer);
        clearInterval(poll);
        resolve(child);
      }
    };
    function fail(error: Error): void {
      if (ready) return;
      ready = true;
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`${error.message}\n--- ${name} output ---\n${tail}`));
    }
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    // The gateway logs its listening line at info, and the bench runs it at warn (no access log
    // per request): ready is also the port answering HTTP, whatever the log level.
    const poll = setInterval(() => {
      fetch(`http://${HOST}:${port}/`, { signal: AbortSignal.timeout(1_000) }).then(
        (answer) => {
          void answer.body?.cancel();
          if (ready) return;
          ready = true;
          clearTimeout(timer);
          clearInterval(poll);
          resolve(child);
        },
        () => {},
      );
    }, 200);
    proc.once('exit', () => clearInterval(poll));
    proc.once('error', fail);
    proc.once('exit', (code, signal) =>
      fail(new Error(`${name} exited early (code ${code}, signal ${signal})`)),
    );
  });
}

async function stopChild(child: Child): Promise<void> {
  const { proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function cleanup(): Promise<void> {
  await Promise.all(children.map(stopChild));
  await cluster?.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

const CLK_TCK = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

interface CpuTimes {
  /** Seconds in user mode and in the kernel. */
  readonly user: number;
  readonly system: number;
}

/** CPU a process has used (all its threads), from /proc; undefined elsewhere. */
function processCpu(pid: number | undefined): CpuTimes | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / CLK_TCK, system: Number(fields[12]) / CLK_TCK };
  } catch {
    return undefined;
  }
}

/** CPU seconds the whole machine has spent in user mode (all CPUs), from /proc/stat. */
function machineUserSeconds(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    // cpu  user nice system idle iowait irq softirq steal …
    const [user, nice] = line.trim().split(/\s+/).slice(1).map(Number);
    return ((user ?? 0) + (nice ?? 0)) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in MB (VmRSS), from /proc; undefined elsewhere. */
function residentMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Mean time of a 4 KiB write + fdatasync in `dir`, in ms: what one durable commit costs at least
 * on this disk. A naive store pays it per request, a group commit per batch.
 */
function fsyncMs(dir: string, rounds = 200): number {
  const path = join(dir, 'fsync-probe');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      writeSync(fd, block, 0, block.length, (i % 16) * block.length);
      fdatasyncSync(fd);
    }
    return (performance.now() - t0) / rounds;
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
}

/**
 * What else runs on the machine: the user-mode CPU of other processes over `ms`, in cores. Kernel
 * time is left out, as the servers' loopback networking and fsyncs land there too.
 */
async function otherLoad(ms: number): Promise<number | undefined> {
  const m0 = machineUserSeconds();
  const b0 = process.cpuUsage();
  await sleep(ms);
  const m1 = machineUserSeconds();
  const own = process.cpuUsage(b0).user / 1e6;
  return m0 === undefined || m1 === undefined ? undefined : Math.max(0, m1 - m0 - own) / (ms / 1000);
}

// ---------------------------------------------------------------------------------------------
// Targets

type Op = 'POST' | 'GET';

interface Target {
  /**
   * baseline: one transaction per request; group-commit: the same server, one transaction per
   * event-loop turn; seeded: a second gateway whose store holds `--seed` payments.
   */
  readonly name: 'gateway' | 'seeded' | 'pair' | 'baseline' | 'group-commit';
  /** The gateway's data folder. */
  readonly dataDir?: string;
  /** The gateway's environment (a second process of it shares the data key and database). */
  readonly env?: Record<string, string>;
  /** More processes serving the same target (pair: a second gateway on the same PostgreSQL). */
  readonly also?: readonly Child[];
  readonly child: Child;
  readonly headers: Record<string, string>;
  readonly postPath: string;
  readonly postBody: string;
  getPath(id: string): string;
  /** Ids of payments created on this target, for the GET scenarios. */
  readonly ids: string[];
}

const PAYMENT_FIELDS =
  'amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB&card.number=4200000000000000' +
  '&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123';

const FORM = 'application/x-www-form-urlencoded';

async function startGatewayTarget(
  name: 'gateway' | 'seeded' = 'gateway',
  databaseUrl = cluster?.url,
): Promise<Target> {
  const dataDir = mkdtempSync(join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'opg-bench-gateway-'));
  tempDirs.push(dataDir);
  const env = {
    ...GATEWAY_START.env,
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_DATA_KEY: randomBytes(32).toString('hex'),
    GATEWAY_COMMIT: '0'.repeat(40),
    LOG_LEVEL: 'warn',
    DEMO_SHOP_PORT: '0',
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
  };
  const child = await startChild(name, gatewayArgs(), env, '"gateway listening"');
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo-merchant.json'), 'utf8')) as {
    entityId: string;
    accessToken: string;
  };
  // The default throttle (6,000 a minute per token and operation) would answer most of the load
  // with 429: lift it to the most the CLI allows, as an operator would for a load test.
  const cli = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/cli/main.ts',
      'channel',
      'set',
      demo.entityId,
      '--throttle',
      String(MAX_THROTTLE),
    ],
    { cwd: ROOT, env: childEnv(env), encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`gateway channel set --throttle failed:\n${cli.stdout}${cli.stderr}`);
  return {
    name,
    dataDir,
    env,
    child,
    headers: { authorization: `Bearer ${demo.accessToken}`, 'content-type': FORM },
    postPath: '/v1/payments',
    postBody: `entityId=${demo.entityId}&${PAYMENT_FIELDS}`,
    getPath: (id) => `/v1/payments/${id}?entityId=${demo.entityId}`,
    ids: [],
  };
}

async function startBaselineTarget(): Promise<Target> {
  const dataDir = mkdtempSync(join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'opg-bench-baseline-'));
  tempDirs.push(dataDir);
  const child = await startChild(
    'baseline',
    ['--import', 'tsx', 'bench/baseline.ts'],
    { BASELINE_DATA_DIR: dataDir, ...(cluster === undefined ? {} : { BASELINE_DATABASE_URL: cluster.url }) },
    '"baseline listening"',
  );
  return {
    name: 'baseline',
    child,
    headers: { 'content-type': FORM },
    postPath: '/payments',
    // The same body, entityId included, so both parse the same bytes.
    postBody: `entityId=00000000000000000000000000000000&${PAYMENT_FIELDS}`,
    getPath: (id) => `/payments/${id}`,
    ids: [],
  };
}

/** Why a parsed response is not a real successful payment, or undefined when it is. */
function verdict(status: number, body: string): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 300)}`;
  let json: { id?: unknown; result?: { code?: unknown } };
  try {
    json = JSON.parse(body);
  } catch {
    return `not JSON: ${body.slice(0, 300)}`;
  }
  if (json.result?.code !== SUCCESS) return `result.code ${String(json.result?.code)}: ${body.slice(0, 300)}`;
  if (typeof json.id !== 'string') return `no id: ${body.slice(0, 300)}`;
  return undefined;
}

/** Payments for the GET scenarios to read, made a few at a time, when no POST scenario makes them. */
async function seed(target: Target, count: number): Promise<void> {
  const base = `http://${HOST}:${target.child.port}`;
  while (target.ids.length < count) {
    const batch = Array.from({ length: 10 }, async () => {
      const res = await fetch(base + target.postPath, {
        method: 'POST',
        headers: target.headers,
        body: target.postBody,
      });
      const body = await res.text();
      const bad = verdict(res.status, body);
      if (bad !== undefined) throw new Error(`${target.name} seeding: ${bad}`);
      target.ids.push((JSON.parse(body) as { id: string }).id);
    });
    await Promise.all(batch);
  }
}

/** One POST and one GET of what it created, before any load: the scenarios must be real payments. */
/** `--seed` on PostgreSQL: a database of its own for the seeded gateway, on the run's cluster. */
async function seededDatabase(): Promise<string | undefined> {
  if (cluster === undefined) return undefined;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query('CREATE DATABASE gateway_seeded');
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = '/gateway_seeded';
  return url.toString();
}

/** The seeded target as seeded-day.ts times it: its address, credentials and CLI. */
function seededGateway(target: Target): SeededGateway {
  return {
    baseUrl: `http://${HOST}:${target.child.port}`,
    headers: target.headers,
    entityId: new URLSearchParams(target.postBody).get('entityId')!,
    cli: (args, timeoutMs, nodeArgs = []) => {
      const r = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/cli/main.ts', ...args], {
        cwd: ROOT,
        timeout: timeoutMs,
        env: childEnv(target.env!),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

async function preflight(target: Target): Promise<void> {
  const base = `http://${HOST}:${target.child.port}`;
  const post = await fetch(base + target.postPath, {
    method: 'POST',
    headers: target.headers,
    body: target.postBody,
  });
  const postBody = await post.text();
  const bad = verdict(post.status, postBody);
  if (bad !== undefined) throw new Error(`${target.name} POST preflight: ${bad}`);
  const id = (JSON.parse(postBody) as { id: string }).id;
  const get = await fetch(base + target.getPath(id), { headers: target.headers });
  const getBody = await get.text();
  const badGet = verdict(get.status, getBody);
  if (badGet !== undefined) throw new Error(`${target.name} GET preflight: ${badGet}`);
  target.ids.push(id);
}

// ---------------------------------------------------------------------------------------------
// Load

interface Measurement {
  readonly op: Op;
  readonly target: Target['name'];
  readonly connections: number;
  readonly responses: number;
  readonly elapsedS: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly statusCodes: Record<string, number>;
  /** Responses of this run parsed in full, and the first reason one failed. */
  readonly sampled: number;
  readonly sampleFailure: string | undefined;
  /** 2xx responses without `"code":"000.100.110"` in the body (every response is tested). */
  readonly missingCode: number;
  readonly serverCpu: number | undefined;
  readonly benchCpu: number;
  /** User-mode CPU of every other process meanwhile (what else competed for the cores). */
  readonly otherCpu: number | undefined;
  /** Every response's latency (ms), sorted. */
  readonly latencies: Float64Array;
}

/** The slices of one scenario and target as one measurement: sums, CPU weighted by time, percentiles of all. */
function merge(parts: readonly Measurement[]): Measurement {
  const first = parts[0]!;
  const sum = (f: (m: Measurement) => number) => parts.reduce((n, m) => n + f(m), 0);
  const elapsedS = sum((m) => m.elapsedS);
  const weighted = (f: (m: Measurement) => number | undefined) =>
    parts.some((m) => f(m) === undefined) ? undefined : sum((m) => f(m)! * m.elapsedS) / elapsedS;
  const latencies = new Float64Array(sum((m) => m.latencies.length));
  let at = 0;
  for (const m of parts) {
    latencies.set(m.latencies, at);
    at += m.latencies.length;
  }
  latencies.sort();
  const statusCodes: Record<string, number> = {};
  for (const m of parts)
    for (const [code, n] of Object.entries(m.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    ...first,
    responses: latencies.length,
    elapsedS,
    rps: latencies.length / elapsedS,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    non2xx: sum((m) => m.non2xx),
    statusCodes,
    sampled: sum((m) => m.sampled),
    sampleFailure: parts.find((m) => m.sampleFailure !== undefined)?.sampleFailure,
    missingCode: sum((m) => m.missingCode),
    serverCpu: weighted((m) => m.serverCpu),
    benchCpu: weighted((m) => m.benchCpu) ?? 0,
    otherCpu: weighted((m) => m.otherCpu),
    latencies,
  };
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const CODE_TEXT = `"code":"${SUCCESS}"`;

async function load(target: Target, op: Op, connections: number, durationS: number): Promise<Measurement> {
  let sampled = 0;
  let sampleFailure: string | undefined;
  let missingCode = 0;
  const onResponse = (status: number, body: string): void => {
    if (status >= 200 && status < 300 && !body.includes(CODE_TEXT)) missingCode++;
    if (sampled >= SAMPLE && (op === 'GET' || target.ids.length >= MAX_IDS)) return;
    sampled++;
    const bad = verdict(status, body);
    if (bad !== undefined) {
      sampleFailure ??= bad;
      return;
    }
    if (op === 'POST' && target.ids.length < MAX_IDS)
      target.ids.push((JSON.parse(body) as { id: string }).id);
  };

  let request: autocannon.Request;
  if (op === 'POST') {
    request = {
      method: 'POST',
      path: target.postPath,
      headers: target.headers,
      body: target.postBody,
      onResponse,
    };
  } else {
    const ids = target.ids;
    if (ids.length === 0) throw new Error(`${target.name}: no payment ids to read`);
    let next = 0;
    request = {
      method: 'GET',
      path: target.getPath(ids[0]!),
      headers: target.headers,
      setupRequest: (req) => ({ ...req, path: target.getPath(ids[next++ % ids.length]!) }),
      onResponse,
    };
  }

  const latencies: number[] = [];
  // Several processes (the scale-out target): the connections split among them, their CPU summed.
  const servers = [target.child, ...(target.also ?? [])];
  const cpuOf = () => {
    const each = servers.map((s) => processCpu(s.proc.pid));
    return each.some((c) => c === undefined)
      ? undefined
      : { user: each.reduce((n, c) => n + c!.user, 0), system: each.reduce((n, c) => n + c!.system, 0) };
  };
  const cpu0 = cpuOf();
  const machine0 = machineUserSeconds();
  const bench0 = process.cpuUsage();
  const t0 = performance.now();
  const results = await Promise.all(
    servers.map(
      (server, i) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const share = Math.floor(connections / servers.length) + (i < connections % servers.length ? 1 : 0);
          const instance = autocannon(
            {
              url: `http://${HOST}:${server.port}`,
              connections: share,
              duration: durationS,
              timeout: 10,
              requests: [request],
            },
            (error: unknown, res: autocannon.Result) => (error ? reject(error) : resolve(res)),
          );
          instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
        }),
    ),
  );
  const elapsedS = (performance.now() - t0) / 1000;
  const cpu1 = cpuOf();
  const machine1 = machineUserSeconds();
  const bench = process.cpuUsage(bench0);
  const server =
    cpu0 === undefined || cpu1 === undefined
      ? undefined
      : { user: cpu1.user - cpu0.user, system: cpu1.system - cpu0.system };

  const sorted = Float64Array.from(latencies).sort();
  const statusCodes: Record<string, number> = {};
  for (const result of results)
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
      statusCodes[code] = (statusCodes[code] ?? 0) + (stat.count ?? 0);
  const result = {
    errors: results.reduce((n, r) => n + r.errors, 0),
    timeouts: results.reduce((n, r) => n + r.timeouts, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
  };
  return {
    op,
    target: target.name,
    connections,
    responses: latencies.length,
    elapsedS,
    rps: latencies.length / elapsedS,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    sampled,
    sampleFailure,
    missingCode,
    serverCpu: server === undefined ? undefined : (server.user + server.system) / elapsedS,
    benchCpu: (bench.user + bench.system) / 1e6 / elapsedS,
    otherCpu:
      server === undefined || machine0 === undefined || machine1 === undefined
        ? undefined
        : Math.max(0, machine1 - machine0 - server.user - bench.user / 1e6) / elapsedS,
    latencies: sorted,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const pct = (n: number | undefined) => (n === undefined ? '-' : `${Math.round(n * 100)}%`);

function table(rows: readonly Measurement[]): string {
  const head = [
    'Scenario',
    'Target',
    'Conns',
    'Req/s',
    'p50 ms',
    'p99 ms',
    'Responses',
    'Errors',
    'Non-2xx',
    'Server CPU',
    'µs/resp',
    'Bench CPU',
    'Other CPU',
    'Checked',
  ];
  const names: Record<Op, Record<Target['name'], string>> = {
    POST: {
      gateway: 'POST /v1/payments',
      seeded: 'POST /v1/payments',
      pair: 'POST /v1/payments',
      baseline: 'POST /payments',
      'group-commit': 'POST /group/payments',
    },
    GET: {
      gateway: 'GET /v1/payments/{id}',
      seeded: 'GET /v1/payments/{id}',
      pair: 'GET /v1/payments/{id}',
      baseline: 'GET /payments/:id',
      'group-commit': 'GET /payments/:id',
    },
  };
  const name = (m: Measurement) => names[m.op][m.target];
  const body = rows.map((m) => [
    name(m),
    m.target,
    String(m.connections),
    fmt(m.rps, 0),
    fmt(m.p50, 2),
    fmt(m.p99, 2),
    String(m.responses),
    String(m.errors + m.timeouts),
    String(m.non2xx),
    pct(m.serverCpu),
    m.serverCpu === undefined ? '-' : fmt((m.serverCpu * 1e6) / m.rps, 0),
    pct(m.benchCpu),
    pct(m.otherCpu),
    m.sampleFailure === undefined && m.missingCode === 0 ? `${m.sampled} ok` : 'FAILED',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...body.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs`);
  console.log(
    `${DURATION} s per scenario and target (in slices, the targets in turns) after ${WARMUP} s of ` +
      `warm-up (not counted), connections ${CONNECTIONS.join(', ')}`,
  );

  const before = await otherLoad(1_000);
  if (before !== undefined) {
    console.log(`other processes before the run: ${pct(before)} of one core (user mode, over 1 s)`);
    if (before > 0.1)
      console.log('  the machine is not idle: expect lower and noisier numbers than on an idle one');
  }
  if (POSTGRES) {
    cluster = await startPostgres();
    console.log(`PostgreSQL: a throwaway cluster at ${cluster.url} for the gateway and the baseline`);
  }
  await bundleServer();
  const gateway = await startGatewayTarget();
  const baseline = await startBaselineTarget();
  // The group-commit floor: the baseline's server, its batched endpoint (POST scenarios only).
  const groupCommit: Target = { ...baseline, name: 'group-commit', postPath: '/group/payments', ids: [] };
  // On PostgreSQL the seeded store is a database of its own on the same cluster.
  const seeded = SEED > 0 ? await startGatewayTarget('seeded', await seededDatabase()) : undefined;
  // With PostgreSQL: a second gateway process on the same database, and the target `pair` that
  // splits the connections between the two.
  const pair: Target | undefined =
    cluster === undefined
      ? undefined
      : {
          ...gateway,
          name: 'pair',
          also: [await startChild('gateway #2', gatewayArgs(), gateway.env!, '"gateway listening"')],
        };
  const gateways = [
    gateway,
    ...(seeded === undefined ? [] : [seeded]),
    ...(pair === undefined ? [] : [pair]),
  ];
  const targets = [...gateways, baseline];
  const targetsOf = (op: Op) => (op === 'POST' ? [...gateways, baseline, groupCommit] : targets);
  console.log(`gateway on ${HOST}:${gateway.child.port}, baseline on ${HOST}:${baseline.child.port}`);
  console.log(`data in ${tempDirs.join(' and ')} (removed at the end)`);
  console.log(`4 KiB write + fdatasync there: ${fmt(fsyncMs(tempDirs[0]!), 3)} ms (mean of 200)`);
  console.log(`gateway channel throttle lifted to ${MAX_THROTTLE}/min for the run`);
  for (const t of targetsOf('POST')) await preflight(t);
  console.log('preflight: POST and GET answer 200 with result.code 000.100.110 on every target');
  if (seeded !== undefined) {
    const s =
      seeded.env?.DATABASE_URL !== undefined
        ? await seedPostgres(seeded.env.DATABASE_URL, seeded.ids[0]!, SEED)
        : seedSqlite(seeded.dataDir!, seeded.ids[0]!, SEED);
    // Its reads: old rows as well as the ones the load makes.
    seeded.ids.push(...s.sampleIds);
    console.log(
      `seeded ${s.count.toLocaleString('en')} payments and as many delivered webhook deliveries into the ` +
        `second gateway's store in ${fmt(s.seconds, 1)} s`,
    );
    await socketsCaughtUp();
    for (const line of await seededDayTimings(seededGateway(seeded))) console.log(line);
    await socketsCaughtUp();
  }
  if (!OPS.includes('POST')) {
    for (const t of targets) await seed(t, SEED_IDS);
    console.log(`seeded ${SEED_IDS} payments on each for the reads`);
  }
  console.log('');

  const gatewayPid = gateway.child.proc.pid;
  const rssStart = residentMb(gatewayPid);
  let rssPeak = rssStart;
  const rssTimer = setInterval(() => {
    const now = residentMb(gatewayPid);
    if (now !== undefined && (rssPeak === undefined || now > rssPeak)) rssPeak = now;
  }, 250);
  const rows: Measurement[] = [];
  for (const op of OPS) {
    for (const connections of CONNECTIONS) {
      const targetsNow = targetsOf(op);
      if (WARMUP > 0) {
        // In turns too, so that no gateway waits through the others' whole warm-up.
        const warm = slicing(WARMUP, targetsNow.length);
        process.stdout.write(`${op} c=${connections}: warm-up ${warm.rounds} × ${warm.slice} s each … `);
        for (let round = 0; round < warm.rounds; round++)
          for (const target of targetsNow) await load(target, op, connections, warm.slice);
      }
      const { slice, rounds } = slicing(DURATION, targetsNow.length);
      process.stdout.write(`measuring ${rounds} × ${slice} s each, in turns … `);
      const parts = new Map<Target, Measurement[]>(targetsNow.map((t) => [t, []]));
      for (let round = 0; round < rounds; round++)
        for (const target of targetsNow) parts.get(target)!.push(await load(target, op, connections, slice));
      console.log('');
      for (const target of targetsNow) {
        const m = merge(parts.get(target)!);
        rows.push(m);
        console.log(
          `  ${target.name}: ${fmt(m.rps, 0)} req/s, p50 ${fmt(m.p50, 2)} ms, p99 ${fmt(m.p99, 2)} ms` +
            `${m.errors + m.timeouts + m.non2xx > 0 ? `, status ${JSON.stringify(m.statusCodes)}` : ''}`,
        );
        if (m.sampleFailure !== undefined) console.log(`  sampled response failed: ${m.sampleFailure}`);
      }
      await sleep(500);
    }
  }
  clearInterval(rssTimer);
  const rssEnd = residentMb(gatewayPid);
  await sleep(SETTLE * 1000);
  const rssSettled = residentMb(gatewayPid);

  console.log(`\n${table(rows)}\n`);
  console.log(
    'Req/s: responses / wall time of the measured run. p50/p99: every response of the run (ms).\n' +
      'Errors: connection errors + timeouts. CPU in % of one core over the run (of ' +
      `${os.cpus().length * 100}% in all): Server: the\n` +
      'server process (all threads, user + kernel); Bench: this process (the load generator, user + kernel);\n' +
      'µs/resp: server CPU time per response (steadier than Req/s on a busy machine).\n' +
      'Other: user-mode CPU of every other process on the machine (competition the run did not cause).\n' +
      `Checked: responses of the run parsed in full (HTTP 200,\n` +
      `result.code ${SUCCESS}, an id): the first ${SAMPLE}, or more while POST runs collect ids for the GETs\n` +
      `(up to ${MAX_IDS} per target); every 2xx body is also searched for the code.\n`,
  );

  const find = (op: Op, target: Target['name'], c: number) =>
    rows.find((r) => r.op === op && r.target === target && r.connections === c);
  let goalsMet = true;
  const goal = (text: string, ok: boolean | undefined): void => {
    if (ok === undefined) console.log(`  ${text}: not measured`);
    else {
      goalsMet &&= ok;
      console.log(`  ${text}  ${ok ? 'PASS' : 'FAIL'}`);
    }
  };
  const ratio = (a: Measurement, b: Measurement) => `${fmt((a.rps / b.rps) * 100, 0)}%`;
  console.log('Goals');
  for (const c of CONNECTIONS) {
    const g = find('POST', 'gateway', c);
    const b = find('POST', 'baseline', c);
    const f = find('POST', 'group-commit', c);
    if (g !== undefined && b !== undefined)
      goal(
        `POST at ${c} connections, gateway ≥ naive baseline: ${fmt(g.rps, 0)} vs ${fmt(b.rps, 0)} req/s (${ratio(g, b)})`,
        g.rps >= b.rps,
      );
    if (g !== undefined && f !== undefined && c === GOAL_CONNECTIONS)
      goal(
        `POST at ${c} connections, gateway ≥ ${GROUP_COMMIT_GOAL * 100}% of the group-commit floor: ` +
          `${fmt(g.rps, 0)} vs ${fmt(f.rps, 0)} req/s (${ratio(g, f)})`,
        g.rps >= GROUP_COMMIT_GOAL * f.rps,
      );
    else if (g !== undefined && f !== undefined)
      console.log(
        `  POST at ${c} connections, gateway against the group-commit floor: ${ratio(g, f)} (no goal)`,
      );
  }
  const g50 = find('POST', 'gateway', GOAL_CONNECTIONS);
  goal(
    `POST p99 ≤ ${P99_GOAL_MS} ms at ${GOAL_CONNECTIONS} connections` +
      (g50 === undefined ? '' : `: ${fmt(g50.p99, 2)} ms`),
    g50 === undefined ? undefined : g50.p99 <= P99_GOAL_MS,
  );
  for (const c of CONNECTIONS) {
    const g = find('GET', 'gateway', c);
    const b = find('GET', 'baseline', c);
    if (g === undefined || b === undefined) continue;
    const text = `GET at ${c} connections, gateway against the bare primary-key read: ${fmt(g.rps, 0)} vs ${fmt(b.rps, 0)} req/s (${ratio(g, b)})`;
    if (c === GOAL_CONNECTIONS) goal(`${text}, goal ≥ ${READ_GOAL * 100}%`, g.rps >= READ_GOAL * b.rps);
    else console.log(`  ${text} (no goal)`);
  }
  if (pair !== undefined)
    for (const op of OPS)
      for (const c of CONNECTIONS) {
        const one = find(op, 'gateway', c);
        const two = find(op, 'pair', c);
        if (one !== undefined && two !== undefined)
          console.log(
            `  ${op} at ${c} connections, two gateway processes on one PostgreSQL against one: ` +
              `${fmt(two.rps, 0)} vs ${fmt(one.rps, 0)} req/s (${ratio(two, one)}) (no goal)`,
          );
      }
  if (seeded !== undefined)
    for (const op of OPS)
      for (const c of CONNECTIONS) {
        const e = find(op, 'gateway', c);
        const g = find(op, 'seeded', c);
        if (e !== undefined && g !== undefined)
          goal(
            `${op} at ${c} connections with ${SEED.toLocaleString('en')} payments stored, within ` +
              `${fmt((1 - SEEDED_GOAL) * 100, 0)}% of the empty store: ${fmt(g.rps, 0)} vs ${fmt(e.rps, 0)} req/s (${ratio(g, e)})`,
            g.rps >= SEEDED_GOAL * e.rps,
          );
      }
  const mb = (n: number | undefined) => (n === undefined ? '-' : `${fmt(n, 0)} MB`);
  console.log(
    `  gateway RSS: ${mb(rssStart)} at the start, ${mb(rssEnd)} at the end of the load (peak ${mb(rssPeak)}), ` +
      `${mb(rssSettled)} after ${SETTLE} s idle`,
  );
  goal(
    `gateway RSS at the end of the load ≤ ${RSS_LOAD_GOAL_MB} MB: ${mb(rssEnd)}`,
    rssEnd === undefined ? undefined : rssEnd <= RSS_LOAD_GOAL_MB,
  );
  goal(
    `gateway RSS after ${SETTLE} s idle within ${RSS_SETTLE_GOAL * 100}% of its start: ${mb(rssSettled)} vs ${mb(rssStart)}`,
    rssSettled === undefined || rssStart === undefined
      ? undefined
      : rssSettled <= rssStart * (1 + RSS_SETTLE_GOAL),
  );

  const invalid = rows.filter(
    (r) => r.errors + r.timeouts + r.non2xx > 0 || r.sampleFailure !== undefined || r.missingCode > 0,
  );
  if (invalid.length > 0) {
    console.log('\nINVALID: some responses were not successful payments:');
    for (const r of invalid)
      console.log(
        `  ${r.op} ${r.target} c=${r.connections}: errors ${r.errors}, timeouts ${r.timeouts}, ` +
          `status ${JSON.stringify(r.statusCodes)}, without code ${r.missingCode}` +
          `${r.sampleFailure === undefined ? '' : `, e.g. ${r.sampleFailure}`}`,
      );
    return 1;
  }
  return strict && !goalsMet ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause !== undefined) console.error('cause:', error.cause);
  // What a server said last, and whether it is still running: a failed request is usually a child that died.
  for (const child of children) {
    const state =
      child.proc.exitCode !== null || child.proc.signalCode !== null
        ? `exited (${child.proc.exitCode ?? child.proc.signalCode})`
        : 'running';
    console.error(`--- ${child.name}: ${state}; its last output:\n${child.output().slice(-2_000)}`);
  }
} finally {
  await cleanup();
}
process.exit(exitCode);
