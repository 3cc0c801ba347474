/**
 * A program run as a child process (TypeScript under `node --import tsx`, or a bundle under plain
 * `node`) that reports with one JSON
 * line on stdout and then serves until SIGTERM: the kit's test gateway (serve.ts) and the
 * repository's e2e harness (e2e/support/harness.ts). Anything else the child prints (the gateway's
 * own logs) is passed over.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildOptions<T> {
  /** The working directory, where `tsx` is found. */
  readonly cwd: string;
  /** The script is TypeScript, run with `--import tsx` (default true). */
  readonly typescript?: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** Whether a parsed JSON line is the report (the gateway may log JSON lines too). */
  readonly isReport: (value: Partial<T>) => boolean;
  /** The child's stderr: shown as it comes (`inherit`), or kept for the error if it fails. */
  readonly stderr?: 'inherit' | 'keep';
}

export interface RunningChild<T> {
  readonly report: T;
  /** SIGTERM, and resolves once the child has exited. */
  stop(): Promise<void>;
}

export async function startChild<T>(script: string, options: ChildOptions<T>): Promise<RunningChild<T>> {
  const loader = options.typescript === false ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...loader, script], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', options.stderr === 'inherit' ? 'inherit' : 'pipe'],
  });
  let kept = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    kept = (kept + chunk.toString('utf8')).slice(-16_384);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  const report = new Promise<T>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const parsed = line.startsWith('{') ? (JSON.parse(line) as Partial<T>) : {};
      if (options.isReport(parsed)) {
        lines.removeAllListeners('line');
        resolve(parsed as T);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code}${kept === '' ? '' : `:\n${kept}`}`)),
    );
  });
  try {
    return { report: await report, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
