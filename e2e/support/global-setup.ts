/**
 * Starts the harness (harness.ts) once for the whole run and hands its URLs to the tests through
 * the environment (Playwright passes what global setup sets to its workers). The widget
 * benchmark (bench/widget.bench.ts) starts it the same way, through startHarness().
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { HarnessInfo } from './harness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningHarness {
  readonly info: HarnessInfo;
  stop(): Promise<void>;
}

/**
 * Spawns harness.ts as a child process and waits for its JSON line (the gateway may log lines of
 * its own before it, such as the developer-mode warning).
 */
export async function startHarness(env: NodeJS.ProcessEnv = process.env): Promise<RunningHarness> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/harness.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<HarnessInfo>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      let parsed: Partial<HarnessInfo> | undefined;
      try {
        parsed = JSON.parse(line) as Partial<HarnessInfo>;
      } catch {
        return;
      }
      if (typeof parsed?.gatewayUrl === 'string' && typeof parsed.shopUrl === 'string') {
        lines.removeAllListeners('line');
        resolve(parsed as HarnessInfo);
      }
    });
    child.once('exit', (code) => reject(new Error(`the e2e harness exited with ${code}`)));
  });
  return {
    info,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const harness = await startHarness();
  process.env.E2E_HARNESS = JSON.stringify(harness.info);
  return () => harness.stop();
}
