/**
 * Vitest's setup file (`test.setupFiles`), run before each test file: at the file's end, after the
 * file's own `afterAll` hooks, whatever the kit's gateways and temporary folders left is closed and
 * deleted (temp-folders.ts), so no test leaves its data in /tmp.
 *
 * Most test files share their worker's modules with the files run before them (`isolate: false`,
 * the "gateway" project in vite.config.ts), so what a file changed in the process is also put back
 * here: real timers, stubbed globals and environment variables (Vitest itself restores spies
 * between files). The kit's module state (temp-folders.ts's list) is shared too, which is right as
 * a worker runs one file at a time: what is registered during a file is released at its end.
 */
import { afterAll, vi } from 'vitest';
import { releaseLeftovers } from './temp-folders';

// Closing a few gateways (a checkpoint each) and deleting their folders: more than the default 10 s
// on a loaded machine.
afterAll(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  await releaseLeftovers();
}, 120_000);
