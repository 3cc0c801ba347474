/**
 * Starts the harness (harness.ts) once for the whole run and hands its URLs to the tests through
 * the environment (Playwright passes what global setup sets to its workers). The widget
 * benchmark (bench/widget.bench.ts) starts it the same way, through startHarness().
 */
import { fileURLToPath } from 'node:url';
import { startChild } from '../kit/child';
import type { HarnessInfo } from './harness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningHarness {
  readonly info: HarnessInfo;
  stop(): Promise<void>;
}

/** Runs harness.ts as a child process (the kit's startChild) and waits for its JSON line. */
export async function startHarness(env: NodeJS.ProcessEnv = process.env): Promise<RunningHarness> {
  // The gateway logs too (its first line says it runs in developer mode): the harness's own
  // line is the one naming the gateway's URL.
  const { report, stop } = await startChild<HarnessInfo>('e2e/support/harness.ts', {
    cwd: ROOT,
    env,
    stderr: 'inherit',
    isReport: (parsed) => typeof parsed.gatewayUrl === 'string' && typeof parsed.shopUrl === 'string',
  });
  return { info: report, stop };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const harness = await startHarness();
  process.env.E2E_HARNESS = JSON.stringify(harness.info);
  return () => harness.stop();
}
