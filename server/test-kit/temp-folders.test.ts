/**
 * The safety net of temp-folders.ts, through the repository's own Vitest configuration: a test
 * file that forgets its clean-ups (fixtures/forgotten-cleanup/) runs in a child Vitest with a
 * TMPDIR of its own, and once it has run, none of the folders it made (it prints each) is left.
 * Without the setup file in vite.config.ts's `test.setupFiles`, all of them would be.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './process';

const run = promisify(execFile);
const FIXTURE = 'server/test-kit/fixtures/forgotten-cleanup';

/** This worker's environment without Vitest's own variables (the child is a Vitest of its own). */
function childEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, NO_COLOR: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'TEST') delete env[name];
  return env;
}

describe('a test file that forgets its clean-ups', () => {
  it('leaves nothing in the temporary folder once it has run', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'leftovers-'));
    try {
      const { stdout } = await run(
        process.execPath,
        ['node_modules/vitest/vitest.mjs', 'run', '--config', `${FIXTURE}/vitest.config.ts`],
        { cwd: REPO_ROOT, env: childEnv(tmp), timeout: 110_000, maxBuffer: 16 * 1024 * 1024 },
      );
      const made = [...stdout.matchAll(/^left behind: (.+)$/gm)].map((m) => m[1]!);
      // the fixture's four folders (each seen to exist while its test ran), all in the child's TMPDIR
      expect(made).toHaveLength(4);
      for (const dir of made) expect(dir.startsWith(`${tmp}/`), dir).toBe(true);
      expect(made.filter((dir) => existsSync(dir))).toEqual([]);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
