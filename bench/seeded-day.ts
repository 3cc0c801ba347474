/**
 * `payments.bench.ts --seed N`: what the seeded store's day costs beyond single payments (issue
 * 21): the Query API over the 24 hours the seed spans (GET /v1/query with date.from and date.to,
 * as a merchant's reconciliation would call it) and the settlement run of the seeded merchant's
 * previous UTC day (`gateway settlement run --date`), each timed once on the idle gateway, the
 * run with its process's peak resident set (its memory must not grow with the day).
 */
import { closeSync, openSync, readSync } from 'node:fs';

export interface SeededGateway {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  readonly headers: Record<string, string>;
  readonly entityId: string;
  /**
   * Runs `node <nodeArgs> … server/cli/main.ts <args>` against the seeded store, killed after
   * `timeoutMs`.
   */
  cli(
    args: readonly string[],
    timeoutMs: number,
    nodeArgs?: readonly string[],
  ): { status: number | null; stdout: string; stderr: string };
}

/** How long the settlement run may take (BENCH_SETTLEMENT_TIMEOUT, seconds): the load waits for it. */
const SETTLEMENT_TIMEOUT_MS = Number(process.env.BENCH_SETTLEMENT_TIMEOUT ?? 600) * 1000;

/**
 * A node option that prints the process's peak resident set (getrusage's ru_maxrss, KiB) as the
 * last line of its stderr when it exits: the CLI's own figure, without a wrapper process.
 */
const PEAK_RSS_ARGS = [
  "--import=data:text/javascript,process.on('exit',()=>process.stderr.write('\\npeak-rss-kib:'+process.resourceUsage().maxRSS+'\\n'))",
];

/** The peak resident set in MB a run printed (see PEAK_RSS_ARGS), or '?' when it did not finish. */
function peakRssMb(stderr: string): string {
  const kib = /peak-rss-kib:(\d+)/.exec(stderr)?.[1];
  return kib === undefined ? '?' : ((Number(kib) * 1024) / 1e6).toFixed(0);
}

/**
 * The lines of a file, counted in its bytes: a day of a million payments settles into a
 * reconciliation file larger than the longest string V8 makes (512 MB), so it is never read whole.
 */
export function countLines(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let lines = 0;
    let last = -1;
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      for (let at = chunk.indexOf(10); at !== -1 && at < n; at = chunk.indexOf(10, at + 1)) lines++;
      last = chunk[n - 1]!;
    }
    // A last line without its line break counts too.
    return last === -1 || last === 10 ? lines : lines + 1;
  } finally {
    closeSync(fd);
  }
}

/** `YYYY-MM-DD hh:mm:ss` in UTC: the Query API's date.from and date.to. */
const queryTime = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');

/** One line per measurement, to print. */
export async function seededDayTimings(gateway: SeededGateway, now = new Date()): Promise<string[]> {
  const lines: string[] = [];
  const from = new Date(now.getTime() - 86_400_000);
  const query = new URLSearchParams({
    entityId: gateway.entityId,
    'date.from': queryTime(from),
    'date.to': queryTime(now),
  });
  const t0 = performance.now();
  const response = await fetch(`${gateway.baseUrl}/v1/query?${query}`, {
    headers: { authorization: gateway.headers.authorization! },
  });
  const body = (await response.json()) as { payments?: unknown[]; result?: { code?: string } };
  const queryMs = performance.now() - t0;
  lines.push(
    `Query API, GET /v1/query over the seeded 24 hours: HTTP ${response.status} ${body.result?.code ?? ''}, ` +
      `${body.payments?.length ?? 0} payments in the answer, ${queryMs.toFixed(0)} ms`,
  );
  // The CLI's own start (tsx, opening the store) timed by a run of a day without payments.
  const t1 = performance.now();
  const empty = gateway.cli(
    ['settlement', 'run', '--date', '2000-01-01', '--json'],
    SETTLEMENT_TIMEOUT_MS,
    PEAK_RSS_ARGS,
  );
  const startSeconds = (performance.now() - t1) / 1000;
  const day = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const t2 = performance.now();
  const run = gateway.cli(
    ['settlement', 'run', '--date', day, '--json'],
    SETTLEMENT_TIMEOUT_MS,
    PEAK_RSS_ARGS,
  );
  const runSeconds = (performance.now() - t2) / 1000;
  if (run.status === null) {
    lines.push(`settlement run --date ${day}: not finished after ${runSeconds.toFixed(0)} s, stopped`);
    return lines;
  }
  if (empty.status !== 0 || run.status !== 0) {
    lines.push(
      `settlement run: FAILED (exit ${empty.status}, ${run.status}) ${empty.stderr}${run.stderr}`
        .replace(/peak-rss-kib:\d+/g, '')
        .trim(),
    );
    return lines;
  }
  const accounts = JSON.parse(run.stdout) as { status?: string; file?: string | null }[];
  // The reconciliation file: a header line and one line per settled record.
  const records = accounts.reduce((sum, a) => sum + (a.file ? countLines(a.file) - 1 : 0), 0);
  lines.push(
    `settlement run --date ${day} (the seeded merchant's previous UTC day): ${records.toLocaleString('en')} ` +
      `records settled in ${runSeconds.toFixed(1)} s, peak RSS ${peakRssMb(run.stderr)} MB; the CLI's start ` +
      `(a run of a day without payments) about ${startSeconds.toFixed(1)} s, ${peakRssMb(empty.stderr)} MB`,
  );
  return lines;
}
