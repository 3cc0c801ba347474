/**
 * Vitest's setup file (`test.setupFiles`), run before each test file: at the file's end, after the
 * file's own `afterAll` hooks, whatever the kit's gateways and temporary folders left is closed and
 * deleted (temp-folders.ts), so no test leaves its data in /tmp.
 */
import { afterAll } from 'vitest';
import { releaseLeftovers } from './temp-folders';

// Closing a few gateways (a checkpoint each) and deleting their folders: more than the default 10 s
// on a loaded machine.
afterAll(releaseLeftovers, 120_000);
