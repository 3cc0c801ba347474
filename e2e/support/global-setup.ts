/**
 * Starts the harness (harness.ts) once for the whole run and hands its URLs to the tests through
 * the environment (Playwright passes what global setup sets to its workers).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { HarnessInfo } from './harness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default async function globalSetup(): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/harness.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<HarnessInfo>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(JSON.parse(line) as HarnessInfo));
    child.once('exit', (code) => reject(new Error(`the e2e harness exited with ${code}`)));
  });
  process.env.E2E_HARNESS = JSON.stringify(info);
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}
